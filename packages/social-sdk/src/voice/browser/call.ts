import { AudioModeType, CallError, CallStatus, LoggingSeverity } from '../../enums.js';
import type { Snowflake } from '../../snowflake.js';
import { CallBase, ENDED_CLOSES } from '../call-base.js';
import type { CallHost, CallLike, UserAudioCapturedCallback, UserAudioReceivedCallback } from '../types.js';
import type { DaveyModule } from './davey.js';
import { DaveOp } from '@accord/protocol';
import { E2ee } from './e2ee.js';
import { CallMedia } from './media.js';
import { VoicePeer, selectWebrtcProtocol } from './peer.js';
import { VoiceOp, VoiceSocket } from './socket.js';

/** Close codes after which the voice session is gone. */
const FINAL = new Set([1000, 4001, 4002, 4003, 4004, 4005, 4006, 4009, 4011, 4012, 4016, 4017, 4020, 4021]);
const MAX_RESUMES = 5;
/** How often the gate (mute, push-to-talk, voice activity) and the no-audio detector look at the microphone. */
const TICK_MS = 20;
/** Voice activity stays open this long after the level drops (words do not flicker). */
const VAD_HOLD_MS = 300;
/** The microphone counts as silent after this long under the no-audio threshold. */
const NO_INPUT_MS = 1000;
const SPEAKING_MICROPHONE = 1;

/**
 * A lobby call in a browser: op 17 on the main Gateway, the voice gateway with protocol `webrtc` (the offer's SDP in
 * op 1, the server's transport in op 4), DAVE on every encoded frame, and the audio graph of CallMedia. A dropped voice
 * socket is resumed with the peer and DAVE kept; a lost session joins again.
 */
export class BrowserCall extends CallBase implements CallLike {
  private socket: VoiceSocket | null = null;
  private peer: VoicePeer | null = null;
  private e2ee: E2ee | null = null;
  private davey: Promise<DaveyModule | null> = Promise.resolve(null);
  private readonly media: CallMedia;
  private readonly connected = new Set<Snowflake>();
  private readonly ssrcs = new Map<Snowflake, number>();
  private described = false;
  private resumes = 0;
  private tick: ReturnType<typeof setInterval> | null = null;
  private loudAt = 0;
  private heardAt = 0;
  private transmitting = false;

  constructor(
    host: CallHost,
    lobbyId: Snowflake,
    private readonly loadDavey: () => Promise<DaveyModule | null>,
    received?: UserAudioReceivedCallback,
    captured?: UserAudioCapturedCallback,
  ) {
    super(host, lobbyId);
    this.media = new CallMedia(host.audio, received, captured, (id) => !this.localMutes.has(id));
  }

  /** The DAVE state: protocol version, whether frames are end-to-end encrypted, and the group's privacy code. */
  getEncryptionState(): { protocolVersion: number; ready: boolean; privacyCode: string } {
    const e = this.e2ee;
    return { protocolVersion: e?.version ?? 0, ready: !e || e.version === 0 || e.active, privacyCode: e?.privacyCode ?? '' };
  }

  /** Why the microphone could not be opened (the call then only listens), or null. */
  getMicrophoneError(): string | null {
    return this.media.micError;
  }

  start(): void {
    this.ending = false;
    this.setStatus(CallStatus.Joining);
    this.davey = this.loadDavey();
    this.heardAt = Date.now();
    void this.media.openMicrophone();
    this.tick = setInterval(() => this.onTick(), TICK_MS);
    this.sendVoiceState();
  }

  applyAudio(): void {
    this.media.apply();
  }

  protected mediaChanged(): void {
    this.media.deafened = this.selfDeaf;
    for (const id of this.participants) this.media.setSpeakerGain(id, this.localMutes.has(id) ? 0 : this.getParticipantVolume(id));
    this.media.apply();
    this.onTick();
  }

  protected release(): void {
    if (this.tick) clearInterval(this.tick);
    this.tick = null;
    this.media.close();
  }

  protected teardown(): void {
    const socket = this.socket;
    this.socket = null;
    socket?.close();
    this.peer?.close();
    this.peer = null;
    this.e2ee?.close();
    this.e2ee = null;
    this.described = false;
    this.connected.clear();
    this.ssrcs.clear();
    for (const id of this.participants) this.media.remove(id);
  }

  onGatewayRestarted(): void {
    if (this.ending) return;
    this.rejoin(CallError.None, 0);
  }

  protected connectVoice(): void {
    this.resumes = 0;
    void this.connect();
  }

  /** Another member left the call: their audio goes with them. */
  protected onOtherVoiceState(userId: Snowflake, d: any): void {
    super.onOtherVoiceState(userId, d);
    if (d.channel_id !== this.lobbyId) this.media.remove(userId);
  }

  /** The voice gateway: Identify, or after a drop Resume (op 7) with the peer and DAVE kept as they are. */
  private async connect(resumeFrom?: number): Promise<void> {
    const server = this.server;
    const sessionId = this.sessionId;
    if (!server || !sessionId) return;
    this.setStatus(resumeFrom === undefined ? CallStatus.Connecting : CallStatus.Reconnecting);
    const davey = await this.davey;
    if (this.ending || server !== this.server) return;
    const socket: VoiceSocket = new VoiceSocket(
      server.endpoint,
      {
        open: () =>
          resumeFrom === undefined
            ? socket.send(VoiceOp.IDENTIFY, {
                server_id: this.lobbyId,
                user_id: this.host.userId,
                session_id: sessionId,
                token: server.token,
                max_dave_protocol_version: davey ? davey.DAVE_PROTOCOL_VERSION : 0,
              })
            : socket.send(VoiceOp.RESUME, { server_id: this.lobbyId, session_id: sessionId, token: server.token, seq_ack: socket.seq }),
        json: (op, d) => {
          if (socket !== this.socket) return;
          this.onVoice(socket, davey, op, d).catch((err) => this.fail(err));
        },
        binary: (op, payload) => {
          if (socket !== this.socket) return;
          try {
            this.e2ee?.onBinary(op, payload);
          } catch (err) {
            this.host.log(`call ${this.lobbyId}: DAVE op ${op} failed: ${(err as Error).message}`, LoggingSeverity.Warning);
          }
        },
        closed: (code) => this.onClosed(socket, code),
      },
      resumeFrom,
    );
    this.socket = socket;
  }

  private onClosed(socket: VoiceSocket, code: number): void {
    if (socket !== this.socket || this.ending) return;
    this.socket = null;
    if (ENDED_CLOSES.has(code)) return void this.end();
    if (!this.described || FINAL.has(code) || this.resumes >= MAX_RESUMES) return this.rejoin(CallError.SignalingUnexpectedClose, code);
    this.resumes++;
    this.setStatus(CallStatus.Reconnecting, CallError.SignalingUnexpectedClose, code);
    setTimeout(() => !this.ending && !this.socket && void this.connect(socket.seq), 250 * this.resumes);
  }

  private fail(err: unknown): void {
    this.host.log(`call ${this.lobbyId}: ${(err as Error)?.message ?? err}`, LoggingSeverity.Error);
    if (!this.ending) this.rejoin(CallError.VoiceConnectionFailed, 0);
  }

  private async onVoice(socket: VoiceSocket, davey: DaveyModule | null, op: number, d: any): Promise<void> {
    switch (op) {
      case VoiceOp.READY: {
        const peer = new VoicePeer(
          { encrypt: (f) => (this.e2ee ? this.e2ee.encrypt(f) : f), decrypt: (u, f) => (this.e2ee ? this.e2ee.decrypt(u, f) : f) },
          (userId, track) => {
            this.media.play(userId, track);
            this.media.setSpeakerGain(userId, this.localMutes.has(userId) ? 0 : this.getParticipantVolume(userId));
          },
        );
        this.peer = peer;
        peer.pc.addEventListener('connectionstatechange', () => {
          if (peer !== this.peer || this.ending) return;
          if (peer.pc.connectionState === 'connected') this.setStatus(CallStatus.Connected);
          if (peer.pc.connectionState === 'failed') this.fail(new Error('the media connection failed (no route to the voice server)'));
        });
        socket.send(VoiceOp.SELECT_PROTOCOL, selectWebrtcProtocol(await peer.offer(this.media.track)));
        return;
      }
      case VoiceOp.SESSION_DESCRIPTION: {
        const version = Number(d.dave_protocol_version) || 0;
        if (davey && !this.e2ee)
          this.e2ee = new E2ee(davey, version, this.host.userId, this.lobbyId, () => [...this.connected], {
            json: (o, payload) => socket.send(o, payload),
            binary: (o, payload) => socket.sendBinary(o, payload),
            changed: () => {},
          });
        this.described = true;
        this.resumes = 0;
        this.setStatus(CallStatus.SignalingConnected);
        await this.peer?.answer(String(d.sdp ?? ''));
        if (this.peer?.pc.connectionState === 'connected') this.setStatus(CallStatus.Connected);
        if (this.transmitting) this.sendSpeaking(true);
        return;
      }
      case VoiceOp.SPEAKING: {
        const userId = d?.user_id ? String(d.user_id) : '';
        if (!userId || userId === this.host.userId) return;
        if (Number.isInteger(d.ssrc) && this.ssrcs.get(userId) !== d.ssrc) {
          this.ssrcs.set(userId, d.ssrc);
          void this.peer?.addSpeaker(userId, d.ssrc);
        }
        return this.setSpeaking(userId, (Number(d.speaking) & SPEAKING_MICROPHONE) !== 0);
      }
      case VoiceOp.RESUMED:
        this.resumes = 0;
        if (this.peer?.pc.connectionState === 'connected') this.setStatus(CallStatus.Connected);
        return;
      case VoiceOp.CLIENTS_CONNECT:
        for (const id of d?.user_ids ?? []) this.connected.add(String(id));
        return;
      case VoiceOp.CLIENT_DISCONNECT: {
        const userId = String(d?.user_id);
        this.connected.delete(userId);
        this.ssrcs.delete(userId);
        this.media.remove(userId);
        this.setSpeaking(userId, false);
        void this.peer?.removeSpeaker(userId);
        return;
      }
      default:
        if (op >= DaveOp.PREPARE_TRANSITION && op <= DaveOp.INVALID_COMMIT_WELCOME) this.e2ee?.onJson(op, d);
    }
  }

  /** Every tick: whether the microphone's sound goes out (mute, push-to-talk, voice activity), and whether it hears anything. */
  private onTick(): void {
    if (this.ending) return;
    const now = Date.now();
    if (this.media.dbfs(true) > this.vadDbfs()) this.loudAt = now;
    const raw = this.media.dbfs(false);
    if (raw > this.host.audio.noAudioInputThreshold) {
      this.heardAt = now;
      this.host.inputDetected(true);
    } else if (now - this.heardAt > NO_INPUT_MS) this.host.inputDetected(false);
    const open =
      !this.selfMute && !this.selfDeaf && (this.audioMode === AudioModeType.MODE_PTT ? this.pttOpen() : this.loudAt > 0 && now - this.loudAt < VAD_HOLD_MS);
    if (open === this.transmitting) return;
    this.transmitting = open;
    this.media.setSending(open);
    this.sendSpeaking(open);
  }

  /** Op 5, so others see the person speak (and learn which stream is theirs). */
  private sendSpeaking(on: boolean): void {
    if (this.described) this.socket?.send(VoiceOp.SPEAKING, { speaking: on ? SPEAKING_MICROPHONE : 0, delay: 0, ssrc: 0 });
    this.setSpeaking(this.host.userId, on);
  }
}

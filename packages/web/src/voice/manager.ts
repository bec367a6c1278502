import { onDispatch } from '../lib/state/dispatch-taps.js';
import { AudioOut } from './audio-out.js';
import {
  DaveOp,
  E2ee,
  VoiceOp,
  VoicePeer,
  VoiceSocket,
  selectWebrtcProtocol,
  supportsEncodedTransforms,
  type DaveyModule,
} from '@accord/social-sdk/browser-voice';
import { VoiceActivity, microphoneError, openMicrophone } from './devices.js';
import { IDLE, closeReason, type VoiceState } from './state.js';

/** What the voice manager needs of the signed-in session. */
export interface VoiceHostSession {
  /** Sends a main Gateway message (op 4 Voice State Update). */
  send(op: number, d: unknown): void;
  userId(): string | null;
}

const SPEAKING_MICROPHONE = 1;
/** Socket drops resumed in a row before the call is given up. */
const MAX_RESUMES = 5;
/** Close codes after which the voice session cannot be resumed (the client must not, or it is gone). */
const FINAL_CLOSES = new Set([1000, 4001, 4002, 4003, 4004, 4005, 4006, 4009, 4011, 4012, 4014, 4016, 4017, 4020, 4021, 4022]);
const JOIN_TIMEOUT_MS = 10_000;

/** One voice connection at a time: joining a channel leaves the previous one. */
interface Connection {
  guildId: string | null;
  channelId: string;
  socket: VoiceSocket | null;
  peer: VoicePeer | null;
  e2ee: E2ee | null;
  mic: MediaStream | null;
  activity: VoiceActivity | null;
  out: AudioOut;
  /** Users on the voice gateway (ops 11/13): who DAVE may add. */
  connected: Set<string>;
  /** Speaker SSRCs from op 5. */
  ssrcs: Map<string, number>;
  /** Op 4 arrived: the voice gateway takes op 5 from now on. */
  described: boolean;
  /** Resumes since the socket last worked. */
  resumes: number;
  /** The main Gateway session the voice state belongs to. */
  sessionId: string | null;
  closed: boolean;
}

/**
 * The browser's voice connection: op 4 on the main Gateway, the voice gateway with protocol `webrtc`, the microphone,
 * DAVE, and what the UI shows (VoiceState).
 */
export class VoiceManager {
  state: VoiceState = IDLE;
  private readonly listeners = new Set<() => void>();
  private conn: Connection | null = null;
  private pendingJoin: { resolve: (v: { sessionId: string; token: string; endpoint: string }) => void; sessionId?: string; server?: any } | null = null;

  constructor(private readonly host: VoiceHostSession) {
    onDispatch((t, d) => this.onDispatch(t, d));
  }

  subscribe = (fn: () => void) => {
    this.listeners.add(fn);
    return () => void this.listeners.delete(fn);
  };

  getState = () => this.state;

  /** What the person chose, kept across calls. */
  private get settings(): Partial<VoiceState> {
    const { muted, deafened, inputId, outputId, pushToTalk } = this.state;
    return { muted, deafened, inputId, outputId, pushToTalk };
  }

  private set(patch: Partial<VoiceState>): void {
    this.state = { ...this.state, ...patch };
    for (const fn of this.listeners) fn();
  }

  private setSpeaking(userId: string, on: boolean): void {
    if (this.state.speaking.has(userId) === on) return;
    const speaking = new Set(this.state.speaking);
    if (on) speaking.add(userId);
    else speaking.delete(userId);
    this.set({ speaking });
  }

  /** Joins a guild voice channel (guildId) or a DM call (guildId null). */
  async join(guildId: string | null, channelId: string): Promise<void> {
    const me = this.host.userId();
    if (!me) return;
    if (this.conn) this.leave();
    const conn: Connection = {
      guildId,
      channelId,
      socket: null,
      peer: null,
      e2ee: null,
      mic: null,
      activity: null,
      out: new AudioOut(this.state.outputId),
      connected: new Set(),
      ssrcs: new Map(),
      described: false,
      resumes: 0,
      sessionId: null,
      closed: false,
    };
    this.conn = conn;
    this.set({ ...IDLE, ...this.settings, status: 'connecting', guildId, channelId });
    try {
      // The microphone comes first: a refused one joins muted (a later op 4 would re-issue the voice token).
      const dave = this.loadDave();
      const mic = await this.openMic(conn);
      const server = await this.voiceServer(guildId, channelId);
      conn.sessionId = server.sessionId;
      const davey = await dave;
      if (conn.closed) return mic?.getTracks().forEach((t) => t.stop()); // left while joining
      conn.mic = mic;
      if (mic) conn.activity = new VoiceActivity(mic, (on) => this.micActivity(conn, on));
      this.connect(conn, me, davey, server);
    } catch (err) {
      if (!conn.closed) this.fail(conn, (err as Error)?.message ?? String(err));
    }
  }

  private async loadDave(): Promise<DaveyModule | null> {
    if (!supportsEncodedTransforms()) return null;
    // Loaded on first join: the runtime and its WebAssembly stay out of the app's first download.
    return import('./dave/davey.js')
      .then((m) => m.loadDavey())
      .catch((err) => {
        console.error('voice: DAVE could not load', err);
        return null;
      });
  }

  private async openMic(conn: Connection): Promise<MediaStream | null> {
    try {
      return await openMicrophone(this.state.inputId);
    } catch (err) {
      if (!conn.closed) this.set({ micError: microphoneError(err), muted: true });
      return null;
    }
  }

  /** Op 4 on the main Gateway, then the VOICE_STATE_UPDATE (our session id) and VOICE_SERVER_UPDATE (token, endpoint). */
  private voiceServer(guildId: string | null, channelId: string): Promise<{ sessionId: string; token: string; endpoint: string }> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pendingJoin = null;
        reject(new Error('The server did not answer the voice join.'));
      }, JOIN_TIMEOUT_MS);
      this.pendingJoin = {
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v);
        },
      };
      this.host.send(4, { guild_id: guildId, channel_id: channelId, self_mute: this.state.muted, self_deaf: this.state.deafened });
    });
  }

  private onDispatch(t: string, d: any): void {
    const me = this.host.userId();
    if (t === 'VOICE_STATE_UPDATE' && d?.user_id === me) {
      const conn = this.conn;
      if (this.pendingJoin && conn && d.channel_id === conn.channelId) {
        this.pendingJoin.sessionId = d.session_id;
        this.settleJoin();
      } else if (conn && !this.pendingJoin && d.channel_id !== conn.channelId && (d.guild_id ?? null) === conn.guildId) {
        // Disconnected, moved by a moderator (followed: the new channel gets a new voice session), or taken over by
        // another device of the person's.
        if (d.channel_id === null) return this.end(conn, 'You were disconnected from voice.');
        if (conn.sessionId && d.session_id !== conn.sessionId) return this.end(conn, 'You joined voice from another device.');
        this.end(conn, null);
        void this.join(conn.guildId, d.channel_id);
      }
    } else if (t === 'VOICE_SERVER_UPDATE' && this.pendingJoin && d?.endpoint) {
      this.pendingJoin.server = d;
      this.settleJoin();
    }
  }

  private settleJoin(): void {
    const p = this.pendingJoin;
    if (!p?.sessionId || !p.server) return;
    this.pendingJoin = null;
    p.resolve({ sessionId: p.sessionId, token: p.server.token, endpoint: p.server.endpoint });
  }

  /**
   * The voice gateway socket: Identify, or after a drop Resume (op 7, same token, acknowledging the last sequence
   * number) with the WebRTC connection and DAVE kept as they are.
   */
  private connect(
    conn: Connection,
    me: string,
    davey: DaveyModule | null,
    server: { sessionId: string; token: string; endpoint: string },
    resumeFrom?: number,
  ): void {
    const serverId = conn.guildId ?? conn.channelId;
    const socket = new VoiceSocket(
      server.endpoint,
      {
        open: () =>
          resumeFrom === undefined
            ? socket.send(VoiceOp.IDENTIFY, {
                server_id: serverId,
                user_id: me,
                session_id: server.sessionId,
                token: server.token,
                max_dave_protocol_version: davey ? davey.DAVE_PROTOCOL_VERSION : 0,
              })
            : socket.send(VoiceOp.RESUME, { server_id: serverId, session_id: server.sessionId, token: server.token, seq_ack: socket.seq }),
        json: (op, d) => void this.onVoice(conn, me, davey, op, d).catch((err) => this.fail(conn, (err as Error)?.message ?? String(err))),
        binary: (op, payload) => {
          try {
            conn.e2ee?.onBinary(op, payload);
          } catch (err) {
            console.error('voice: DAVE message failed', op, err);
          }
        },
        closed: (code, reason) => {
          if (conn.closed) return;
          if (!conn.described || FINAL_CLOSES.has(code) || conn.resumes >= MAX_RESUMES) return this.fail(conn, closeReason(code, reason));
          conn.resumes++;
          this.set({ status: 'connecting' });
          const seq = socket.seq;
          setTimeout(() => !conn.closed && this.connect(conn, me, davey, server, seq), 500 * conn.resumes);
        },
      },
      resumeFrom,
    );
    conn.socket = socket;
  }

  private async onVoice(conn: Connection, me: string, davey: DaveyModule | null, op: number, d: any): Promise<void> {
    if (conn.closed) return;
    switch (op) {
      case VoiceOp.READY: {
        const peer = new VoicePeer(
          {
            encrypt: (f) => (conn.e2ee ? conn.e2ee.encrypt(f) : f),
            decrypt: (u, f) => (conn.e2ee ? conn.e2ee.decrypt(u, f) : f),
          },
          (userId, track) => conn.out.play(userId, track),
        );
        conn.peer = peer;
        peer.pc.addEventListener('connectionstatechange', () => {
          if (peer.pc.connectionState === 'connected' && !conn.closed) this.set({ status: 'connected' });
          if (peer.pc.connectionState === 'failed' && !conn.closed) this.fail(conn, 'The media connection failed (no route to the voice server).');
        });
        const track = conn.mic?.getAudioTracks()[0] ?? null;
        if (track) track.enabled = this.sending;
        const sdp = await peer.offer(track);
        conn.socket?.send(VoiceOp.SELECT_PROTOCOL, selectWebrtcProtocol(sdp));
        return;
      }
      case VoiceOp.SESSION_DESCRIPTION: {
        const version = Number(d.dave_protocol_version) || 0;
        if (davey)
          conn.e2ee = new E2ee(davey, version, me, conn.channelId, () => [...conn.connected], {
            json: (o, payload) => conn.socket?.send(o, payload),
            binary: (o, payload) => conn.socket?.sendBinary(o, payload),
            changed: () => this.e2eeChanged(conn),
          });
        this.e2eeChanged(conn);
        conn.described = true;
        await conn.peer?.answer(String(d.sdp ?? ''));
        if (conn.activity?.speaking) this.micActivity(conn, true, true);
        return;
      }
      case VoiceOp.SPEAKING: {
        if (!d?.user_id || d.user_id === me) return;
        if (Number.isInteger(d.ssrc) && conn.ssrcs.get(d.user_id) !== d.ssrc) {
          conn.ssrcs.set(d.user_id, d.ssrc);
          void conn.peer?.addSpeaker(d.user_id, d.ssrc);
        }
        this.setSpeaking(d.user_id, (Number(d.speaking) & SPEAKING_MICROPHONE) !== 0);
        return;
      }
      case VoiceOp.RESUMED:
        conn.resumes = 0;
        if (conn.peer?.pc.connectionState === 'connected') this.set({ status: 'connected' });
        return;
      case VoiceOp.CLIENTS_CONNECT:
        for (const id of d?.user_ids ?? []) conn.connected.add(id);
        return;
      case VoiceOp.CLIENT_DISCONNECT:
        conn.connected.delete(d?.user_id);
        conn.ssrcs.delete(d?.user_id);
        conn.out.remove(d?.user_id);
        this.setSpeaking(d?.user_id, false);
        void conn.peer?.removeSpeaker(d?.user_id);
        return;
      default:
        if (op >= DaveOp.PREPARE_TRANSITION && op <= DaveOp.INVALID_COMMIT_WELCOME) conn.e2ee?.onJson(op, d);
    }
  }

  private e2eeChanged(conn: Connection): void {
    if (conn !== this.conn || !conn.e2ee) return;
    this.set({ e2ee: { required: conn.e2ee.version > 0, on: conn.e2ee.active, code: conn.e2ee.privacyCode, epoch: conn.e2ee.epoch } });
  }

  /** The microphone's level crossed the threshold: op 5 so others see (and map) us speaking. */
  private micActivity(conn: Connection, on: boolean, resend = false): void {
    const speaking = on && this.sending;
    if (this.state.speaking.has(this.host.userId() ?? '') === speaking && !resend) return;
    if (conn.described) conn.socket?.send(VoiceOp.SPEAKING, { speaking: speaking ? SPEAKING_MICROPHONE : 0, delay: 0, ssrc: 0 });
    this.setSpeaking(this.host.userId() ?? '', speaking);
  }

  /** The pairwise code to compare with one other person (the real client shows it in their profile). */
  verificationCode(userId: string): Promise<string> {
    const e = this.conn?.e2ee;
    return e ? e.verificationCode(userId) : Promise.reject(new Error('Not in an encrypted call.'));
  }

  setMuted(muted: boolean): void {
    if (this.state.micError && !muted) return;
    this.set({ muted, ...(muted ? {} : { deafened: false }) });
    this.applySelf();
  }

  setDeafened(deafened: boolean): void {
    this.set({ deafened });
    this.applySelf();
  }

  /** Mute and deafen: the track stops carrying sound, the speakers go quiet, and the voice state says so. */
  private applySelf(): void {
    const conn = this.conn;
    if (!conn) return;
    const { muted, deafened } = this.state;
    this.applyTrack();
    conn.out.setDeafened(deafened);
    this.host.send(4, { guild_id: conn.guildId, channel_id: conn.channelId, self_mute: muted || deafened, self_deaf: deafened });
  }

  /** Switches the microphone (kept for the next join when not connected). */
  async setInput(deviceId: string | null): Promise<void> {
    this.set({ inputId: deviceId });
    const conn = this.conn;
    if (!conn) return;
    let mic: MediaStream;
    try {
      mic = await openMicrophone(deviceId);
    } catch (err) {
      return this.set({ micError: microphoneError(err) });
    }
    if (conn.closed) return mic.getTracks().forEach((t) => t.stop());
    conn.activity?.close();
    conn.mic?.getTracks().forEach((t) => t.stop());
    conn.mic = mic;
    conn.activity = new VoiceActivity(mic, (on) => this.micActivity(conn, on));
    const track = mic.getAudioTracks()[0];
    track.enabled = this.sending;
    this.set({ micError: null });
    await conn.peer?.setMicrophone(track);
  }

  /** Whether the microphone's sound goes out: not muted or deafened, and the push-to-talk key held if that is on. */
  private get sending(): boolean {
    const s = this.state;
    return !s.muted && !s.deafened && (!s.pushToTalk || s.talking);
  }

  setOutput(deviceId: string): void {
    this.set({ outputId: deviceId });
    this.conn?.out.setOutput(deviceId);
  }

  setPushToTalk(on: boolean): void {
    this.set({ pushToTalk: on, talking: false });
    this.applyTrack();
  }

  /** The push-to-talk key went down or up. */
  setTalking(down: boolean): void {
    if (!this.state.pushToTalk || this.state.talking === down) return;
    this.set({ talking: down });
    this.applyTrack();
  }

  private applyTrack(): void {
    const conn = this.conn;
    const track = conn?.mic?.getAudioTracks()[0];
    if (track) track.enabled = this.sending;
    // The level may not have dropped yet (the detector holds it a moment): say at once what is true now.
    if (conn) this.micActivity(conn, this.sending && !!conn.activity?.speaking);
  }

  setVolume(userId: string, volume: number): void {
    this.conn?.out.setVolume(userId, volume);
  }

  leave(): void {
    const conn = this.conn;
    if (!conn) return;
    this.host.send(4, { guild_id: conn.guildId, channel_id: null, self_mute: false, self_deaf: false });
    this.end(conn, null);
  }

  /** The connection broke: the person leaves the channel (others would see a silent member) and sees why. */
  private fail(conn: Connection, error: string): void {
    if (conn !== this.conn) return;
    this.host.send(4, { guild_id: conn.guildId, channel_id: null, self_mute: false, self_deaf: false });
    this.teardown(conn);
    this.set({ status: 'failed', error, speaking: new Set(), e2ee: IDLE.e2ee });
  }

  private end(conn: Connection, error: string | null): void {
    if (conn !== this.conn) return;
    this.teardown(conn);
    this.set({ ...IDLE, ...this.settings, ...(error ? { status: 'failed', error } : {}) });
  }

  private teardown(conn: Connection): void {
    this.conn = null;
    conn.closed = true;
    this.pendingJoin = null;
    conn.socket?.close();
    conn.peer?.close();
    conn.e2ee?.close();
    conn.activity?.close();
    conn.mic?.getTracks().forEach((t) => t.stop());
    conn.out.close();
  }

  /** Dismisses a failure. */
  clear(): void {
    if (this.state.status === 'failed') {
      this.set({ ...IDLE, ...this.settings });
    }
  }
}

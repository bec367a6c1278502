import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AudioModeType, CallError, CallStatus, LoggingSeverity } from '../enums.js';
import { openSocket, type SocketLike } from '../socket.js';
import type { Snowflake } from '../snowflake.js';
import { DaveE2ee } from './dave.js';
import { CHANNELS, FRAME_LENGTH, FRAME_SAMPLES, OpusCodec, SAMPLE_RATE, SILENCE_FRAME } from './opus.js';
import { MODE, RtpSender, openPacket } from './rtp.js';
import { CallBase, ENDED_CLOSES } from './call-base.js';
import type { CallHost, CallLike, UserAudioCapturedCallback, UserAudioReceivedCallback } from './types.js';
import { MediaSocket } from './udp.js';

export type { CallEvents } from './call-base.js';

const REJOIN = new Set([4006, 4004, 4009]);
const FRAME_MS = 20;
const SILENCE_FRAMES = 5;

/**
 * A lobby call (Node): the main Gateway's op 17 joins, the voice gateway (wss, v8) signs in with the token it answers,
 * UDP carries Opus in `aead_aes256_gcm_rtpsize`, and DAVE encrypts frames end to end. Audio comes in as PCM through
 * `pushAudio` (the Node stand-in for a microphone), passes the captured callback, and is sent in push-to-talk or
 * voice-activity mode; received frames are decoded per user and handed to the received callback.
 *
 * Like release 1.6 and later, a call survives a temporary network loss: a dropped voice socket is resumed (the
 * server replays what was missed) and a lost session is joined again, without the game doing anything.
 */
export class Call extends CallBase implements CallLike {
  private ws: SocketLike | null = null;
  private seqAck = -1;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private udp: MediaSocket | null = null;
  private ssrc = 0;
  private key: Buffer | null = null;
  private sender: RtpSender | null = null;
  private dave: DaveE2ee;
  private resumable = false;
  private retries = 0;
  private readonly ssrcUsers = new Map<number, Snowflake>();
  private readonly decoders = new Map<Snowflake, OpusCodec>();
  private readonly encoder = new OpusCodec();
  private queue: Int16Array[] = [];
  private partial: number[] = [];
  private pump: ReturnType<typeof setTimeout> | null = null;
  private transmitting = false;
  private silenceLeft = 0;
  private dump: fs.WriteStream | null = null;

  constructor(
    host: CallHost,
    lobbyId: Snowflake,
    private readonly received?: UserAudioReceivedCallback,
    private readonly captured?: UserAudioCapturedCallback,
  ) {
    super(host, lobbyId);
    this.dave = this.newDave();
  }

  /** Node has no devices: the choices and the client's volumes apply frame by frame (sendFrame, onPacket). */
  protected mediaChanged(): void {}
  applyAudio(): void {}

  private newDave(): DaveE2ee {
    const d = new DaveE2ee(this.host.userId, this.lobbyId, {
      json: (op, payload) => this.sendJson(op, payload),
      binary: (op, payload) => this.ws?.readyState === 1 && this.ws.send(Buffer.concat([Buffer.from([op]), payload])),
      log: (m) => this.host.log(m, LoggingSeverity.Warning),
    });
    d.onChange = () => this.checkConnected();
    return d;
  }

  // ------------------------------------------------------------------------------------------------ public surface

  /** The DAVE state: protocol version, whether media can flow, and the group's privacy code. */
  getEncryptionState(): { protocolVersion: number; ready: boolean; privacyCode: string } {
    return { protocolVersion: this.dave.protocolVersion, ready: this.dave.ready, privacyCode: this.dave.privacyCode };
  }

  /** Queues interleaved 48 kHz stereo PCM to send (Node has no microphone: the game supplies the audio). */
  pushAudio(pcm: Int16Array): void {
    for (const s of pcm) {
      this.partial.push(s);
      if (this.partial.length === FRAME_LENGTH) {
        this.queue.push(Int16Array.from(this.partial));
        this.partial = [];
      }
    }
  }

  /** Frames queued and not yet captured. */
  pendingAudioFrames(): number {
    return this.queue.length;
  }

  // ------------------------------------------------------------------------------------------------ lifecycle

  start(): void {
    this.ending = false;
    this.setStatus(CallStatus.Joining);
    if (this.host.settings.aecDump) {
      const dir = this.host.settings.aecDumpDir ?? os.tmpdir();
      this.dump = fs.createWriteStream(path.join(dir, `aecdump-${this.lobbyId}-${Date.now()}.pcm`));
    }
    this.sendVoiceState();
  }

  protected release(): void {
    this.encoder.close();
    for (const d of this.decoders.values()) d.close();
    this.decoders.clear();
    this.dump?.end();
  }

  protected teardown(): void {
    this.stopPump();
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    const ws = this.ws;
    this.ws = null;
    if (ws && ws.readyState <= 1) ws.close(1000);
    this.udp?.close();
    this.udp = null;
    this.sender = null;
    this.resumable = false;
  }

  onGatewayRestarted(): void {
    if (this.ending) return;
    // The Gateway session that held our voice state is gone: join again with a new one.
    this.teardown();
    this.sessionId = null;
    this.server = null;
    this.dave = this.newDave();
    this.setStatus(CallStatus.Reconnecting);
    this.sendVoiceState();
  }

  protected connectVoice(): void {
    this.resumable = false;
    this.dave = this.newDave();
    void this.openVoice(false);
  }

  // ------------------------------------------------------------------------------------------------ voice gateway

  private async openVoice(resume: boolean): Promise<void> {
    if (this.ending || !this.server) return;
    this.setStatus(resume ? CallStatus.Reconnecting : CallStatus.Connecting);
    let ws: SocketLike;
    try {
      ws = await openSocket(`wss://${this.server.endpoint}/?v=8`, { ca: this.host.voiceCa });
    } catch {
      return this.retryVoice(0);
    }
    if (this.ending) return void ws.close(1000);
    this.ws = ws;
    ws.onmessage = (ev) => this.onVoiceMessage(ws, ev.data as Buffer | string, resume);
    ws.onerror = () => {};
    ws.onclose = (ev) => this.onVoiceClose(ws, ev.code);
  }

  private sendJson(op: number, d: unknown): void {
    if (this.ws?.readyState === 1) this.ws.send(JSON.stringify({ op, d }));
  }

  private onVoiceMessage(ws: SocketLike, data: Buffer | string, resume: boolean): void {
    if (ws !== this.ws) return;
    // Text frames are JSON (strings from `ws`); binary frames are `[seq u16][op u8][payload]`.
    if (typeof data !== 'string') {
      if (!Buffer.isBuffer(data)) data = Buffer.from(data as ArrayBuffer);
      this.seqAck = data.readUInt16BE(0);
      return this.dave.onBinary(data[2], data.subarray(3));
    }
    const msg = JSON.parse(data.toString()) as { op: number; d: any; seq?: number };
    if (typeof msg.seq === 'number') this.seqAck = msg.seq;
    switch (msg.op) {
      case 8:
        this.startHeartbeat(msg.d.heartbeat_interval);
        if (resume && this.resumable)
          this.sendJson(7, { server_id: this.lobbyId, session_id: this.sessionId, token: this.server!.token, seq_ack: this.seqAck });
        else
          this.sendJson(0, {
            server_id: this.lobbyId,
            user_id: this.host.userId,
            session_id: this.sessionId,
            token: this.server!.token,
            max_dave_protocol_version: 1,
          });
        return;
      case 2:
        return void this.onReady(msg.d).catch((err) => {
          this.host.log(`call ${this.lobbyId}: ${(err as Error).message}`, LoggingSeverity.Error);
          this.setStatus(CallStatus.Disconnected, CallError.VoiceConnectionFailed);
        });
      case 4:
        this.key = Buffer.from(msg.d.secret_key);
        this.sender = new RtpSender(this.ssrc, this.key);
        this.resumable = true;
        this.retries = 0;
        this.dave.start(msg.d.dave_protocol_version ?? 0);
        return this.checkConnected();
      case 9:
        this.retries = 0;
        return this.checkConnected();
      case 5:
        if (msg.d.user_id && Number.isInteger(msg.d.ssrc)) this.ssrcUsers.set(msg.d.ssrc, String(msg.d.user_id));
        return this.setSpeaking(String(msg.d.user_id), (msg.d.speaking & 1) === 1);
      case 6:
        return;
      default:
        if (msg.op >= 11) this.dave.onJson(msg.op, msg.d);
    }
  }

  private async onReady(d: { ssrc: number; ip: string; port: number; modes: string[] }): Promise<void> {
    if (!d.modes.includes(MODE)) throw new Error(`the voice server offers none of the supported modes (${MODE})`);
    this.ssrc = d.ssrc;
    const udp = (this.udp = new MediaSocket(d.ip, d.port));
    udp.onPacket = (pkt) => this.onPacket(pkt);
    const me = await udp.discover(d.ssrc);
    this.sendJson(1, { protocol: 'udp', data: { address: me.ip, port: me.port, mode: MODE } });
    this.setStatus(CallStatus.SignalingConnected);
  }

  private checkConnected(): void {
    if (this.ending || !this.sender || !this.ws) return;
    if (this.dave.ready) {
      if (this.status !== CallStatus.Connected) this.setStatus(CallStatus.Connected);
      this.startPump();
    }
  }

  private onVoiceClose(ws: SocketLike, code: number): void {
    if (ws !== this.ws) return;
    this.ws = null;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    if (this.ending) return;
    if (ENDED_CLOSES.has(code)) {
      void this.end();
      return;
    }
    if (REJOIN.has(code) || !this.resumable) return this.rejoin(CallError.SignalingUnexpectedClose, code);
    this.retryVoice(code);
  }

  private retryVoice(code: number): void {
    if (this.ending) return;
    this.setStatus(CallStatus.Reconnecting, CallError.SignalingUnexpectedClose, code);
    const delay = Math.min(5000, 250 * 2 ** this.retries++);
    setTimeout(() => void this.openVoice(true), delay);
  }

  private startHeartbeat(intervalMs: number): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    const beat = () => this.sendJson(3, { t: Date.now(), seq_ack: this.seqAck });
    beat();
    this.heartbeat = setInterval(beat, intervalMs);
    (this.heartbeat as { unref?: () => void }).unref?.();
  }

  // ------------------------------------------------------------------------------------------------ media

  private startPump(): void {
    if (this.pump) return;
    const started = Date.now();
    let n = 0;
    const tick = () => {
      this.sendFrame();
      n++;
      this.pump = setTimeout(tick, Math.max(0, started + n * FRAME_MS - Date.now()));
    };
    this.pump = setTimeout(tick, FRAME_MS);
  }

  private stopPump(): void {
    if (this.pump) clearTimeout(this.pump);
    this.pump = null;
  }

  private wantsToTalk(frame: Int16Array): boolean {
    if (this.selfMute) return false;
    if (this.audioMode === AudioModeType.MODE_PTT) return this.pttOpen();
    let sum = 0;
    for (const s of frame) sum += s * s;
    const dbfs = 20 * Math.log10(Math.sqrt(sum / frame.length) / 32768 || 1e-9);
    return dbfs > this.vadDbfs();
  }

  /** One 20 ms tick: the next captured frame is sent while talking; five silence frames close a talk spurt. */
  private sendFrame(): void {
    if (!this.sender || !this.udp || !this.dave.ready) return;
    const frame = this.queue.shift();
    if (frame) {
      scale(frame, this.host.audio.inputVolume / 100);
      this.captured?.(frame, FRAME_SAMPLES, SAMPLE_RATE, CHANNELS);
      this.dump?.write(Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength));
    }
    if (frame && this.wantsToTalk(frame)) {
      if (!this.transmitting) {
        this.transmitting = true;
        this.sendJson(5, { speaking: 1, delay: 0, ssrc: this.ssrc });
      }
      this.silenceLeft = SILENCE_FRAMES;
      this.udp.send(this.sender.packet(this.dave.encrypt(this.encoder.encode(frame)), FRAME_SAMPLES));
      return;
    }
    if (this.transmitting && this.silenceLeft > 0) {
      this.silenceLeft--;
      this.udp.send(this.sender.packet(this.dave.encrypt(SILENCE_FRAME), FRAME_SAMPLES));
      if (this.silenceLeft === 0) {
        this.transmitting = false;
        this.sendJson(5, { speaking: 0, delay: 0, ssrc: this.ssrc });
      }
    }
  }

  private onPacket(pkt: Buffer): void {
    if (!this.key || this.selfDeaf) return;
    const opened = openPacket(pkt, this.key);
    if (!opened) return;
    const userId = this.ssrcUsers.get(opened.ssrc);
    if (!userId) return;
    const opus = this.dave.decrypt(userId, opened.payload);
    if (!opus) return;
    let decoder = this.decoders.get(userId);
    if (!decoder) this.decoders.set(userId, (decoder = new OpusCodec()));
    const pcm = decoder.decode(opus);
    const silent = opus.equals(SILENCE_FRAME);
    if (!silent) this.setSpeaking(userId, true);
    this.dump?.write(Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
    if (this.localMutes.has(userId)) return;
    scale(pcm, (this.host.audio.outputVolume / 100) * (this.getParticipantVolume(userId) / 100));
    this.received?.(userId, pcm, pcm.length / CHANNELS, SAMPLE_RATE, CHANNELS);
  }
}

/** Scales PCM in place (a volume; 1 leaves it as it is), clipping at full scale. */
function scale(pcm: Int16Array, gain: number): void {
  if (gain === 1) return;
  for (let i = 0; i < pcm.length; i++) pcm[i] = Math.max(-32768, Math.min(32767, Math.round(pcm[i] * gain)));
}

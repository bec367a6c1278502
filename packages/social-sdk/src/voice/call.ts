import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AudioModeType, CallError, CallStatus, LoggingSeverity, callErrorToString, callStatusToString } from '../enums.js';
import { Emitter } from '../events.js';
import { openSocket, type SocketLike } from '../socket.js';
import type { Snowflake } from '../snowflake.js';
import { DaveE2ee } from './dave.js';
import { CHANNELS, FRAME_LENGTH, FRAME_SAMPLES, OpusCodec, SAMPLE_RATE, SILENCE_FRAME } from './opus.js';
import { MODE, RtpSender, openPacket } from './rtp.js';
import type { CallHost, CallLike, UserAudioCapturedCallback, UserAudioReceivedCallback } from './types.js';
import { MediaSocket } from './udp.js';

export interface CallEvents {
  statusChanged: { status: CallStatus; error: CallError; errorDetail: number };
  participantChanged: { userId: Snowflake; added: boolean };
  speakingStatusChanged: { userId: Snowflake; isPlayingSound: boolean };
  voiceStateChanged: { userId: Snowflake };
}

/** Close codes of the voice gateway that end the call (the server removed us) rather than call for a resume. */
const ENDED = new Set([4014, 4022]);
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
export class Call implements CallLike {
  static statusToString = callStatusToString;
  static errorToString = callErrorToString;
  private readonly events = new Emitter<CallEvents>('auto');
  private status: CallStatus = CallStatus.Disconnected;
  private sessionId: string | null = null;
  private server: { token: string; endpoint: string } | null = null;
  private ws: SocketLike | null = null;
  private seqAck = -1;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private udp: MediaSocket | null = null;
  private ssrc = 0;
  private key: Buffer | null = null;
  private sender: RtpSender | null = null;
  private dave: DaveE2ee;
  private resumable = false;
  private ending = false;
  private retries = 0;
  private readonly ssrcUsers = new Map<number, Snowflake>();
  private readonly decoders = new Map<Snowflake, OpusCodec>();
  private readonly encoder = new OpusCodec();
  private readonly participants = new Set<Snowflake>();
  private readonly speaking = new Set<Snowflake>();
  private readonly localMutes = new Set<Snowflake>();
  private readonly volumes = new Map<Snowflake, number>();
  private queue: Int16Array[] = [];
  private partial: number[] = [];
  private pump: ReturnType<typeof setTimeout> | null = null;
  private audioMode: AudioModeType = AudioModeType.MODE_VAD;
  private ptt = false;
  private pttReleasedAt = 0;
  private pttReleaseDelayMs = 20;
  private vad = { vadThreshold: -50, automatic: true };
  private transmitting = false;
  private silenceLeft = 0;
  private selfMute = false;
  private selfDeaf = false;
  private dump: fs.WriteStream | null = null;

  constructor(
    private readonly host: CallHost,
    readonly lobbyId: Snowflake,
    private readonly received?: UserAudioReceivedCallback,
    private readonly captured?: UserAudioCapturedCallback,
  ) {
    this.dave = this.newDave();
  }

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

  on<K extends keyof CallEvents>(event: K, fn: (arg: CallEvents[K]) => void): () => void {
    return this.events.on(event, fn);
  }
  getStatus(): CallStatus {
    return this.status;
  }
  getChannelId(): Snowflake {
    return this.lobbyId;
  }
  getGuildId(): Snowflake | null {
    return null;
  }
  getParticipants(): Snowflake[] {
    return [...this.participants];
  }
  setStatusChangedCallback(cb: ((status: CallStatus, error: CallError, detail: number) => void) | null): void {
    this.events.setSlot('statusChanged', cb && ((e) => cb(e.status, e.error, e.errorDetail)));
  }
  setParticipantChangedCallback(cb: ((userId: Snowflake, added: boolean) => void) | null): void {
    this.events.setSlot('participantChanged', cb && ((e) => cb(e.userId, e.added)));
  }
  setSpeakingStatusChangedCallback(cb: ((userId: Snowflake, isPlayingSound: boolean) => void) | null): void {
    this.events.setSlot('speakingStatusChanged', cb && ((e) => cb(e.userId, e.isPlayingSound)));
  }
  setOnVoiceStateChangedCallback(cb: ((userId: Snowflake) => void) | null): void {
    this.events.setSlot('voiceStateChanged', cb && ((e) => cb(e.userId)));
  }

  getAudioMode(): AudioModeType {
    return this.audioMode;
  }
  setAudioMode(mode: AudioModeType): void {
    this.audioMode = mode;
  }
  /** Push-to-talk: while active (and for the release delay after), captured audio is sent. */
  setPTTActive(active: boolean): void {
    if (this.ptt && !active) this.pttReleasedAt = Date.now();
    this.ptt = active;
  }
  getPTTActive(): boolean {
    return this.ptt;
  }
  /** How long audio keeps going after push-to-talk is released (ms; the platform uses 20). */
  getPTTReleaseDelay(): number {
    return this.pttReleaseDelayMs;
  }
  setPTTReleaseDelay(ms: number): void {
    this.pttReleaseDelayMs = Math.max(0, Math.floor(ms));
  }
  getVADThreshold(): { vadThreshold: number; automatic: boolean } {
    return { ...this.vad };
  }
  setVADThreshold(s: { vadThreshold: number; automatic: boolean }): void {
    this.vad = { ...s };
  }
  getSelfMute(): boolean {
    return this.selfMute;
  }
  setSelfMute(mute: boolean): void {
    this.selfMute = mute;
    this.sendVoiceState();
  }
  getSelfDeaf(): boolean {
    return this.selfDeaf;
  }
  setSelfDeaf(deaf: boolean): void {
    this.selfDeaf = deaf;
    this.sendVoiceState();
  }
  getLocalMute(userId: Snowflake): boolean {
    return this.localMutes.has(userId);
  }
  setLocalMute(userId: Snowflake, mute: boolean): void {
    if (mute) this.localMutes.add(userId);
    else this.localMutes.delete(userId);
  }
  getParticipantVolume(userId: Snowflake): number {
    return this.volumes.get(userId) ?? 100;
  }
  setParticipantVolume(userId: Snowflake, volume: number): void {
    this.volumes.set(userId, Math.max(0, Math.min(200, volume)));
  }
  getVoiceStateHandle(userId: Snowflake): { selfMute: boolean; selfDeaf: boolean } | undefined {
    return this.states.get(userId);
  }
  /** The DAVE state: protocol version, whether media can flow, and the group's privacy code. */
  getEncryptionState(): { protocolVersion: number; ready: boolean; privacyCode: string } {
    return { protocolVersion: this.dave.protocolVersion, ready: this.dave.ready, privacyCode: this.dave.privacyCode };
  }

  private readonly states = new Map<Snowflake, { selfMute: boolean; selfDeaf: boolean }>();

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

  private sendVoiceState(): void {
    if (this.ending) return;
    this.host.sendLobbyVoiceState({ lobby_id: this.lobbyId, self_mute: this.selfMute, self_deaf: this.selfDeaf });
  }

  async end(): Promise<void> {
    if (this.ending) return;
    this.ending = true;
    this.setStatus(CallStatus.Disconnecting);
    this.host.sendLobbyVoiceState({ lobby_id: this.lobbyId, self_mute: false, self_deaf: false, leave: true });
    this.teardown();
    this.encoder.close();
    for (const d of this.decoders.values()) d.close();
    this.decoders.clear();
    this.dump?.end();
    this.setStatus(CallStatus.Disconnected);
  }

  private teardown(): void {
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

  onVoiceState(d: any): void {
    const userId = String(d.user_id);
    if (userId === this.host.userId) {
      if (d.channel_id === this.lobbyId) {
        this.states.set(userId, { selfMute: !!d.self_mute, selfDeaf: !!d.self_deaf });
        if (this.sessionId !== d.session_id) {
          this.sessionId = d.session_id;
          this.maybeConnect();
        }
      } else if (!this.ending) {
        this.host.log(`call ${this.lobbyId}: removed from the call`, LoggingSeverity.Info);
        void this.end();
      }
      return;
    }
    const added = d.channel_id === this.lobbyId;
    if (added) this.states.set(userId, { selfMute: !!d.self_mute, selfDeaf: !!d.self_deaf });
    else this.states.delete(userId);
    this.events.emit('voiceStateChanged', { userId });
    if (added !== this.participants.has(userId)) {
      if (added) this.participants.add(userId);
      else this.participants.delete(userId);
      this.events.emit('participantChanged', { userId, added });
    }
  }

  onVoiceServer(d: any): void {
    if (!d.endpoint) return this.setStatus(CallStatus.Reconnecting); // the server is moving the call
    this.server = { token: d.token, endpoint: d.endpoint };
    this.resumable = false;
    this.maybeConnect();
  }

  private maybeConnect(): void {
    if (this.ending || !this.sessionId || !this.server) return;
    this.teardown();
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
    if (ENDED.has(code)) {
      void this.end();
      return;
    }
    if (REJOIN.has(code) || !this.resumable) {
      // The voice session is gone: leave and join the lobby's call again for a new one.
      this.teardown();
      this.sessionId = null;
      this.server = null;
      this.setStatus(CallStatus.Reconnecting, CallError.SignalingUnexpectedClose, code);
      this.host.sendLobbyVoiceState({ lobby_id: this.lobbyId, self_mute: false, self_deaf: false, leave: true });
      this.sendVoiceState();
      return;
    }
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
    if (this.audioMode === AudioModeType.MODE_PTT) return this.ptt || Date.now() - this.pttReleasedAt < this.pttReleaseDelayMs;
    let sum = 0;
    for (const s of frame) sum += s * s;
    const dbfs = 20 * Math.log10(Math.sqrt(sum / frame.length) / 32768 || 1e-9);
    return dbfs > (this.vad.automatic ? -50 : this.vad.vadThreshold);
  }

  /** One 20 ms tick: the next captured frame is sent while talking; five silence frames close a talk spurt. */
  private sendFrame(): void {
    if (!this.sender || !this.udp || !this.dave.ready) return;
    const frame = this.queue.shift();
    if (frame) {
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
    this.received?.(userId, pcm, pcm.length / CHANNELS, SAMPLE_RATE, CHANNELS);
  }

  private setSpeaking(userId: Snowflake, on: boolean): void {
    if (on === this.speaking.has(userId)) return;
    if (on) this.speaking.add(userId);
    else this.speaking.delete(userId);
    this.events.emit('speakingStatusChanged', { userId, isPlayingSound: on });
  }

  private setStatus(status: CallStatus, error: CallError = CallError.None, detail = 0): void {
    if (status === this.status && error === CallError.None) return;
    this.status = status;
    this.host.log(`call ${this.lobbyId}: status ${status}${error ? ` (error ${error}, ${detail})` : ''}`, LoggingSeverity.Verbose);
    this.events.emit('statusChanged', { status, error, errorDetail: detail });
  }
}

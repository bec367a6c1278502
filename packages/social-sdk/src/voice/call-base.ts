import { AudioModeType, CallError, CallStatus, LoggingSeverity, callErrorToString, callStatusToString } from '../enums.js';
import { Emitter } from '../events.js';
import type { Snowflake } from '../snowflake.js';
import type { CallHost } from './types.js';

export interface CallEvents {
  statusChanged: { status: CallStatus; error: CallError; errorDetail: number };
  participantChanged: { userId: Snowflake; added: boolean };
  speakingStatusChanged: { userId: Snowflake; isPlayingSound: boolean };
  voiceStateChanged: { userId: Snowflake };
}

/** Close codes of the voice gateway that end the call (the server removed us) rather than call for a resume. */
export const ENDED_CLOSES = new Set([4014, 4022]);

/** dBFS above which voice activity sends, when the threshold is automatic. */
export const AUTOMATIC_VAD_DBFS = -50;

/**
 * What a lobby call is to the game, whatever carries its media (UDP in Node, WebRTC in browsers): its status and
 * events, the participants from the lobby's voice states, and the person's choices (audio mode, push-to-talk, voice
 * activity threshold, self mute and deafen, local mutes and volumes per participant). Engines apply the choices to
 * their media in `mediaChanged`.
 */
export abstract class CallBase {
  static statusToString = callStatusToString;
  static errorToString = callErrorToString;
  protected readonly events = new Emitter<CallEvents>('auto');
  protected status: CallStatus = CallStatus.Disconnected;
  protected readonly participants = new Set<Snowflake>();
  protected readonly speaking = new Set<Snowflake>();
  protected readonly localMutes = new Set<Snowflake>();
  protected readonly volumes = new Map<Snowflake, number>();
  protected readonly states = new Map<Snowflake, { selfMute: boolean; selfDeaf: boolean }>();
  protected audioMode: AudioModeType = AudioModeType.MODE_VAD;
  protected ptt = false;
  private pttReleasedAt = 0;
  private pttReleaseDelayMs = 20;
  protected vad = { vadThreshold: AUTOMATIC_VAD_DBFS, automatic: true };
  protected selfMute: boolean;
  protected selfDeaf: boolean;
  protected ending = false;
  /** The main Gateway session our voice state is in, and the voice server it answered (op 17's two events). */
  protected sessionId: string | null = null;
  protected server: { token: string; endpoint: string } | null = null;

  constructor(
    protected readonly host: CallHost,
    readonly lobbyId: Snowflake,
  ) {
    this.selfMute = host.audio.selfMuteAll;
    this.selfDeaf = host.audio.selfDeafAll;
  }

  /** The engine's media follows a change of the person's choices. */
  protected abstract mediaChanged(): void;
  /** Closes the voice connection (socket, media) and keeps the call. */
  protected abstract teardown(): void;
  /** Opens a new voice connection to `server` for `sessionId`. */
  protected abstract connectVoice(): void;
  /** Releases what the call holds beyond its connection (codecs, audio graph, files) once it has ended. */
  protected abstract release(): void;

  /** Leaves the lobby's call (op 17 with `leave`) and closes everything. */
  async end(): Promise<void> {
    if (this.ending) return;
    this.ending = true;
    this.setStatus(CallStatus.Disconnecting);
    this.host.sendLobbyVoiceState({ lobby_id: this.lobbyId, self_mute: false, self_deaf: false, leave: true });
    this.teardown();
    this.release();
    this.setStatus(CallStatus.Disconnected);
  }

  /** A lobby voice state: ours (the session to join with, or removal from the call), or another member's. */
  onVoiceState(d: any): void {
    const userId = String(d.user_id);
    if (userId !== this.host.userId) return this.onOtherVoiceState(userId, d);
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
  }

  onVoiceServer(d: any): void {
    if (!d.endpoint) return this.setStatus(CallStatus.Reconnecting); // the server is moving the call
    this.server = { token: d.token, endpoint: d.endpoint };
    this.maybeConnect();
  }

  private maybeConnect(): void {
    if (this.ending || !this.sessionId || !this.server) return;
    this.teardown();
    this.connectVoice();
  }

  /** The voice session is gone: leave and join the lobby's call again for a new one. */
  protected rejoin(error: CallError, code: number): void {
    this.teardown();
    this.sessionId = null;
    this.server = null;
    this.setStatus(CallStatus.Reconnecting, error, code);
    this.host.sendLobbyVoiceState({ lobby_id: this.lobbyId, self_mute: false, self_deaf: false, leave: true });
    this.sendVoiceState();
  }

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
    this.mediaChanged();
  }
  /** Push-to-talk: while active (and for the release delay after), captured audio is sent. */
  setPTTActive(active: boolean): void {
    if (this.ptt && !active) this.pttReleasedAt = Date.now();
    this.ptt = active;
    this.mediaChanged();
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
  /** Push-to-talk is held, or was released less than the release delay ago. */
  protected pttOpen(): boolean {
    return this.ptt || Date.now() - this.pttReleasedAt < this.pttReleaseDelayMs;
  }
  getVADThreshold(): { vadThreshold: number; automatic: boolean } {
    return { ...this.vad };
  }
  setVADThreshold(s: { vadThreshold: number; automatic: boolean }): void {
    this.vad = { ...s };
  }
  /** The level (dBFS) above which voice activity sends. */
  protected vadDbfs(): number {
    return this.vad.automatic ? AUTOMATIC_VAD_DBFS : this.vad.vadThreshold;
  }
  getSelfMute(): boolean {
    return this.selfMute;
  }
  setSelfMute(mute: boolean): void {
    this.selfMute = mute;
    this.sendVoiceState();
    this.mediaChanged();
  }
  getSelfDeaf(): boolean {
    return this.selfDeaf;
  }
  setSelfDeaf(deaf: boolean): void {
    this.selfDeaf = deaf;
    this.sendVoiceState();
    this.mediaChanged();
  }
  getLocalMute(userId: Snowflake): boolean {
    return this.localMutes.has(userId);
  }
  setLocalMute(userId: Snowflake, mute: boolean): void {
    if (mute) this.localMutes.add(userId);
    else this.localMutes.delete(userId);
    this.mediaChanged();
  }
  getParticipantVolume(userId: Snowflake): number {
    return this.volumes.get(userId) ?? 100;
  }
  setParticipantVolume(userId: Snowflake, volume: number): void {
    this.volumes.set(userId, Math.max(0, Math.min(200, volume)));
    this.mediaChanged();
  }
  getVoiceStateHandle(userId: Snowflake): { selfMute: boolean; selfDeaf: boolean } | undefined {
    return this.states.get(userId);
  }

  /** Op 17 with the person's mute and deafen. */
  protected sendVoiceState(): void {
    if (this.ending) return;
    this.host.sendLobbyVoiceState({ lobby_id: this.lobbyId, self_mute: this.selfMute, self_deaf: this.selfDeaf });
  }

  /** Another member's lobby voice state: their mute and deafen, and whether they are in the call. */
  protected onOtherVoiceState(userId: Snowflake, d: any): void {
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

  protected setSpeaking(userId: Snowflake, on: boolean): void {
    if (on === this.speaking.has(userId)) return;
    if (on) this.speaking.add(userId);
    else this.speaking.delete(userId);
    this.events.emit('speakingStatusChanged', { userId, isPlayingSound: on });
  }

  protected setStatus(status: CallStatus, error: CallError = CallError.None, detail = 0): void {
    if (status === this.status && error === CallError.None) return;
    this.status = status;
    this.host.log(`call ${this.lobbyId}: status ${status}${error ? ` (error ${error}, ${detail})` : ''}`, LoggingSeverity.Verbose);
    this.events.emit('statusChanged', { status, error, errorDetail: detail });
  }
}

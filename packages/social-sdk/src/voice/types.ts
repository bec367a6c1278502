import type { Snowflake } from '../snowflake.js';

/** PCM received from a participant: 16-bit samples, interleaved. Return `{ shouldMute: true }` to not play it. */
export type UserAudioReceivedCallback = (
  userId: Snowflake,
  data: Int16Array,
  samplesPerChannel: number,
  sampleRate: number,
  channels: number,
) => { shouldMute?: boolean } | void;
/** PCM captured for sending (before encoding); may be changed in place. */
export type UserAudioCapturedCallback = (data: Int16Array, samplesPerChannel: number, sampleRate: number, channels: number) => void;

/** What a call needs of its client. */
export interface CallHost {
  readonly userId: Snowflake;
  /** The voice gateway's CA (self-hosted servers with their own certificate authority). */
  readonly voiceCa?: string | Buffer;
  /** Gateway op 17 (join, update, leave a lobby's call); false when the Gateway is down. */
  sendLobbyVoiceState(d: { lobby_id: Snowflake; self_mute: boolean; self_deaf: boolean; leave?: boolean }): boolean;
  log(message: string, severity: number): void;
  deliver(fn: () => void): void;
  settings: { aecDump: boolean; aecDumpDir: string | null; engineManagedAudioSession: boolean };
}

/** A voice engine makes calls (Node registers one; browsers have none). */
export interface VoiceEngine {
  createCall(host: CallHost, lobbyId: Snowflake, received?: UserAudioReceivedCallback, captured?: UserAudioCapturedCallback): CallLike;
}

/** What the client drives on a call from Gateway events. */
export interface CallLike {
  readonly lobbyId: Snowflake;
  start(): void;
  end(): Promise<void>;
  onVoiceState(d: any): void;
  onVoiceServer(d: any): void;
  /** The main Gateway identified anew (the old session and its voice state are gone): join again. */
  onGatewayRestarted(): void;
}

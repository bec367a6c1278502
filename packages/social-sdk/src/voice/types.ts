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

/** A microphone or speaker (the real SDK's AudioDevice). */
export interface AudioDevice {
  id: string;
  name: string;
  isDefault: boolean;
}

/**
 * The client's audio settings, shared by its calls (the real SDK keeps them on the Client): volumes (input 0–100,
 * output 0–200, 100 unchanged), devices ('' for the system default), the microphone's processing, the threshold under
 * which the input counts as silent, and mute and deafen for every call.
 */
export interface AudioSettings {
  inputVolume: number;
  outputVolume: number;
  inputDeviceId: string;
  outputDeviceId: string;
  echoCancellation: boolean;
  noiseSuppression: boolean;
  automaticGainControl: boolean;
  noAudioInputThreshold: number;
  selfMuteAll: boolean;
  selfDeafAll: boolean;
}

/** An engine's access to the machine's audio devices (browsers have one; Node has no devices). */
export interface AudioDevices {
  list(): Promise<{ inputs: AudioDevice[]; outputs: AudioDevice[] }>;
  /** Calls `fn` when a device is plugged in or out; returns the unsubscribe. */
  onChange(fn: () => void): () => void;
}

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
  readonly audio: AudioSettings;
  /** The microphone's level crossed the no-audio threshold (true: input detected again). */
  inputDetected(detected: boolean): void;
}

/** A voice engine makes calls (each entry registers its own: UDP and Opus in Node, WebRTC in browsers). */
export interface VoiceEngine {
  createCall(host: CallHost, lobbyId: Snowflake, received?: UserAudioReceivedCallback, captured?: UserAudioCapturedCallback): CallLike;
  /** The machine's audio devices, where the engine can reach them. */
  readonly devices?: AudioDevices;
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
  /** The client's audio settings changed (volumes, devices, processing). */
  applyAudio(): void;
  setSelfMute(mute: boolean): void;
  setSelfDeaf(deaf: boolean): void;
  setVADThreshold(s: { vadThreshold: number; automatic: boolean }): void;
}

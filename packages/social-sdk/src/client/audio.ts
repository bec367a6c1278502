/**
 * Audio devices and processing (the real Client's audio calls). The settings live on the client and apply to every
 * call, now and later. Browsers reach devices (enumerateDevices, getUserMedia constraints, setSinkId) through their
 * voice engine; Node has no devices: there the device calls reject with ErrorType.Disabled, and volumes, mute and
 * deafen all apply to the PCM the game pushes and receives.
 */
import { ErrorType } from '../enums.js';
import { ClientResult, invalid } from '../result.js';
import type { AudioDevice, AudioDevices, AudioSettings, CallLike, VoiceEngine } from '../voice/types.js';
import { LobbiesClient } from './lobbies.js';

/** Seconds-long silence under this level (dBFS) counts as no audio input; the real SDK's default. */
const NO_AUDIO_INPUT_DBFS = -100;

export abstract class AudioClient extends LobbiesClient {
  private static engine: VoiceEngine | null = null;
  /** Registers the voice engine (each entry does: Node's, or the browser's). */
  static useVoiceEngine(engine: VoiceEngine | null): void {
    AudioClient.engine = engine;
  }
  protected get voiceEngine(): VoiceEngine | null {
    return AudioClient.engine;
  }

  protected readonly audio: AudioSettings = {
    inputVolume: 100,
    outputVolume: 100,
    inputDeviceId: '',
    outputDeviceId: '',
    echoCancellation: true,
    noiseSuppression: true,
    automaticGainControl: true,
    noAudioInputThreshold: NO_AUDIO_INPUT_DBFS,
    selfMuteAll: false,
    selfDeafAll: false,
  };
  private vadAll: { vadThreshold: number; automatic: boolean } | null = null;
  private inputDetected = true;
  private stopDeviceWatch: (() => void) | null = null;

  protected abstract liveCalls(): CallLike[];

  private devices(what: string): AudioDevices {
    const d = this.voiceEngine?.devices;
    if (!d) throw new ClientResult(ErrorType.Disabled, `${what}: this build has no audio devices (Node: the game supplies and plays PCM)`);
    return d;
  }

  private applyAll(): void {
    for (const c of this.liveCalls()) c.applyAudio();
  }

  getInputDevices(): Promise<AudioDevice[]> {
    return this.op(async () => (await this.devices('getInputDevices').list()).inputs);
  }
  getOutputDevices(): Promise<AudioDevice[]> {
    return this.op(async () => (await this.devices('getOutputDevices').list()).outputs);
  }
  /** The microphone calls use: the chosen one, else the system default. */
  getCurrentInputDevice(): Promise<AudioDevice> {
    return this.op(async () => current((await this.devices('getCurrentInputDevice').list()).inputs, this.audio.inputDeviceId));
  }
  getCurrentOutputDevice(): Promise<AudioDevice> {
    return this.op(async () => current((await this.devices('getCurrentOutputDevice').list()).outputs, this.audio.outputDeviceId));
  }
  /** Switches the microphone of every call ('' or 'default' for the system default); rejects for an unknown id. */
  setInputDevice(deviceId: string): Promise<void> {
    return this.op(async () => {
      this.audio.inputDeviceId = known((await this.devices('setInputDevice').list()).inputs, deviceId);
      this.applyAll();
    });
  }
  /** Plays every call through another speaker ('' or 'default' for the system default). */
  setOutputDevice(deviceId: string): Promise<void> {
    return this.op(async () => {
      this.audio.outputDeviceId = known((await this.devices('setOutputDevice').list()).outputs, deviceId);
      this.applyAll();
    });
  }
  /** Microphone volume, 0 to 100 (100 as captured; 0 sends silence). */
  setInputVolume(volume: number): void {
    this.audio.inputVolume = clamp(volume, 100, 'input volume');
    this.applyAll();
  }
  getInputVolume(): number {
    return this.audio.inputVolume;
  }
  /** Volume of everything heard, 0 to 200 (100 as received). */
  setOutputVolume(volume: number): void {
    this.audio.outputVolume = clamp(volume, 200, 'output volume');
    this.applyAll();
  }
  getOutputVolume(): number {
    return this.audio.outputVolume;
  }
  /** Mutes (or unmutes) the person in every call, and in calls started later. */
  setSelfMuteAll(mute: boolean): void {
    this.audio.selfMuteAll = mute;
    for (const c of this.liveCalls()) c.setSelfMute(mute);
  }
  getSelfMuteAll(): boolean {
    return this.audio.selfMuteAll;
  }
  setSelfDeafAll(deaf: boolean): void {
    this.audio.selfDeafAll = deaf;
    for (const c of this.liveCalls()) c.setSelfDeaf(deaf);
  }
  getSelfDeafAll(): boolean {
    return this.audio.selfDeafAll;
  }
  /** Called with the inputs and outputs whenever a device comes or goes (browsers; never in Node). */
  setDeviceChangeCallback(cb: ((inputs: AudioDevice[], outputs: AudioDevice[]) => void) | null): void {
    this.stopDeviceWatch?.();
    this.stopDeviceWatch = null;
    const devices = this.voiceEngine?.devices;
    if (!cb || !devices) return;
    this.stopDeviceWatch = devices.onChange(() => {
      void devices.list().then(
        ({ inputs, outputs }) => this.events.deliver(() => cb(inputs, outputs)),
        () => {},
      );
    });
  }
  /** Called with false when a call's microphone stays under the no-audio threshold, and with true when it comes back. */
  setNoAudioInputCallback(cb: ((inputDetected: boolean) => void) | null): void {
    this.noAudioInput = cb;
  }
  private noAudioInput: ((inputDetected: boolean) => void) | null = null;
  /** The level (dBFS) under which the microphone counts as silent (-100 by default). */
  setNoAudioInputThreshold(dbfs: number): void {
    if (!Number.isFinite(dbfs)) throw invalid('the no-audio threshold is a number of dBFS');
    this.audio.noAudioInputThreshold = Math.min(0, dbfs);
  }
  /** @internal a call's microphone crossed the no-audio threshold. */
  protected onInputDetected(detected: boolean): void {
    if (detected === this.inputDetected) return;
    this.inputDetected = detected;
    const cb = this.noAudioInput;
    if (cb) this.events.deliver(() => cb(detected));
  }
  setEchoCancellation(on: boolean): void {
    this.audio.echoCancellation = on;
    this.applyAll();
  }
  getEchoCancellation(): boolean {
    return this.audio.echoCancellation;
  }
  setNoiseSuppression(on: boolean): void {
    this.audio.noiseSuppression = on;
    this.applyAll();
  }
  getNoiseSuppression(): boolean {
    return this.audio.noiseSuppression;
  }
  setAutomaticGainControl(on: boolean): void {
    this.audio.automaticGainControl = on;
    this.applyAll();
  }
  getAutomaticGainControl(): boolean {
    return this.audio.automaticGainControl;
  }
  /** The voice-activity threshold of every call, and of calls started later (automatic, or a level in dBFS). */
  setVADThreshold(automatic: boolean, threshold: number): void {
    this.vadAll = { vadThreshold: Math.min(0, threshold), automatic };
    for (const c of this.liveCalls()) c.setVADThreshold(this.vadAll);
  }
  /** The client-wide threshold new calls start with, if one was set. */
  protected callDefaults(call: CallLike): void {
    if (this.vadAll) call.setVADThreshold(this.vadAll);
  }
}

function clamp(v: number, max: number, what: string): number {
  if (!Number.isFinite(v)) throw invalid(`the ${what} is a number from 0 to ${max}`);
  return Math.max(0, Math.min(max, v));
}

function current(devices: AudioDevice[], id: string): AudioDevice {
  const d = (id && devices.find((x) => x.id === id)) || devices.find((x) => x.isDefault) || devices[0];
  if (!d) throw new ClientResult(ErrorType.Disabled, 'no audio device of that kind');
  return d;
}

function known(devices: AudioDevice[], id: string): string {
  if (!id || id === 'default') return '';
  if (!devices.some((d) => d.id === id)) throw invalid(`no audio device ${id}`);
  return id;
}

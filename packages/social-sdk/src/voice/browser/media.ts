import type { Snowflake } from '../../snowflake.js';
import type { AudioSettings, UserAudioCapturedCallback, UserAudioReceivedCallback } from '../types.js';
import { microphoneConstraints } from './devices.js';

const RATE = 48_000;
const CHANNELS = 2;
/** ScriptProcessor block: the PCM callbacks run on the page's thread, where they may change what plays or is sent. */
const BLOCK = 1024;

interface Speaker {
  /** Chromium plays a remote WebRTC track into Web Audio only while a media element holds it (muted here). */
  element: HTMLAudioElement;
  source: MediaStreamAudioSourceNode;
  tap: ScriptProcessorNode | null;
  gain: GainNode;
}

/**
 * A browser call's audio, on one AudioContext at 48 kHz. Sent: microphone → input volume → (captured callback) →
 * a gate (mute, push-to-talk, voice activity) → the track the peer sends, which stays the same when the microphone
 * changes. Heard: each speaker → (received callback) → their volume and local mute → output volume and deafen → the
 * chosen speaker (AudioContext.setSinkId).
 */
export class CallMedia {
  readonly ctx = new AudioContext({ sampleRate: RATE });
  private mic: MediaStream | null = null;
  private micKey = '';
  private micSource: MediaStreamAudioSourceNode | null = null;
  private readonly raw = this.ctx.createAnalyser();
  private readonly inputGain = this.ctx.createGain();
  private readonly level = this.ctx.createAnalyser();
  private readonly gate = this.ctx.createGain();
  private readonly sent = this.ctx.createMediaStreamDestination();
  private readonly outputGain = this.ctx.createGain();
  private readonly speakers = new Map<Snowflake, Speaker>();
  private readonly buf = new Float32Array(2048);
  private sinkId = '';
  deafened = false;
  micError: string | null = null;

  constructor(
    private readonly audio: AudioSettings,
    private readonly received?: UserAudioReceivedCallback,
    captured?: UserAudioCapturedCallback,
    private readonly heard: (userId: Snowflake) => boolean = () => true,
  ) {
    this.raw.fftSize = this.level.fftSize = 2048;
    this.gate.gain.value = 0;
    let chain: AudioNode = this.inputGain;
    if (captured) {
      const tap = this.ctx.createScriptProcessor(BLOCK, CHANNELS, CHANNELS);
      tap.onaudioprocess = (e) => {
        const pcm = toPcm(e.inputBuffer);
        captured(pcm, e.inputBuffer.length, RATE, CHANNELS);
        fromPcm(pcm, e.outputBuffer);
      };
      chain.connect(tap);
      chain = tap;
    }
    chain.connect(this.level);
    chain.connect(this.gate);
    this.gate.connect(this.sent);
    this.outputGain.connect(this.ctx.destination);
    this.apply();
  }

  /** The track the peer sends (silent until the gate opens). */
  get track(): MediaStreamTrack {
    return this.sent.stream.getAudioTracks()[0];
  }

  /** Opens (or reopens, after a device or processing change) the microphone; a refusal leaves the call listen-only. */
  async openMicrophone(): Promise<void> {
    const constraints = microphoneConstraints(this.audio);
    const key = JSON.stringify(constraints);
    if (this.mic && key === this.micKey) return;
    this.micKey = key;
    let mic: MediaStream;
    try {
      if (!navigator.mediaDevices?.getUserMedia) throw new Error('this page cannot use a microphone (it needs a secure context)');
      mic = await navigator.mediaDevices.getUserMedia({ audio: constraints });
    } catch (err) {
      this.micError = (err as Error)?.message ?? String(err);
      return;
    }
    if (this.ctx.state === 'closed' || key !== this.micKey) return mic.getTracks().forEach((t) => t.stop());
    this.micSource?.disconnect();
    this.mic?.getTracks().forEach((t) => t.stop());
    this.mic = mic;
    this.micError = null;
    this.micSource = this.ctx.createMediaStreamSource(mic);
    this.micSource.connect(this.raw);
    this.micSource.connect(this.inputGain);
  }

  /** The client's settings now: volumes, speaker, and the microphone's device and processing. */
  apply(): void {
    this.inputGain.gain.value = this.audio.inputVolume / 100;
    this.outputGain.gain.value = this.deafened ? 0 : this.audio.outputVolume / 100;
    if (this.audio.outputDeviceId !== this.sinkId) {
      this.sinkId = this.audio.outputDeviceId;
      const ctx = this.ctx as AudioContext & { setSinkId?: (id: string) => Promise<void> };
      void ctx.setSinkId?.(this.sinkId).catch(() => {});
    }
    if (this.mic) void this.openMicrophone();
  }

  setSending(on: boolean): void {
    this.gate.gain.setTargetAtTime(on ? 1 : 0, this.ctx.currentTime, 0.005);
  }

  /** The level (dBFS) of the microphone as captured, or after the input volume (`afterVolume`); -Infinity unheard. */
  dbfs(afterVolume: boolean): number {
    if (!this.mic) return -Infinity;
    const a = afterVolume ? this.level : this.raw;
    a.getFloatTimeDomainData(this.buf);
    let sum = 0;
    for (const v of this.buf) sum += v * v;
    return 20 * Math.log10(Math.sqrt(sum / this.buf.length));
  }

  play(userId: Snowflake, track: MediaStreamTrack): void {
    this.remove(userId);
    const stream = new MediaStream([track]);
    const element = document.createElement('audio');
    element.muted = true;
    element.srcObject = stream;
    void element.play().catch(() => {});
    const source = this.ctx.createMediaStreamSource(stream);
    const gain = this.ctx.createGain();
    let tap: ScriptProcessorNode | null = null;
    if (this.received) {
      const received = this.received;
      tap = this.ctx.createScriptProcessor(BLOCK, CHANNELS, CHANNELS);
      tap.onaudioprocess = (e) => {
        const out = e.outputBuffer;
        if (this.deafened || !this.heard(userId)) return silence(out);
        const pcm = toPcm(e.inputBuffer);
        const r = received(userId, pcm, e.inputBuffer.length, RATE, CHANNELS);
        if (r && r.shouldMute) silence(out);
        else fromPcm(pcm, out);
      };
      source.connect(tap).connect(gain);
    } else source.connect(gain);
    gain.connect(this.outputGain);
    this.speakers.set(userId, { element, source, tap, gain });
    void this.ctx.resume().catch(() => {});
  }

  /** A speaker's volume (0–200) and local mute. */
  setSpeakerGain(userId: Snowflake, volume: number): void {
    const s = this.speakers.get(userId);
    if (s) s.gain.gain.value = volume / 100;
  }

  remove(userId: Snowflake): void {
    const s = this.speakers.get(userId);
    if (!s) return;
    this.speakers.delete(userId);
    s.source.disconnect();
    s.tap?.disconnect();
    s.gain.disconnect();
    s.element.srcObject = null;
  }

  close(): void {
    for (const id of [...this.speakers.keys()]) this.remove(id);
    this.mic?.getTracks().forEach((t) => t.stop());
    this.mic = null;
    void this.ctx.close().catch(() => {});
  }
}

function toPcm(b: AudioBuffer): Int16Array {
  const n = b.length;
  const pcm = new Int16Array(n * CHANNELS);
  for (let c = 0; c < CHANNELS; c++) {
    const ch = b.getChannelData(Math.min(c, b.numberOfChannels - 1));
    for (let i = 0; i < n; i++) pcm[i * CHANNELS + c] = Math.max(-32768, Math.min(32767, Math.round(ch[i] * 32768)));
  }
  return pcm;
}

function fromPcm(pcm: Int16Array, b: AudioBuffer): void {
  for (let c = 0; c < b.numberOfChannels; c++) {
    const ch = b.getChannelData(c);
    for (let i = 0; i < b.length; i++) ch[i] = pcm[i * CHANNELS + Math.min(c, CHANNELS - 1)] / 32768;
  }
}

function silence(b: AudioBuffer): void {
  for (let c = 0; c < b.numberOfChannels; c++) b.getChannelData(c).fill(0);
}

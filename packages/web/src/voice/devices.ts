/** A microphone or speaker the person can pick. */
export interface InputDevice {
  deviceId: string;
  label: string;
}

/** getUserMedia's refusals, in words a person can act on. */
export function microphoneError(err: unknown): string {
  const name = (err as { name?: string })?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'Microphone access was refused. Allow it in the browser to talk.';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'No microphone was found.';
  if (name === 'NotReadableError' || name === 'AbortError') return 'The microphone could not be opened (another application may be using it).';
  if (typeof navigator === 'undefined' || !navigator.mediaDevices) return 'This page cannot use a microphone (it needs HTTPS).';
  return `The microphone could not be opened: ${(err as Error)?.message ?? err}`;
}

/** Opens a microphone (the chosen one, else the default) with the browser's voice processing. */
export async function openMicrophone(deviceId: string | null): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia) throw Object.assign(new Error('no mediaDevices'), { name: 'SecurityError' });
  return navigator.mediaDevices.getUserMedia({
    audio: {
      ...(deviceId ? { deviceId: { exact: deviceId } } : {}),
      echoCancellation: true,
      noiseSuppression: true,
      autoGainControl: true,
    },
  });
}

/** Microphones and speakers (labels show once the page may use the microphone). */
export async function listDevices(): Promise<{ inputs: InputDevice[]; outputs: InputDevice[] }> {
  const all = (await navigator.mediaDevices?.enumerateDevices?.()) ?? [];
  const of = (kind: MediaDeviceKind, word: string) =>
    all.filter((d) => d.kind === kind && d.deviceId !== 'default').map((d, i) => ({ deviceId: d.deviceId, label: d.label || `${word} ${i + 1}` }));
  return { inputs: of('audioinput', 'Microphone'), outputs: of('audiooutput', 'Speaker') };
}

/**
 * Whether the microphone hears someone: the level of an AnalyserNode, above a threshold, held for a moment after it
 * drops (so words do not flicker the indicator). Calls `change` on each switch.
 */
export class VoiceActivity {
  private readonly ctx = new AudioContext();
  private readonly analyser = this.ctx.createAnalyser();
  private readonly timer: ReturnType<typeof setInterval>;
  private lastLoud = 0;
  speaking = false;

  constructor(
    stream: MediaStream,
    private readonly change: (speaking: boolean) => void,
    private readonly threshold = 0.01,
    private readonly holdMs = 400,
  ) {
    this.analyser.fftSize = 512;
    this.ctx.createMediaStreamSource(stream).connect(this.analyser);
    const buf = new Float32Array(this.analyser.fftSize);
    this.timer = setInterval(() => {
      this.analyser.getFloatTimeDomainData(buf);
      let sum = 0;
      for (const v of buf) sum += v * v;
      const now = performance.now();
      if (Math.sqrt(sum / buf.length) > this.threshold) this.lastLoud = now;
      const speaking = now - this.lastLoud < this.holdMs;
      if (speaking !== this.speaking) {
        this.speaking = speaking;
        this.change(speaking);
      }
    }, 50);
  }

  close(): void {
    clearInterval(this.timer);
    void this.ctx.close();
  }
}

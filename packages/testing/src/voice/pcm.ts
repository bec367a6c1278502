/**
 * Audio as voice carries it: 48 kHz, 16-bit, stereo PCM in 20 ms frames of 960 samples. WAV files are read into it and
 * recordings written out of it.
 */
export const RATE = 48_000;
export const FRAME_SAMPLES = 960;
export const FRAME_BYTES = FRAME_SAMPLES * 4;

/** The PCM of a WAV file: 16-bit, 48 kHz, mono (duplicated to both channels) or stereo. */
export function pcmFromWav(wav: Buffer): Buffer {
  if (wav.toString('ascii', 0, 4) !== 'RIFF' || wav.toString('ascii', 8, 12) !== 'WAVE') throw new Error('not a WAV file (RIFF/WAVE)');
  let fmt: { channels: number; rate: number; bits: number; format: number } | null = null;
  for (let at = 12; at + 8 <= wav.length;) {
    const id = wav.toString('ascii', at, at + 4);
    const size = wav.readUInt32LE(at + 4);
    const body = wav.subarray(at + 8, at + 8 + size);
    if (id === 'fmt ') fmt = { format: body.readUInt16LE(0), channels: body.readUInt16LE(2), rate: body.readUInt32LE(4), bits: body.readUInt16LE(14) };
    if (id === 'data') {
      if (!fmt) throw new Error('WAV data before its fmt chunk');
      if (fmt.format !== 1 || fmt.bits !== 16 || fmt.rate !== RATE || fmt.channels > 2) {
        throw new Error(
          `WAV must be 16-bit PCM at 48 kHz, mono or stereo (this one: format ${fmt.format}, ${fmt.bits}-bit, ${fmt.rate} Hz, ${fmt.channels} channels)`,
        );
      }
      if (fmt.channels === 2) return Buffer.from(body);
      const out = Buffer.alloc(body.length * 2);
      for (let i = 0; i + 1 < body.length; i += 2) {
        const v = body.readInt16LE(i);
        out.writeInt16LE(v, i * 2);
        out.writeInt16LE(v, i * 2 + 2);
      }
      return out;
    }
    at += 8 + size + (size & 1);
  }
  throw new Error('WAV without a data chunk');
}

/** A WAV file of 48 kHz stereo PCM. */
export function wavFromPcm(pcm: Buffer): Buffer {
  const head = Buffer.alloc(44);
  head.write('RIFF', 0, 'ascii');
  head.writeUInt32LE(36 + pcm.length, 4);
  head.write('WAVEfmt ', 8, 'ascii');
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20);
  head.writeUInt16LE(2, 22);
  head.writeUInt32LE(RATE, 24);
  head.writeUInt32LE(RATE * 4, 28);
  head.writeUInt16LE(4, 32);
  head.writeUInt16LE(16, 34);
  head.write('data', 36, 'ascii');
  head.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([head, pcm]);
}

/** A WAV of a sine tone, for tests: `tone(440, '1s')`-like, in milliseconds. */
export function toneWav(hz: number, ms: number, amplitude = 9000): Buffer {
  const samples = Math.round((RATE * ms) / 1000);
  const pcm = Buffer.alloc(samples * 4);
  for (let i = 0; i < samples; i++) {
    const v = Math.round(Math.sin((2 * Math.PI * hz * i) / RATE) * amplitude);
    pcm.writeInt16LE(v, i * 4);
    pcm.writeInt16LE(v, i * 4 + 2);
  }
  return wavFromPcm(pcm);
}

/** The strongest frequency of the left channel among `candidates` (Goertzel), for checking what was heard. */
export function dominantFrequency(pcm: Buffer, candidates: number[]): number {
  const n = Math.floor(pcm.length / 4);
  const power = (hz: number) => {
    const k = 2 * Math.cos((2 * Math.PI * hz) / RATE);
    let s1 = 0;
    let s2 = 0;
    for (let i = 0; i < n; i++) {
      const s0 = pcm.readInt16LE(i * 4) + k * s1 - s2;
      s2 = s1;
      s1 = s0;
    }
    return s1 * s1 + s2 * s2 - k * s1 * s2;
  };
  const powers = candidates.map(power);
  return candidates[powers.indexOf(Math.max(...powers))];
}

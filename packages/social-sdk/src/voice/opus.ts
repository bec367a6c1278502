import OpusScript from 'opusscript';

/** Calls carry 48 kHz stereo Opus in 20 ms frames. */
export const SAMPLE_RATE = 48000;
export const CHANNELS = 2;
export const FRAME_SAMPLES = 960;
export const FRAME_LENGTH = FRAME_SAMPLES * CHANNELS;
/** The Opus frame the platform uses for silence (sent five times after speaking stops). */
export const SILENCE_FRAME = Buffer.from([0xf8, 0xff, 0xfe]);

/** An Opus encoder and decoder pair (opusscript: libopus compiled to WebAssembly, no native build). */
export class OpusCodec {
  private readonly codec = new OpusScript(SAMPLE_RATE, CHANNELS, OpusScript.Application.VOIP);

  /** One 20 ms frame of interleaved 16-bit PCM → one Opus packet. */
  encode(pcm: Int16Array): Buffer {
    return this.codec.encode(Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength), FRAME_SAMPLES);
  }

  /** One Opus packet → interleaved 16-bit PCM. */
  decode(packet: Buffer): Int16Array {
    const out = this.codec.decode(packet);
    return new Int16Array(out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength));
  }

  close(): void {
    this.codec.delete();
  }
}

/**
 * The IPC framing: `[uint32 LE opcode][uint32 LE length][length bytes of UTF-8 JSON]`.
 * The decoder buffers across reads, so a frame may arrive split over many chunks or several frames in one chunk.
 */

export const Op = { HANDSHAKE: 0, FRAME: 1, CLOSE: 2, PING: 3, PONG: 4 } as const;
export type Opcode = (typeof Op)[keyof typeof Op];

/** The official C++ client refuses frames over 64 KiB; so do we, for what apps send us. */
export const MAX_FRAME_BYTES = 64 * 1024;

export function encodeFrame(op: number, payload: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(payload ?? null), 'utf8');
  const out = Buffer.allocUnsafe(8 + body.length);
  out.writeUInt32LE(op, 0);
  out.writeUInt32LE(body.length, 4);
  body.copy(out, 8);
  return out;
}

export type Decoded =
  | { kind: 'frame'; op: Opcode; payload: unknown }
  /** The frame boundaries were intact but the body was not JSON: the stream can go on. */
  | { kind: 'bad-json'; op: number }
  /** The stream cannot be trusted any more (unknown opcode, oversized length): the connection must close. */
  | { kind: 'fatal'; reason: 'unknown-opcode' | 'too-large'; op: number };

export class FrameDecoder {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private failed = false;

  constructor(private readonly maxBytes = MAX_FRAME_BYTES) {}

  /** Feeds bytes; returns every complete frame. After a fatal result nothing more is decoded. */
  push(chunk: Buffer): Decoded[] {
    if (this.failed) return [];
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const out: Decoded[] = [];
    while (this.buffered >= 8) {
      const head = this.peek(8);
      const op = head.readUInt32LE(0);
      const len = head.readUInt32LE(4);
      if (op > Op.PONG) return this.fail(out, { kind: 'fatal', reason: 'unknown-opcode', op });
      if (len > this.maxBytes) return this.fail(out, { kind: 'fatal', reason: 'too-large', op });
      if (this.buffered < 8 + len) break;
      const frame = this.take(8 + len);
      const text = frame.subarray(8).toString('utf8');
      try {
        out.push({ kind: 'frame', op: op as Opcode, payload: len === 0 ? null : JSON.parse(text) });
      } catch {
        out.push({ kind: 'bad-json', op });
      }
    }
    return out;
  }

  /** Bytes waiting for the rest of their frame. */
  get pending(): number {
    return this.buffered;
  }

  private fail(out: Decoded[], d: Decoded): Decoded[] {
    this.failed = true;
    this.chunks = [];
    this.buffered = 0;
    out.push(d);
    return out;
  }

  private peek(n: number): Buffer {
    if (this.chunks[0].length >= n) return this.chunks[0];
    this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0];
  }

  private take(n: number): Buffer {
    const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    const frame = all.subarray(0, n);
    const rest = all.subarray(n);
    this.chunks = rest.length ? [rest] : [];
    this.buffered = rest.length;
    return frame;
  }
}

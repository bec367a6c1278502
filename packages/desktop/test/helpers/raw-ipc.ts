import net from 'node:net';
import { encodeFrame, FrameDecoder } from '../../src/transport/framing.ts';

export interface Frame {
  op: number;
  payload: any;
}

/** A bare IPC peer for protocol tests: records every frame; tests wait on predicates. */
export class RawIpc {
  readonly frames: Frame[] = [];
  readonly closed: Promise<void>;
  private readonly decoder = new FrameDecoder(1 << 24);
  private waiters: { pred: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];

  private constructor(readonly socket: net.Socket) {
    socket.on('data', (chunk) => {
      for (const d of this.decoder.push(chunk)) if (d.kind === 'frame') this.push({ op: d.op, payload: d.payload });
    });
    socket.on('error', () => {});
    this.closed = new Promise((resolve) => socket.on('close', () => resolve()));
  }

  static connect(path: string): Promise<RawIpc> {
    return new Promise((resolve, reject) => {
      const s = net.createConnection(path, () => resolve(new RawIpc(s)));
      s.once('error', reject);
    });
  }

  /** Connects and completes the handshake; resolves after READY. */
  static async ready(path: string, clientId: string): Promise<RawIpc> {
    const c = await RawIpc.connect(path);
    c.send(0, { v: 1, client_id: clientId });
    await c.wait((f) => f.op === 1 && f.payload?.evt === 'READY');
    return c;
  }

  private push(f: Frame) {
    this.frames.push(f);
    for (const w of [...this.waiters]) {
      if (w.pred(f)) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(f);
      }
    }
  }

  send(op: number, payload: unknown): void {
    this.socket.write(encodeFrame(op, payload));
  }

  raw(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  wait(pred: (f: Frame) => boolean, ms = 5000): Promise<Frame> {
    const seen = this.frames.find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for an IPC frame (have ${JSON.stringify(this.frames).slice(0, 500)})`)), ms);
      this.waiters.push({
        pred,
        resolve: (f) => {
          clearTimeout(timer);
          resolve(f);
        },
      });
    });
  }

  /** Sends a command and resolves with its answer (matched by nonce). */
  async command(cmd: string, args: unknown = {}, evt?: string): Promise<any> {
    const nonce = `${cmd}-${Math.random().toString(36).slice(2)}`;
    this.send(1, { cmd, args, nonce, ...(evt ? { evt } : {}) });
    return (await this.wait((f) => f.op === 1 && f.payload?.nonce === nonce)).payload;
  }

  end(): void {
    this.socket.end();
  }
}

import WebSocket from 'ws';
import zlib from 'node:zlib';

export interface Frame {
  op: number;
  d: any;
  s: number | null;
  t: string | null;
}

/** A bare gateway client for protocol tests: every frame is recorded, and tests wait on predicates. */
export class RawGateway {
  readonly frames: Frame[] = [];
  readonly closed: Promise<number>;
  private waiters: { pred: (f: Frame) => boolean; resolve: (f: Frame) => void }[] = [];
  private inflate: zlib.Inflate | null = null;
  private pending: Buffer[] = [];

  private constructor(
    readonly ws: WebSocket,
    compress: boolean,
  ) {
    if (compress) {
      this.inflate = zlib.createInflate({ flush: zlib.constants.Z_SYNC_FLUSH });
      this.inflate.on('data', (chunk: Buffer) => this.pending.push(chunk));
    }
    ws.on('message', (data: Buffer, isBinary) => {
      if (this.inflate && isBinary) {
        this.inflate.write(data);
        this.inflate.flush(zlib.constants.Z_SYNC_FLUSH, () => {
          const text = Buffer.concat(this.pending).toString();
          this.pending = [];
          if (text) this.push(JSON.parse(text));
        });
      } else this.push(JSON.parse(data.toString()));
    });
    this.closed = new Promise((resolve) => ws.on('close', (code) => resolve(code)));
  }

  static async connect(baseUrl: string, query = '?v=10&encoding=json'): Promise<RawGateway> {
    // A handshake that never completes fails the test here rather than holding it for ever.
    const ws = new WebSocket(baseUrl.replace(/^http/, 'ws') + '/' + query, { handshakeTimeout: 15_000 });
    const gw = new RawGateway(ws, query.includes('zlib-stream'));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return gw;
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

  send(op: number, d: unknown): void {
    this.ws.send(JSON.stringify({ op, d }));
  }

  /** Resolves with the first frame (already received or future) matching the predicate. */
  wait(pred: (f: Frame) => boolean, timeoutMs = 5000, what = 'a gateway frame'): Promise<Frame> {
    const seen = this.frames.find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs);
      this.waiters.push({
        pred,
        resolve: (f) => {
          clearTimeout(timer);
          resolve(f);
        },
      });
    });
  }

  dispatch(t: string, pred: (d: any) => boolean = () => true, timeoutMs = 5000): Promise<any> {
    return this.wait((f) => f.op === 0 && f.t === t && pred(f.d), timeoutMs, t).then((f) => f.d);
  }

  async identify(token: string, extra: Record<string, unknown> = {}): Promise<any> {
    await this.wait((f) => f.op === 10);
    this.send(2, { token, properties: { os: 'linux', browser: 'accord-test', device: 'accord-test' }, ...extra });
    return this.dispatch('READY');
  }

  close(code = 1000): void {
    this.ws.close(code);
  }
}

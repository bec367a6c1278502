/**
 * The issue-16 load generator's Gateway side: thousands of sessions spread over worker threads (bench/load-worker.mjs),
 * so one thread's event loop does not cap what a server can be shown to deliver. The pool merges what the threads
 * count: per message, how many sessions got it and when the last one did.
 */
import { Worker } from 'node:worker_threads';

export const absNow = () => performance.timeOrigin + performance.now();

export interface OpenResult {
  /** Per session (all threads, in thread order): when its socket was opened and when READY arrived (-1: never). */
  startedAt: number[];
  readyAt: number[];
  readyBytes: number;
  notReady: number;
  errors: string[];
}

export interface PhaseReport {
  recv: Uint32Array;
  lastAt: Float64Array;
  duplicates: number;
  strays: number;
  seqGaps: number;
  closedEarly: number;
  sessions: number;
}

export class LoadPool {
  private nextId = 1;
  private pending = new Map<number, (v: any) => void>();
  private constructor(private readonly workers: Worker[]) {
    for (const w of workers) {
      w.on('message', (m: any) => {
        const p = this.pending.get(m.id);
        this.pending.delete(m.id);
        p?.(m);
      });
      w.on('error', (err) => {
        for (const p of this.pending.values()) p({ error: String(err) });
        this.pending.clear();
      });
    }
  }

  static start(threads: number): LoadPool {
    const url = new URL('./load-worker.mjs', import.meta.url);
    return new LoadPool(Array.from({ length: Math.max(1, threads) }, () => new Worker(url, { execArgv: [] })));
  }

  get threads() {
    return this.workers.length;
  }

  private ask(w: Worker, msg: object): Promise<any> {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, (m) => (m.error ? reject(new Error(`load thread: ${m.error}`)) : resolve(m)));
      w.postMessage({ ...msg, id });
    });
  }

  private all(msg: object): Promise<any[]> {
    return Promise.all(this.workers.map((w) => this.ask(w, msg)));
  }

  /** Opens n sessions split over the threads; batch 0 opens a thread's whole share at once. */
  async open(o: { urls: string[]; tokens: string[]; intents: number; n: number; batch: number; timeoutMs: number }): Promise<OpenResult> {
    const share = (i: number) => Math.floor(o.n / this.threads) + (i < o.n % this.threads ? 1 : 0);
    const parts = await Promise.all(
      this.workers.map((w, i) => this.ask(w, { cmd: 'open', ...o, n: share(i), batch: o.batch ? Math.ceil(o.batch / this.threads) : 0 })),
    );
    return {
      startedAt: parts.flatMap((p) => [...p.startedAt]),
      readyAt: parts.flatMap((p) => [...p.readyAt]),
      readyBytes: Math.max(...parts.map((p) => p.readyBytes)),
      notReady: parts.reduce((a, p) => a + p.notReady, 0),
      errors: parts.flatMap((p) => p.errors).slice(0, 10),
    };
  }

  async phase(base: number, total: number): Promise<void> {
    await this.all({ cmd: 'phase', base, total });
  }

  async delivered(): Promise<number> {
    return (await this.all({ cmd: 'count' })).reduce((a, p) => a + p.delivered, 0);
  }

  async report(total: number): Promise<PhaseReport> {
    const parts = await this.all({ cmd: 'report' });
    const recv = new Uint32Array(total);
    const lastAt = new Float64Array(total);
    for (const p of parts) {
      if (!p.recv) continue;
      for (let k = 0; k < total; k++) {
        recv[k] += p.recv[k];
        if (p.lastAt[k] > lastAt[k]) lastAt[k] = p.lastAt[k];
      }
    }
    const sum = (f: string) => parts.reduce((a, p) => a + p[f], 0);
    return {
      recv,
      lastAt,
      duplicates: sum('duplicates'),
      strays: sum('strays'),
      seqGaps: sum('seqGaps'),
      closedEarly: sum('closedEarly'),
      sessions: sum('sessions'),
    };
  }

  async close(): Promise<void> {
    await this.all({ cmd: 'close' });
  }

  async terminate(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

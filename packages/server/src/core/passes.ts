import { isUnavailable } from './errors.js';

/**
 * The passes of a background job (the outbox, the subscription lifecycle): they never overlap in one process, calls
 * made while a pass waits to start share it, and `run()` resolves after a pass that started after the call.
 */
export class Passes {
  private chain: Promise<unknown> = Promise.resolve();
  private queued: Promise<number> | null = null;
  stopped = false;

  /** `pass` does the work; `after` runs once each pass ends, even a failed one (re-arming a timer). */
  constructor(
    private readonly pass: () => Promise<number>,
    private readonly after: () => Promise<void>,
    private readonly label: string,
  ) {}

  run(): Promise<number> {
    if (this.stopped) return Promise.resolve(0);
    if (this.queued) return this.queued;
    const p = this.chain.then(async () => {
      this.queued = null;
      try {
        return await this.pass();
      } finally {
        await this.after();
      }
    });
    this.queued = p;
    this.chain = p.catch((err) => {
      // The database away: the outage is reported once (store/health.ts), and the next pass tries again.
      if (!this.stopped && !isUnavailable(err)) console.error(`[${this.label}] pass failed`, err);
    });
    return p;
  }

  /** No pass starts after this; resolves when the running one has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.chain.catch(() => {});
  }
}

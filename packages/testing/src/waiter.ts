import { toMs, type Duration } from './duration.js';

/**
 * What arrived, kept so a test can wait for something that came before it started waiting, and so a timeout can say
 * what did arrive instead. Each item is taken once: `next` returns the first match not yet taken.
 */
export class Arrivals<T> {
  private readonly items: T[] = [];
  private readonly taken = new Set<T>();
  private readonly waiters = new Set<() => void>();

  constructor(
    private readonly describe: (item: T) => string,
    private readonly max = 1000,
  ) {}

  push(item: T): void {
    this.items.push(item);
    if (this.items.length > this.max) this.taken.delete(this.items.shift()!);
    for (const w of [...this.waiters]) w();
  }

  /** Every item so far, taken or not. */
  all(): readonly T[] {
    return this.items;
  }

  /** The first item not yet taken that matches, waiting up to `timeout` for it; the error lists what arrived. */
  next(what: string, match: (item: T) => boolean, timeout: Duration = '5s'): Promise<T> {
    const find = () => this.items.find((i) => !this.taken.has(i) && match(i));
    const now = find();
    if (now) {
      this.taken.add(now);
      return Promise.resolve(now);
    }
    const ms = toMs(timeout);
    return new Promise((resolve, reject) => {
      const check = () => {
        const hit = find();
        if (!hit) return;
        this.taken.add(hit);
        done();
        resolve(hit);
      };
      const timer = setTimeout(() => {
        done();
        const seen = this.items
          .slice(-15)
          .map((i) => `  - ${this.describe(i)}`)
          .join('\n');
        reject(
          new Error(`no ${what} within ${ms} ms; what arrived (latest ${Math.min(15, this.items.length)} of ${this.items.length}):\n${seen || '  (nothing)'}`),
        );
      }, ms);
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
    });
  }
}

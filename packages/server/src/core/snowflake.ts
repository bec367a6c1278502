import { DISCORD_EPOCH } from '@accord/protocol';
import type { Clock } from './clock.js';

/** Generates 64-bit snowflakes as decimal strings; BigInt keeps them exact. */
export class Snowflakes {
  private lastMs = 0n;
  private increment = 0n;
  private lastId: string | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly worker = 1n,
    private readonly processId = BigInt(process.pid % 32),
  ) {}

  next(): string {
    let ms = BigInt(this.clock.now()) - DISCORD_EPOCH;
    if (ms < this.lastMs) ms = this.lastMs; // the dev clock never makes ids go backwards
    if (ms === this.lastMs) {
      this.increment = (this.increment + 1n) & 0xfffn;
      if (this.increment === 0n) ms = ++this.lastMs; // 4096 ids in one ms: borrow the next ms
    } else {
      this.increment = 0n;
    }
    this.lastMs = ms;
    this.lastId = ((ms << 22n) | (this.worker << 17n) | (this.processId << 12n) | this.increment).toString();
    return this.lastId;
  }

  /** The newest id issued, if any (a world snapshot records it). */
  last(): string | null {
    return this.lastId;
  }

  /** Issues ids after this one from now on, whatever the clock says (a world imported from a snapshot). */
  continueAfter(id: string): void {
    const n = BigInt(id);
    const ms = n >> 22n;
    if (ms < this.lastMs || (ms === this.lastMs && (n & 0xfffn) <= this.increment)) return;
    this.lastMs = ms;
    this.increment = n & 0xfffn;
  }
}

import { DISCORD_EPOCH } from '@accord/protocol';
import type { Clock } from './clock.js';

/** Generates 64-bit snowflakes as decimal strings; BigInt keeps them exact. */
export class Snowflakes {
  private lastMs = 0n;
  private increment = 0n;

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
    return this.compose();
  }

  /** The newest id issued, if any (a world snapshot records it). */
  last(): string | null {
    return this.lastMs === 0n ? null : this.compose();
  }

  private compose(): string {
    return ((this.lastMs << 22n) | (this.worker << 17n) | (this.processId << 12n) | this.increment).toString();
  }

  /**
   * Issues ids after this one from now on, whatever the clock says (a world imported from a snapshot). They start at the
   * next millisecond: within its own, an id from another worker or process may hold higher middle bits.
   */
  continueAfter(id: string): void {
    const ms = BigInt(id) >> 22n;
    if (ms < this.lastMs) return;
    this.lastMs = ms;
    this.increment = 0xfffn; // the next id borrows ms + 1
  }
}

import type { Clock } from './clock.js';

export const DISCORD_EPOCH = 1420070400000n;

/** Generates 64-bit snowflakes as decimal strings; BigInt keeps them exact. */
export class Snowflakes {
  private lastMs = 0n;
  private increment = 0n;

  constructor(private readonly clock: Clock, private readonly worker = 1n, private readonly processId = BigInt(process.pid % 32)) {}

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
    return ((ms << 22n) | (this.worker << 17n) | (this.processId << 12n) | this.increment).toString();
  }
}

export function snowflakeTime(id: string): number {
  return Number((BigInt(id) >> 22n) + DISCORD_EPOCH);
}

/** The smallest snowflake at a given time, for time-based comparisons. */
export function snowflakeAt(ms: number): string {
  return ((BigInt(ms) - DISCORD_EPOCH) << 22n).toString();
}

const SNOWFLAKE_RE = /^\d{1,20}$/;
export function isSnowflake(v: unknown): v is string {
  return typeof v === 'string' && SNOWFLAKE_RE.test(v) && BigInt(v) < 1n << 64n;
}

import type { Clock } from '../core/clock.js';

export interface Take {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetAtMs: number;
}

/**
 * Fixed-window counters: the HTTP rate limits, and the limits services and the Gateway keep for the whole deployment
 * (`Ctx.limits`: Request Guild Members for all members, the Social SDK's unapproved apps). The embedded store answers
 * at once and holds for one process; the Redis one (`http/rate-limit-redis.ts`, shared by every node) answers with a
 * promise.
 */
export interface RateLimitStore {
  /** Counts one hit on `key` in a window of `windowMs`; refused once `limit` hits are counted in the window. */
  take(key: string, limit: number, windowMs: number): Take | Promise<Take>;
  /** The current window of `key` without counting a hit, or null when there is none. */
  peek(key: string): Take | null | Promise<Take | null>;
  /**
   * One request's limits in one step (one round trip to Redis): the window of `ban` as `peek` sees it, and unless it
   * refuses (a window with `allowed` false), a hit on each of `hits` in order, up to and including the first refused.
   */
  takeAll(ban: string, hits: Hit[]): TakeAll | Promise<TakeAll>;
  /** Ends the window of `key` now (a success that resets a count of failures). */
  clear(key: string): void | Promise<void>;
}

/** One hit for `takeAll`: `take(key, limit, windowMs)`. */
export interface Hit {
  key: string;
  limit: number;
  windowMs: number;
}

/** What `takeAll` did: the ban window (null when none), and the takes done (none when banned). */
export interface TakeAll {
  ban: Take | null;
  takes: Take[];
}

export class MemoryRateLimits implements RateLimitStore {
  private windows = new Map<string, { count: number; limit: number; resetAt: number }>();
  private sweepAt = 0;

  constructor(private readonly clock: Clock) {}

  take(key: string, limit: number, windowMs: number): Take {
    const now = this.clock.now();
    if (now > this.sweepAt) this.sweep(now);
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, limit, resetAt: now + windowMs };
      this.windows.set(key, w);
    }
    w.limit = limit;
    if (w.count >= limit) return { allowed: false, limit, remaining: 0, resetAtMs: w.resetAt };
    w.count++;
    return { allowed: true, limit, remaining: limit - w.count, resetAtMs: w.resetAt };
  }

  peek(key: string): Take | null {
    const w = this.windows.get(key);
    if (!w || w.resetAt <= this.clock.now()) return null;
    return { allowed: w.count < w.limit, limit: w.limit, remaining: Math.max(0, w.limit - w.count), resetAtMs: w.resetAt };
  }

  takeAll(ban: string, hits: Hit[]): TakeAll {
    const b = this.peek(ban);
    const takes: Take[] = [];
    if (b && !b.allowed) return { ban: b, takes };
    for (const h of hits) {
      const t = this.take(h.key, h.limit, h.windowMs);
      takes.push(t);
      if (!t.allowed) break;
    }
    return { ban: b, takes };
  }

  clear(key: string): void {
    this.windows.delete(key);
  }

  private sweep(now: number) {
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
    this.sweepAt = now + 60_000;
  }
}

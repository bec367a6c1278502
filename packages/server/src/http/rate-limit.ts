import crypto from 'node:crypto';
import type { Clock } from '../core/clock.js';

export interface Take {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetAtMs: number;
}

/**
 * Fixed-window counters. The embedded store answers at once; the Redis one (`rate-limit-redis.ts`, shared by every
 * API node) answers with a promise.
 */
export interface RateLimitStore {
  /** Counts one hit on `key` in a window of `windowMs`; refused once `limit` hits are counted in the window. */
  take(key: string, limit: number, windowMs: number): Take | Promise<Take>;
  /** The current window of `key` without counting a hit, or null when there is none. */
  peek(key: string): Take | null | Promise<Take | null>;
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

  private sweep(now: number) {
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
    this.sweepAt = now + 60_000;
  }
}

/** Bucket id (opaque, without the major resource id) and the key that also carries the major id. */
export function bucketFor(method: string, path: string, params: Record<string, string>, name = `${method} ${path}`): { bucket: string; key: string } {
  const major = MAJOR.find((m) => params[m]);
  let majorValue = major ? params[major] : '';
  if (major === 'webhook_id' && params.webhook_token) majorValue += ':' + params.webhook_token;
  const bucket = crypto.createHash('sha1').update(name).digest('hex').slice(0, 16);
  return { bucket, key: `${bucket}:${majorValue}` };
}

const MAJOR = ['channel_id', 'guild_id', 'webhook_id'] as const;

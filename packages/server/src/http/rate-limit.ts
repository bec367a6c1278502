import crypto from 'node:crypto';
import type { Clock } from '../core/clock.js';

export interface Take {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetAtMs: number;
}

/** Fixed-window counters. The embedded store; a Redis implementation can replace it behind the same verb. */
export interface RateLimitStore {
  take(key: string, limit: number, windowMs: number): Take;
}

export class MemoryRateLimits implements RateLimitStore {
  private windows = new Map<string, { count: number; resetAt: number }>();
  private sweepAt = 0;

  constructor(private readonly clock: Clock) {}

  take(key: string, limit: number, windowMs: number): Take {
    const now = this.clock.now();
    if (now > this.sweepAt) this.sweep(now);
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, w);
    }
    if (w.count >= limit) return { allowed: false, limit, remaining: 0, resetAtMs: w.resetAt };
    w.count++;
    return { allowed: true, limit, remaining: limit - w.count, resetAtMs: w.resetAt };
  }

  private sweep(now: number) {
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
    this.sweepAt = now + 60_000;
  }
}

/** Per-route limits in the shape of the real platform's; the default fits most routes. */
export const DEFAULT_LIMIT = { count: 50, windowMs: 1000 };
export const GLOBAL_LIMIT = { count: 50, windowMs: 1000 };

const MAJOR = ['channel_id', 'guild_id', 'webhook_id'] as const;

/** Bucket id (opaque, without the major resource id) and the key that also carries the major id. */
export function bucketFor(method: string, path: string, params: Record<string, string>): { bucket: string; key: string } {
  const major = MAJOR.find((m) => params[m]);
  let majorValue = major ? params[major] : '';
  if (major === 'webhook_id' && params.webhook_token) majorValue += ':' + params.webhook_token;
  const bucket = crypto.createHash('sha1').update(`${method} ${path}`).digest('hex').slice(0, 16);
  return { bucket, key: `${bucket}:${majorValue}` };
}

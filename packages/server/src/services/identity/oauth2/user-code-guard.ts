import type { Ctx } from '../../context.js';
import { ApiError } from '../../../core/errors.js';

/**
 * Brute-force limits of the device flow's user codes (POST /oauth2/device/verify and /finish; RFC 8628 §5.1: user
 * codes are short, so wrong guesses must be limited). Counted on the server clock, in a fixed window:
 * - per person (the signed-in account) and per client IP: at most PER_KEY wrong codes per WINDOW_MS;
 * - for the whole server: at most GLOBAL wrong codes per WINDOW_MS, whoever sends them, so that many accounts and
 *   addresses together still get only a few thousand guesses at a space of 20^8 codes that live 5 minutes.
 * Past a limit every attempt (right or wrong) answers 429 with `retry_after`, as the platform's rate limits do, and
 * counts nothing. Memory only, per node (as the login limits).
 */
export const USER_CODE_LIMITS = { PER_KEY: 10, GLOBAL: 1000, WINDOW_MS: 10 * 60_000 };
const MAX_KEYS = 100_000;

interface Window {
  failures: number;
  resetAt: number;
}

export class UserCodeGuard {
  private keys = new Map<string, Window>();
  private global: Window = { failures: 0, resetAt: 0 };

  constructor(private readonly ctx: Ctx) {}

  /** Throws 429 (with retry_after) when this person, this address or the server has guessed too much. */
  check(userId: string, ip: string | undefined): void {
    const now = this.ctx.clock.now();
    for (const w of [this.global, this.keys.get(`user:${userId}`), ip ? this.keys.get(`ip:${ip}`) : undefined]) {
      if (!w || w.resetAt <= now) continue;
      if (w.failures >= (w === this.global ? USER_CODE_LIMITS.GLOBAL : USER_CODE_LIMITS.PER_KEY)) throw limited(w.resetAt - now, w === this.global);
    }
  }

  /** Counts one wrong (unknown or expired) user code. */
  failed(userId: string, ip: string | undefined): void {
    const now = this.ctx.clock.now();
    if (this.global.resetAt <= now) this.global = { failures: 0, resetAt: now + USER_CODE_LIMITS.WINDOW_MS };
    this.global.failures++;
    for (const k of [`user:${userId}`, ...(ip ? [`ip:${ip}`] : [])]) {
      let w = this.keys.get(k);
      if (!w || w.resetAt <= now) this.keys.set(k, (w = { failures: 0, resetAt: now + USER_CODE_LIMITS.WINDOW_MS }));
      w.failures++;
    }
    if (this.keys.size >= MAX_KEYS) {
      for (const [k, w] of this.keys) if (w.resetAt <= now) this.keys.delete(k);
      for (const k of this.keys.keys()) {
        if (this.keys.size < MAX_KEYS / 2) break;
        this.keys.delete(k);
      }
    }
  }
}

const limited = (ms: number, global: boolean) =>
  new ApiError(429, 0, 'You are being rate limited.', undefined, { retry_after: Math.ceil(ms / 10) / 100, global });

const guards = new WeakMap<Ctx, UserCodeGuard>();
export function userCodeGuard(ctx: Ctx): UserCodeGuard {
  let g = guards.get(ctx);
  if (!g) guards.set(ctx, (g = new UserCodeGuard(ctx)));
  return g;
}

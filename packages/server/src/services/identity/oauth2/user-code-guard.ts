import type { Ctx } from '../../context.js';
import type { Take } from '../../../bus/rate-limits.js';
import { ApiError } from '../../../core/errors.js';

/**
 * Brute-force limits of the device flow's user codes (POST /oauth2/device/verify and /finish; RFC 8628 §5.1: user
 * codes are short, so wrong guesses must be limited). Counted on the server clock, in fixed windows of `ctx.limits`
 * (the whole deployment's in distributed mode):
 * - per person (the signed-in account) and per client IP: at most PER_KEY wrong codes per WINDOW_MS;
 * - for the whole deployment: at most GLOBAL wrong codes per WINDOW_MS, whoever sends them, so that many accounts and
 *   addresses together still get only a few thousand guesses at a space of 20^8 codes that live 5 minutes.
 * Past a limit every attempt (right or wrong) answers 429 with `retry_after`, as the platform's rate limits do, and
 * counts nothing.
 */
export const USER_CODE_LIMITS = { PER_KEY: 10, GLOBAL: 1000, WINDOW_MS: 10 * 60_000 };
const GLOBAL_KEY = 'device-code:all';

const windowsOf = (userId: string, ip: string | undefined) => [
  { key: GLOBAL_KEY, limit: USER_CODE_LIMITS.GLOBAL },
  { key: `device-code:user:${userId}`, limit: USER_CODE_LIMITS.PER_KEY },
  ...(ip ? [{ key: `device-code:ip:${ip}`, limit: USER_CODE_LIMITS.PER_KEY }] : []),
];

export class UserCodeGuard {
  constructor(private readonly ctx: Ctx) {}

  /** Throws 429 (with retry_after) when this person, this address or the deployment has guessed too much. */
  async check(userId: string, ip: string | undefined): Promise<void> {
    const windows = windowsOf(userId, ip);
    const seen = await Promise.all(windows.map((w) => this.ctx.limits.peek(w.key)));
    const i = seen.findIndex((w): w is Take => !!w && !w.allowed);
    if (i >= 0) throw limited(seen[i]!.resetAtMs - this.ctx.clock.now(), windows[i].key === GLOBAL_KEY);
  }

  /** Counts one wrong (unknown or expired) user code. */
  async failed(userId: string, ip: string | undefined): Promise<void> {
    await Promise.all(windowsOf(userId, ip).map((w) => this.ctx.limits.take(w.key, w.limit, USER_CODE_LIMITS.WINDOW_MS)));
  }
}

const limited = (ms: number, global: boolean) =>
  new ApiError(429, 0, 'You are being rate limited.', undefined, { retry_after: Math.ceil(ms / 10) / 100, global });

export const userCodeGuard = (ctx: Ctx) => new UserCodeGuard(ctx);

import type { Ctx } from '../context.js';
import type { Take } from '../../bus/rate-limits.js';
import { ApiError } from '../../core/errors.js';

/**
 * Brute-force limits of POST /auth/login, on the server clock, counted in `ctx.limits` (the whole deployment's in
 * distributed mode, so a guesser gains nothing by spreading attempts over nodes or workers):
 * - per client IP: at most IP_FAILURES failed attempts per IP_WINDOW_MS; further attempts from it wait for the window;
 * - per account (per login name when no account has it, so the answers do not tell which exist): after
 *   FREE_FAILURES failures, each attempt waits 2^(n - FREE_FAILURES) s after the last failure, up to MAX_BACKOFF_MS.
 *   Failures are counted in a window of FORGET_MS from the first one. A distributed guesser gets one guess per
 *   back-off; the owner, from any IP not over its own limit, gets in once it passes. A success resets it.
 * A refused attempt does no password work and counts nothing.
 */
export const LOGIN_LIMITS = { IP_FAILURES: 20, IP_WINDOW_MS: 5 * 60_000, FREE_FAILURES: 5, MAX_BACKOFF_MS: 5 * 60_000, FORGET_MS: 60 * 60_000 };
const UNCAPPED = Number.MAX_SAFE_INTEGER;

const keys = (ip: string, account: string) => ({ ip: `login:ip:${ip}`, failures: `login:failures:${account}`, wait: `login:wait:${account}` });

export class LoginGuard {
  constructor(private readonly ctx: Ctx) {}

  /** Throws 429 (with retry_after) when this IP or this account must wait. */
  async check(ip: string, account: string): Promise<void> {
    const k = keys(ip, account);
    const windows = await Promise.all([this.ctx.limits.peek(k.ip), this.ctx.limits.peek(k.wait)]);
    const refused = windows.find((w): w is Take => !!w && !w.allowed);
    if (refused) throw limited(refused.resetAtMs - this.ctx.clock.now());
  }

  async failed(ip: string, account: string): Promise<void> {
    const k = keys(ip, account);
    const [, failures] = await Promise.all([
      this.ctx.limits.take(k.ip, LOGIN_LIMITS.IP_FAILURES, LOGIN_LIMITS.IP_WINDOW_MS),
      this.ctx.limits.take(k.failures, UNCAPPED, LOGIN_LIMITS.FORGET_MS),
    ]);
    const wait = backoff(UNCAPPED - failures.remaining);
    // A window that refuses every attempt until the back-off has passed.
    if (wait > 0) await this.ctx.limits.take(k.wait, 0, wait);
  }

  async succeeded(account: string): Promise<void> {
    const k = keys('', account);
    await Promise.all([this.ctx.limits.clear(k.failures), this.ctx.limits.clear(k.wait)]);
  }
}

/** How long after its last failure an account waits, given its failures in a row. */
export function backoff(failures: number): number {
  if (failures < LOGIN_LIMITS.FREE_FAILURES) return 0;
  return Math.min(LOGIN_LIMITS.MAX_BACKOFF_MS, 1000 * 2 ** (failures - LOGIN_LIMITS.FREE_FAILURES));
}

const limited = (ms: number) => new ApiError(429, 0, 'You are being rate limited.', undefined, { retry_after: Math.ceil(ms / 10) / 100, global: false });

export const loginGuard = (ctx: Ctx) => new LoginGuard(ctx);

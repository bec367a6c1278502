import type { Ctx } from '../context.js';
import { ApiError } from '../../core/errors.js';

/**
 * Brute-force limits of POST /auth/login, on the server clock:
 * - per client IP: at most IP_FAILURES failed attempts per IP_WINDOW_MS; further attempts from it wait for the window;
 * - per account (per login name when no account has it, so the answers do not tell which exist): after
 *   FREE_FAILURES failures in a row, each attempt waits 2^(n - FREE_FAILURES) s after the last failure, up to
 *   MAX_BACKOFF_MS (the IP window: once an address's window passes, so has any back-off it caused). A distributed
 *   guesser gets one guess per back-off; the owner, from any IP not over its own limit, gets in once it passes. A
 *   success resets it.
 * A refused attempt does no password work and counts nothing. Memory only, per node (as the HTTP rate limits).
 */
export const LOGIN_LIMITS = { IP_FAILURES: 20, IP_WINDOW_MS: 5 * 60_000, FREE_FAILURES: 5, MAX_BACKOFF_MS: 5 * 60_000, FORGET_MS: 60 * 60_000 };
const MAX_KEYS = 100_000;

interface IpWindow {
  failures: number;
  resetAt: number;
}
interface AccountState {
  failures: number;
  lastFailure: number;
}

export class LoginGuard {
  private ips = new Map<string, IpWindow>();
  private accounts = new Map<string, AccountState>();

  constructor(private readonly ctx: Ctx) {}

  /** Throws 429 (with retry_after) when this IP or this account must wait. */
  check(ip: string, account: string): void {
    const now = this.ctx.clock.now();
    const w = this.ips.get(ip);
    if (w && w.resetAt > now && w.failures >= LOGIN_LIMITS.IP_FAILURES) throw limited(w.resetAt - now);
    const a = this.accounts.get(account);
    const until = a ? a.lastFailure + backoff(a.failures) : 0;
    if (until > now) throw limited(until - now);
  }

  failed(ip: string, account: string): void {
    const now = this.ctx.clock.now();
    let w = this.ips.get(ip);
    if (!w || w.resetAt <= now) this.ips.set(ip, (w = { failures: 0, resetAt: now + LOGIN_LIMITS.IP_WINDOW_MS }));
    w.failures++;
    let a = this.accounts.get(account);
    if (!a || now - a.lastFailure > LOGIN_LIMITS.FORGET_MS) this.accounts.set(account, (a = { failures: 0, lastFailure: now }));
    a.failures++;
    a.lastFailure = now;
    this.prune(now);
  }

  succeeded(account: string): void {
    this.accounts.delete(account);
  }

  /** Drops what no longer limits anyone; past MAX_KEYS, the oldest entries go first (Map keeps insertion order). */
  private prune(now: number): void {
    if (this.ips.size + this.accounts.size < MAX_KEYS) return;
    for (const [k, w] of this.ips) if (w.resetAt <= now) this.ips.delete(k);
    for (const [k, a] of this.accounts) if (now - a.lastFailure > LOGIN_LIMITS.FORGET_MS) this.accounts.delete(k);
    for (const map of [this.ips, this.accounts] as Map<string, unknown>[]) {
      for (const k of map.keys()) {
        if (map.size < MAX_KEYS / 2) break;
        map.delete(k);
      }
    }
  }
}

/** How long after its last failure an account waits, given its failures in a row. */
export function backoff(failures: number): number {
  if (failures < LOGIN_LIMITS.FREE_FAILURES) return 0;
  return Math.min(LOGIN_LIMITS.MAX_BACKOFF_MS, 1000 * 2 ** (failures - LOGIN_LIMITS.FREE_FAILURES));
}

const limited = (ms: number) => new ApiError(429, 0, 'You are being rate limited.', undefined, { retry_after: Math.ceil(ms / 10) / 100, global: false });

const guards = new WeakMap<Ctx, LoginGuard>();
export function loginGuard(ctx: Ctx): LoginGuard {
  let g = guards.get(ctx);
  if (!g) guards.set(ctx, (g = new LoginGuard(ctx)));
  return g;
}

import type { Redis } from 'ioredis';
import type { Clock } from '../core/clock.js';
import type { RateLimitStore, Take } from './rate-limit.js';
import type { Hit, TakeAll } from '../bus/rate-limits.js';

/** One fixed-window hit on `key` (Lua expressions for the key, the limit and the window): sets allowed, count, reset. */
const takeStep = (key: string, limit: string, windowMs: string) => `
local limit = ${limit}
local v = redis.call('HMGET', ${key}, 'c', 'r')
local count = tonumber(v[1]) or 0
local reset = tonumber(v[2])
if not reset or reset <= now then
  count = 0
  reset = now + ${windowMs}
end
local allowed = 0
if count < limit then
  count = count + 1
  allowed = 1
end
redis.call('HSET', ${key}, 'c', count, 'r', reset, 'l', limit)
redis.call('PEXPIRE', ${key}, math.max(1, reset - now) + 1000)`;

const TAKE = `
local now = tonumber(ARGV[3])
${takeStep('KEYS[1]', 'tonumber(ARGV[1])', 'tonumber(ARGV[2])')}
return {allowed, count, tostring(reset)}
`;

/**
 * A request's limits in one script (`takeAll`): KEYS[1] the ban window, peeked; then one take per further key, as TAKE
 * does, stopping after the first refused. ARGV: now, then limit and window per taken key. Returns the ban window
 * ({0} when none, else {1, count, reset, limit}) and one {allowed, count, reset} per take done.
 */
const TAKE_ALL = `
local now = tonumber(ARGV[1])
local out = {}
local b = redis.call('HMGET', KEYS[1], 'c', 'r', 'l')
local br = tonumber(b[2])
if br and br > now then
  local bc = tonumber(b[1]) or 0
  local bl = tonumber(b[3]) or 0
  out[1] = {1, bc, tostring(br), bl}
  if bc >= bl then return out end
else
  out[1] = {0}
end
for i = 2, #KEYS do
${takeStep('KEYS[i]', 'tonumber(ARGV[i * 2 - 2])', 'tonumber(ARGV[i * 2 - 1])')}
  out[i] = {allowed, count, tostring(reset)}
  if allowed == 0 then break end
end
return out
`;

/**
 * Fixed-window counters in Redis, shared by every API node: one hash per key (count, window end, limit), counted by
 * a Lua script so a hit is read and written in one step. Times are the server clock of the node asking (nodes keep
 * their clocks in sync); each key expires with its window.
 */
export class RedisRateLimits implements RateLimitStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly clock: Clock,
  ) {
    redis.defineCommand('accordTake', { numberOfKeys: 1, lua: TAKE });
    redis.defineCommand('accordTakeAll', { lua: TAKE_ALL });
  }

  async take(key: string, limit: number, windowMs: number): Promise<Take> {
    const [allowed, count, reset] = (await (this.redis as any).accordTake(this.key(key), limit, windowMs, this.clock.now())) as [number, number, string];
    return { allowed: allowed === 1, limit, remaining: Math.max(0, limit - count), resetAtMs: Number(reset) };
  }

  async peek(key: string): Promise<Take | null> {
    const [c, r, l] = await this.redis.hmget(this.key(key), 'c', 'r', 'l');
    if (r === null || Number(r) <= this.clock.now()) return null;
    const count = Number(c),
      limit = Number(l);
    return { allowed: count < limit, limit, remaining: Math.max(0, limit - count), resetAtMs: Number(r) };
  }

  async clear(key: string): Promise<void> {
    await this.redis.del(this.key(key));
  }

  private key(k: string): string {
    return `${this.prefix}rl:${k}`;
  }

  /** The ban window and the request's hits in one round trip (TAKE_ALL). */
  async takeAll(ban: string, hits: Hit[]): Promise<TakeAll> {
    const args: (string | number)[] = [1 + hits.length, this.key(ban), ...hits.map((h) => this.key(h.key)), this.clock.now()];
    for (const h of hits) args.push(h.limit, h.windowMs);
    const [b, ...done] = (await (this.redis as any).accordTakeAll(...args)) as [[number, number?, string?, number?], ...[number, number, string][]];
    const banWindow = b[0] === 1 ? { allowed: b[1]! < b[3]!, limit: b[3]!, remaining: Math.max(0, b[3]! - b[1]!), resetAtMs: Number(b[2]) } : null;
    return {
      ban: banWindow,
      takes: done.map(([allowed, count, reset], j) => ({
        allowed: allowed === 1,
        limit: hits[j].limit,
        remaining: Math.max(0, hits[j].limit - count),
        resetAtMs: Number(reset),
      })),
    };
  }
}

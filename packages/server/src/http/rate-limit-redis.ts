import type { Redis } from 'ioredis';
import type { Clock } from '../core/clock.js';
import type { RateLimitStore, Take } from './rate-limit.js';

/**
 * Fixed-window counters in Redis, shared by every API node: one hash per key (count, window end, limit), counted by
 * a Lua script so a hit is read and written in one step. Times are the server clock of the node asking (nodes keep
 * their clocks in sync); each key expires with its window.
 */
const TAKE = `
local v = redis.call('HMGET', KEYS[1], 'c', 'r')
local limit = tonumber(ARGV[1])
local now = tonumber(ARGV[3])
local count = tonumber(v[1]) or 0
local reset = tonumber(v[2])
if not reset or reset <= now then
  count = 0
  reset = now + tonumber(ARGV[2])
end
local allowed = 0
if count < limit then
  count = count + 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 'c', count, 'r', reset, 'l', limit)
redis.call('PEXPIRE', KEYS[1], math.max(1, reset - now) + 1000)
return {allowed, count, tostring(reset)}
`;

export class RedisRateLimits implements RateLimitStore {
  constructor(private readonly redis: Redis, private readonly prefix: string, private readonly clock: Clock) {
    redis.defineCommand('accordTake', { numberOfKeys: 1, lua: TAKE });
  }

  async take(key: string, limit: number, windowMs: number): Promise<Take> {
    const [allowed, count, reset] = (await (this.redis as any).accordTake(this.key(key), limit, windowMs, this.clock.now())) as [number, number, string];
    return { allowed: allowed === 1, limit, remaining: Math.max(0, limit - count), resetAtMs: Number(reset) };
  }

  async peek(key: string): Promise<Take | null> {
    const [c, r, l] = await this.redis.hmget(this.key(key), 'c', 'r', 'l');
    if (r === null || Number(r) <= this.clock.now()) return null;
    const count = Number(c), limit = Number(l);
    return { allowed: count < limit, limit, remaining: Math.max(0, limit - count), resetAtMs: Number(r) };
  }

  private key(k: string): string {
    return `${this.prefix}rl:${k}`;
  }
}

import crypto from 'node:crypto';
import type { Redis } from 'ioredis';
import { KeyedQueue, type CallRecord, type CallStore } from './call-store.js';

/** Deletes a lock only if it is still the holder's (a lock that expired may have been taken by another node since). */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/** How long a node may hold a call before its lock lapses (a node that died while holding one). */
const LOCK_MS = 10_000;

/**
 * Running calls in Redis, shared by the nodes of a deployment: one key per call (its record as JSON) and a set of the
 * channels with a call. `serial` holds a per-call lock (`SET NX PX`, released by a compare-and-delete), after the
 * changes of this process queued for it, so a node asks Redis for the lock once per change, not once per waiter.
 */
export class RedisCallStore implements CallStore {
  private readonly queue = new KeyedQueue();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    redis.defineCommand('accordCallRelease', { numberOfKeys: 1, lua: RELEASE });
  }

  serial<T>(channelId: string, fn: () => Promise<T>): Promise<T> {
    return this.queue.run(channelId, async () => {
      const key = this.key(`lock:${channelId}`);
      const token = crypto.randomBytes(8).toString('hex');
      for (let wait = 2; !(await this.redis.set(key, token, 'PX', LOCK_MS, 'NX')); wait = Math.min(wait * 2, 50)) {
        await new Promise((r) => setTimeout(r, wait));
      }
      try {
        return await fn();
      } finally {
        await (this.redis as any).accordCallRelease(key, token).catch(() => {});
      }
    });
  }

  async get(channelId: string): Promise<CallRecord | null> {
    const raw = await this.redis.get(this.key(`c:${channelId}`));
    return raw ? (JSON.parse(raw) as CallRecord) : null;
  }

  async put(call: CallRecord): Promise<void> {
    await this.redis
      .multi()
      .set(this.key(`c:${call.channelId}`), JSON.stringify(call))
      .sadd(this.key('all'), call.channelId)
      .exec();
  }

  async delete(channelId: string): Promise<void> {
    await this.redis
      .multi()
      .del(this.key(`c:${channelId}`))
      .srem(this.key('all'), channelId)
      .exec();
  }

  channels(): Promise<string[]> {
    return this.redis.smembers(this.key('all'));
  }

  private key(name: string): string {
    return `${this.prefix}call:${name}`;
  }
}

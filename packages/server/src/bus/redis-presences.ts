import type { Redis } from 'ioredis';
import type { EventBus } from './bus.js';
import { MemoryPresences, type Presence } from './presence-state.js';
import { isUnavailable } from '../core/errors.js';

const CHANGED = '__PRESENCE_CHANGED';

/**
 * Presences shared by the nodes of a deployment: every node keeps the whole map in memory (reads stay synchronous),
 * a change is written to a Redis hash (so a node that starts later loads it) and announced to every node on the bus.
 * A dead node's users keep their last presence until they connect again.
 */
export class RedisPresences extends MemoryPresences {
  private constructor(
    private readonly redis: Redis,
    private readonly key: string,
    private readonly bus: EventBus,
  ) {
    super();
    bus.subscribe(
      (e) => {
        if (e.t !== CHANGED || !e.d?.user_id) return;
        if (e.d.presence) super.set(String(e.d.user_id), e.d.presence);
        else super.clear(String(e.d.user_id));
      },
      { remote: true },
    );
  }

  static async load(redis: Redis, prefix: string, bus: EventBus): Promise<RedisPresences> {
    const p = new RedisPresences(redis, `${prefix}presences`, bus);
    for (const [userId, json] of Object.entries(await redis.hgetall(p.key))) p.setLocal(userId, JSON.parse(json));
    return p;
  }

  override set(userId: string, presence: Presence): void {
    super.set(userId, presence);
    void this.redis.hset(this.key, userId, JSON.stringify(presence)).catch(report);
    this.bus.publish({ t: CHANGED, d: { user_id: userId, presence } });
  }

  override clear(userId: string): void {
    super.clear(userId);
    void this.redis.hdel(this.key, userId).catch(report);
    this.bus.publish({ t: CHANGED, d: { user_id: userId, presence: null } });
  }

  private setLocal(userId: string, presence: Presence): void {
    super.set(userId, presence);
  }
}

/** Redis away: reported once by store/health.ts, not once per change. */
const report = (err: unknown) => {
  if (!isUnavailable(err)) console.error('[presence] redis', err);
};

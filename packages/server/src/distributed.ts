import type { Redis } from 'ioredis';
import type { Config } from './config.js';
import type { Clock } from './core/clock.js';
import { Snowflakes } from './core/snowflake.js';
import { RedisBus } from './bus/redis.js';
import { closeRedis, connectRedis } from './store/redis.js';
import { RedisRateLimits } from './http/rate-limit-redis.js';
import { RedisVoiceStateStore } from './services/voice/redis-store.js';
import { RedisSessionStore } from './gateway/session-store.js';
import { RedisVoiceNodes } from './services/voice/redis-nodes.js';
import { RedisPresences } from './bus/redis-presences.js';
import { RedisCallStore } from './services/voice/redis-calls.js';
import type { DependencyHealth } from './store/health.js';

/**
 * What makes a process one node of a deployment (REDIS_URL): the Redis bus, rate limits counted in Redis, voice
 * states in Redis, and snowflake fields of its own. Loaded only in that mode, so a single process never loads the
 * Redis client.
 */
export interface Distributed {
  bus: RedisBus;
  limits: RedisRateLimits;
  voiceStates: RedisVoiceStateStore;
  voiceNodes: RedisVoiceNodes;
  presences: RedisPresences;
  /** DM and group-DM calls, the same call on every node. */
  calls: RedisCallStore;
  ids: Snowflakes;
  /** Gateway sessions' records, so a session resumes on any node. */
  sessions: RedisSessionStore;
  /** Resolves when Redis answers PING (readiness). */
  ping(): Promise<unknown>;
  close(): Promise<void>;
}

/** `health`: where the Redis connections' losses and returns are noted (the store's, so one place knows both). */
export async function connectDistributed(config: Config, clock: Clock, health?: DependencyHealth): Promise<Distributed> {
  const url = config.redisUrl!;
  const prefix = config.redisPrefix;
  // A session's record lives while it can be resumed (refreshed by its heartbeats); the streams it is rebuilt from
  // outlive it, so a record never points before what the streams still hold, short of trimming.
  const recordTtl = config.resumeWindowMs + 3 * config.heartbeatIntervalMs;
  health?.add('redis');
  const bus = await RedisBus.connect(url, prefix, Math.max(600_000, 2 * recordTtl), health);
  const redis = await connectRedis(url, 'accord-node', health);
  const sessions = new RedisSessionStore(redis, bus, prefix, recordTtl);
  return {
    bus,
    limits: new RedisRateLimits(redis, prefix, clock),
    voiceStates: new RedisVoiceStateStore(redis, prefix),
    voiceNodes: new RedisVoiceNodes(redis, prefix), // liveness in real time, whatever a dev clock says
    presences: await RedisPresences.load(redis, prefix, bus),
    calls: new RedisCallStore(redis, prefix),
    ids: await nodeSnowflakes(redis, prefix, clock),
    sessions,
    ping: () => redis.ping(),
    async close() {
      sessions.close();
      await bus.close();
      await closeRedis(redis);
    },
  };
}

/**
 * Nodes of one deployment must not mint the same id in the same millisecond: each takes a number from Redis at start
 * and uses its low 10 bits as the snowflake's worker and process fields (1,024 nodes before numbers repeat).
 */
async function nodeSnowflakes(redis: Redis, prefix: string, clock: Clock): Promise<Snowflakes> {
  const n = BigInt(await redis.incr(`${prefix}node-seq`));
  return new Snowflakes(clock, (n >> 5n) & 31n, n & 31n);
}

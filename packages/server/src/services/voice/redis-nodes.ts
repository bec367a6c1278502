import crypto from 'node:crypto';
import type { Redis } from 'ioredis';
import type { VoiceNodes } from './nodes.js';

/** How long an announcement lasts: voice servers repeat it every third of this. */
export const VOICE_NODE_TTL_MS = 15_000;

/**
 * Voice servers of a deployment in Redis: a sorted set of endpoints scored by when their announcement runs out, and
 * per channel the endpoint that serves it. A channel keeps its server while that server is live; a new channel (or
 * one whose server died) goes to the live server that rendezvous hashing picks for it, the same pick on every node.
 */
export class RedisVoiceNodes implements VoiceNodes {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly now: () => number = Date.now,
  ) {}

  async announce(endpoint: string): Promise<void> {
    await this.redis.zadd(this.key('voice-nodes'), this.now() + VOICE_NODE_TTL_MS, endpoint);
  }

  async withdraw(endpoint: string): Promise<void> {
    await this.redis.zrem(this.key('voice-nodes'), endpoint);
  }

  async endpointFor(key: string): Promise<string | null> {
    const ownerKey = this.key(`voice-owner:${key}`);
    const [live, current] = await Promise.all([this.redis.zrangebyscore(this.key('voice-nodes'), this.now(), '+inf'), this.redis.get(ownerKey)]);
    if (current && live.includes(current)) return current;
    if (!live.length) return null;
    const pick = live.reduce((best, e) => (weight(key, e) > weight(key, best) ? e : best));
    await this.redis.set(ownerKey, pick, 'PX', 24 * 3600_000);
    return pick;
  }

  private key(name: string): string {
    return `${this.prefix}${name}`;
  }
}

const weight = (key: string, endpoint: string): string => crypto.createHash('sha1').update(`${key}|${endpoint}`).digest('hex');

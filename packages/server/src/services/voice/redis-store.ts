import type { Redis } from 'ioredis';
import type { VoiceGrant, VoiceStateRecord, VoiceStateStore } from './store.js';

/**
 * Voice states and voice tokens in Redis, shared by the nodes of a deployment: a hash per guild (user → state), a set
 * per channel and per gateway session (of "guild:user"), and a key per token. A state's move between channels and a
 * token's replacement are Lua scripts, so the indexes never disagree with the hash. States have no expiry: a node
 * that dies leaves its sessions' states until they are changed.
 */
const SET_STATE = `
local old = redis.call('HGET', KEYS[1], ARGV[2])
if old then
  local o = cjson.decode(old)
  redis.call('SREM', ARGV[1] .. 'vs:c:' .. o.channel_id, ARGV[4])
  redis.call('SREM', ARGV[1] .. 'vs:s:' .. o.session_id, ARGV[4])
  redis.call('HDEL', KEYS[1], ARGV[2])
end
if ARGV[3] ~= '' then
  local n = cjson.decode(ARGV[3])
  redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
  redis.call('SADD', ARGV[1] .. 'vs:c:' .. n.channel_id, ARGV[4])
  redis.call('SADD', ARGV[1] .. 'vs:s:' .. n.session_id, ARGV[4])
end
return 1
`;

const PUT_GRANT = `
local old = redis.call('GET', KEYS[1])
if old then redis.call('DEL', ARGV[1] .. 'vs:t:' .. old) end
if ARGV[2] ~= '' then
  redis.call('SET', ARGV[1] .. 'vs:t:' .. ARGV[2], ARGV[3])
  redis.call('SET', KEYS[1], ARGV[2])
else
  redis.call('DEL', KEYS[1])
end
return 1
`;

export class RedisVoiceStateStore implements VoiceStateStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    redis.defineCommand('accordVoiceSet', { numberOfKeys: 1, lua: SET_STATE });
    redis.defineCommand('accordVoiceGrant', { numberOfKeys: 1, lua: PUT_GRANT });
  }

  async get(guildId: string, userId: string): Promise<VoiceStateRecord | undefined> {
    const raw = await this.redis.hget(this.key('g', guildId), userId);
    return raw ? JSON.parse(raw) : undefined;
  }

  async set(state: VoiceStateRecord): Promise<void> {
    await this.write(state.guild_id, state.user_id, JSON.stringify(state));
  }

  async delete(guildId: string, userId: string): Promise<void> {
    await this.write(guildId, userId, '');
  }

  async inGuild(guildId: string): Promise<VoiceStateRecord[]> {
    return (await this.redis.hvals(this.key('g', guildId))).map((v) => JSON.parse(v));
  }

  inChannel(channelId: string): Promise<VoiceStateRecord[]> {
    return this.members(this.key('c', channelId));
  }

  bySession(sessionId: string): Promise<VoiceStateRecord[]> {
    return this.members(this.key('s', sessionId));
  }

  async putGrant(grant: VoiceGrant): Promise<void> {
    await (this.redis as any).accordVoiceGrant(this.key('tg', `${grant.guildId}:${grant.userId}`), this.prefix, grant.token, JSON.stringify(grant));
  }

  async grant(token: string): Promise<VoiceGrant | undefined> {
    const raw = await this.redis.get(this.key('t', token));
    return raw ? JSON.parse(raw) : undefined;
  }

  async revokeGrants(guildId: string, userId: string): Promise<void> {
    await (this.redis as any).accordVoiceGrant(this.key('tg', `${guildId}:${userId}`), this.prefix, '', '');
  }

  private write(guildId: string, userId: string, json: string): Promise<unknown> {
    return (this.redis as any).accordVoiceSet(this.key('g', guildId), this.prefix, userId, json, `${guildId}:${userId}`);
  }

  /** The states named in an index set ("guild:user"), read in one round trip. */
  private async members(setKey: string): Promise<VoiceStateRecord[]> {
    const names = await this.redis.smembers(setKey);
    if (!names.length) return [];
    const p = this.redis.pipeline();
    for (const n of names) {
      const [guildId, userId] = n.split(':');
      p.hget(this.key('g', guildId), userId);
    }
    const out: VoiceStateRecord[] = [];
    for (const [err, raw] of (await p.exec()) ?? []) if (!err && typeof raw === 'string') out.push(JSON.parse(raw));
    return out;
  }

  private key(kind: string, id: string): string {
    return `${this.prefix}vs:${kind}:${id}`;
  }
}

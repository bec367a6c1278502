import type { EventBus } from '../../bus/bus.js';
import { watchForCache } from '../../bus/cache-watch.js';
import type { ChannelRecord, MemberRecord } from '../../store/records.js';

/** A guild's kept members past this many are dropped and read again: active posters, not the whole guild. */
const MEMBERS_PER_GUILD = 5000;

/**
 * Rows that every message create reads (the channel it goes to, its author's member), kept in memory until their
 * guild's next change. GuildAccess drops them with its own state, on the same events from any node, so they are
 * exactly as fresh as the permissions they are checked with. A row loaded while a drop happened, or before the
 * guild's events reached this node, is used once and not kept. Channel rows keep the columns a message changes
 * (last_message_id, message_count) as they were: callers use them for the channel's kind, rules and routing only.
 */
export class GuildRows {
  private readonly channels = new Map<string, { guildId: string; record: ChannelRecord }>();
  private readonly channelsOf = new Map<string, Set<string>>();
  private readonly members = new Map<string, Map<string, MemberRecord>>();
  /** Guilds whose changes on other nodes reach this one (their topic is watched). */
  private readonly watched = new Set<string>();
  /** Moves on every drop: a load that began before it is not kept. */
  private generation = 0;

  constructor(private readonly bus: EventBus) {}

  drop(guildId: string): void {
    this.generation++;
    for (const id of this.channelsOf.get(guildId) ?? []) this.channels.delete(id);
    this.channelsOf.delete(guildId);
    this.members.delete(guildId);
  }

  /** A guild channel by id, from memory or `load` (which throws for unknown ids). DM channels are never kept. */
  async channel(channelId: string, load: () => Promise<ChannelRecord>): Promise<ChannelRecord> {
    const kept = this.channels.get(channelId);
    if (kept) return kept.record;
    const generation = this.generation;
    const record = await load();
    const guildId = record.guild_id;
    if (guildId && this.keepable(guildId, generation)) {
      this.channels.set(channelId, { guildId, record });
      let ids = this.channelsOf.get(guildId);
      if (!ids) this.channelsOf.set(guildId, (ids = new Set()));
      ids.add(channelId);
    }
    return record;
  }

  /** Members of a guild by user id, from memory or `load` for the missing ones (absent users are not kept). */
  async memberRows(guildId: string, userIds: string[], load: (missing: string[]) => Promise<Map<string, MemberRecord>>): Promise<Map<string, MemberRecord>> {
    const kept = this.members.get(guildId);
    const out = new Map<string, MemberRecord>();
    const missing: string[] = [];
    for (const id of userIds) {
      const m = kept?.get(id);
      if (m) out.set(id, m);
      else missing.push(id);
    }
    if (!missing.length) return out;
    const generation = this.generation;
    const loaded = await load(missing);
    for (const [id, m] of loaded) out.set(id, m);
    if (loaded.size && this.keepable(guildId, generation)) {
      let map = this.members.get(guildId);
      if (!map || map.size + loaded.size > MEMBERS_PER_GUILD) this.members.set(guildId, (map = new Map()));
      for (const [id, m] of loaded) map.set(id, m);
    }
    return out;
  }

  /** Whether a row of this guild loaded at `generation` may be kept; starts watching the guild's topic if needed. */
  private keepable(guildId: string, generation: number): boolean {
    if (!this.watched.has(guildId)) {
      void watchForCache(this.bus, `guild-changes:${guildId}`).then(
        () => {
          this.watched.add(guildId);
          this.generation++; // rows loaded before the topic flowed may have missed a change
        },
        () => undefined,
      );
      return false;
    }
    return generation === this.generation;
  }
}

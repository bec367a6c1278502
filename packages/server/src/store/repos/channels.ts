import { Repo } from './repo.js';
import { toChannel } from './mappers.js';
import type { ChannelRecord } from '../records.js';

/** Channels, overwrites, DMs and group DMs (recipients), pins, stage instances, followers. */
export class ChannelsRepo extends Repo {
  /** One channel (of any kind, threads included), or null. */
  async byId(id: string): Promise<ChannelRecord | null> {
    const row = await this.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toChannel(row) : null;
  }

  /** The id of a guild's first text or announcement channel by position, or null. */
  async firstTextChannelId(guildId: string): Promise<string | null> {
    const first = await this.db.selectFrom('channels').select('id').where('guild_id', '=', guildId).where('type', 'in', [0, 5]).orderBy('position').limit(1).executeTakeFirst();
    return first ? String(first.id) : null;
  }

  /** The ids of a category's children (threads excluded). */
  async childIdsOf(parentId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('channels').select('id').where('parent_id', '=', parentId).where('type', 'not in', [10, 11, 12]).execute();
    return rows.map((r) => String(r.id));
  }

  /** The ids of a guild's voice and stage channels. */
  async voiceChannelIdsOf(guildId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('channels').select('id').where('guild_id', '=', guildId).where('type', 'in', [2, 13]).execute();
    return rows.map((r) => String(r.id));
  }

  /** Every channel of a guild, threads included, in no particular order (GUILD_CREATE). */
  async allOfGuild(guildId: string): Promise<ChannelRecord[]> {
    return (await this.db.selectFrom('channels').selectAll().where('guild_id', '=', guildId).execute()).map(toChannel);
  }

  /** A guild's channels without threads, in no particular order. */
  async nonThreadOfGuild(guildId: string): Promise<ChannelRecord[]> {
    return (await this.db.selectFrom('channels').selectAll().where('guild_id', '=', guildId).where('type', 'not in', [10, 11, 12]).execute()).map(toChannel);
  }

  /** A guild's channels (id and type) by position (dev seed). */
  async idsAndTypesByPosition(guildId: string): Promise<{ id: string; type: number }[]> {
    const rows = await this.db.selectFrom('channels').select(['id', 'type']).where('guild_id', '=', guildId).orderBy('position').execute();
    return rows.map((r) => ({ id: String(r.id), type: Number(r.type) }));
  }
}

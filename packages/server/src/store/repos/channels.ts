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

  /** Which of `ids` are channels (threads included) of a guild. */
  async idsInGuild(guildId: string, ids: string[]): Promise<string[]> {
    if (!ids.length) return [];
    const rows = await this.db.selectFrom('channels').select('id').where('guild_id', '=', guildId).where('id', 'in', ids).execute();
    return rows.map((r) => String(r.id));
  }
}

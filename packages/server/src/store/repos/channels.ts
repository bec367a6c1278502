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
}

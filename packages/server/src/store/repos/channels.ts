import { Repo } from './repo.js';
import { toChannel } from './mappers.js';
import type { ChannelRecord } from '../records.js';
import { compiledFor, fixedSql, readRows } from '../fixed-sql.js';

const CHANNEL_BY_ID = fixedSql('select * from "channels" where "id" = ?');

/** Channels, overwrites, DMs and group DMs (recipients), pins, stage instances, followers. */
export class ChannelsRepo extends Repo {
  /** One channel (of any kind, threads included), or null. */
  async byId(id: string): Promise<ChannelRecord | null> {
    const row = await this.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toChannel(row) : null;
  }

  /** One channel by id on the hot path (nearly every request): a fixed statement, no query building; or null. */
  async lookup(id: string): Promise<ChannelRecord | null> {
    const [row] = this.db.isTransaction
      ? (await this.db.executeQuery<Record<string, any>>(compiledFor(this.store.dialect, CHANNEL_BY_ID, [id]))).rows
      : await readRows(this.store, CHANNEL_BY_ID, [id]);
    return row ? toChannel(row) : null;
  }

  /** The channels among `ids` that exist, by id. */
  async byIds(ids: string[]): Promise<Map<string, ChannelRecord>> {
    const out = new Map<string, ChannelRecord>();
    for (let i = 0; i < ids.length; i += 500) {
      for (const r of await this.db.selectFrom('channels').selectAll().where('id', 'in', ids.slice(i, i + 500)).execute()) out.set(String(r.id), toChannel(r));
    }
    return out;
  }

  /** Every channel of a guild (threads included), in no particular order. */
  async allOfGuild(guildId: string): Promise<ChannelRecord[]> {
    return (await this.db.selectFrom('channels').selectAll().where('guild_id', '=', guildId).execute()).map(toChannel);
  }
}

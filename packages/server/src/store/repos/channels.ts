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
}

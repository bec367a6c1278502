import { Repo } from './repo.js';

/** Message reactions. */
export class ReactionsRepo extends Repo {

  /** Deletes every reaction in a guild's channels. */
  async deleteInGuild(guildId: string): Promise<void> {
    await this.db.deleteFrom('reactions').where('channel_id', 'in', this.db.selectFrom('channels').select('id').where('guild_id', '=', guildId)).execute();
  }

  /** Deletes every reaction on these messages. */
  async deleteOnMessages(messageIds: string[]): Promise<void> {
    if (!messageIds.length) return;
    await this.db.deleteFrom('reactions').where('message_id', 'in', messageIds).execute();
  }
}

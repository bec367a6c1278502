import { Repo } from './repo.js';

/** Channel webhooks. */
export class WebhooksRepo extends Repo {

  /** Deletes every webhook of a guild. */
  async deleteInGuild(guildId: string): Promise<void> {
    await this.db.deleteFrom('webhooks').where('guild_id', '=', guildId).execute();
  }
}

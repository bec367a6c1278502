import { Repo } from './repo.js';
import { toWebhook } from './mappers.js';
import type { WebhookRecord } from '../records.js';

/** Channel webhooks. */
export class WebhooksRepo extends Repo {

  /** Deletes every webhook of a guild. */
  async deleteInGuild(guildId: string): Promise<void> {
    await this.db.deleteFrom('webhooks').where('guild_id', '=', guildId).execute();
  }

  /** The webhooks of this guild among `ids`. */
  async inGuildByIds(guildId: string, ids: string[]): Promise<WebhookRecord[]> {
    if (!ids.length) return [];
    return (await this.db.selectFrom('webhooks').selectAll().where('id', 'in', ids).where('guild_id', '=', guildId).execute()).map(toWebhook);
  }
}

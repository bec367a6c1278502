import { Repo } from './repo.js';
import type { WebhookRecord } from '../records.js';
import type { WebhooksTable } from '../schema.js';
import { toWebhook } from './mappers.js';
import { atomically } from './tx.js';

/** Channel webhooks. */
export class WebhooksRepo extends Repo {
  /** One webhook, or null. */
  async byId(id: string): Promise<WebhookRecord | null> {
    const row = await this.db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toWebhook(row) : null;
  }

  /** A channel's webhooks, by id. */
  async ofChannel(channelId: string): Promise<WebhookRecord[]> {
    return (await this.db.selectFrom('webhooks').selectAll().where('channel_id', '=', channelId).orderBy('id').execute()).map(toWebhook);
  }

  /** A guild's webhooks, by id. */
  async ofGuild(guildId: string): Promise<WebhookRecord[]> {
    return (await this.db.selectFrom('webhooks').selectAll().where('guild_id', '=', guildId).orderBy('id').execute()).map(toWebhook);
  }

  /** How many webhooks a channel has. */
  async countInChannel(channelId: string): Promise<number> {
    const r = await this.db
      .selectFrom('webhooks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('channel_id', '=', channelId)
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  /** How many webhooks a guild has. */
  async countInGuild(guildId: string): Promise<number> {
    const r = await this.db
      .selectFrom('webhooks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('guild_id', '=', guildId)
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  /** Inserts a webhook. */
  async insert(row: WebhooksTable): Promise<void> {
    await this.db.insertInto('webhooks').values(row).execute();
  }

  /** Changes a webhook's name, avatar or channel. */
  async update(id: string, set: Partial<{ name: string; avatar: string | null; channel_id: string }>): Promise<void> {
    await this.db.updateTable('webhooks').set(set).where('id', '=', id).execute();
  }

  /** Deletes a webhook, and its follow link when it is a follower webhook, in one transaction. */
  async delete(id: string): Promise<void> {
    await atomically(this.db, async (trx) => {
      await trx.deleteFrom('webhooks').where('id', '=', id).execute();
      await trx.deleteFrom('channel_followers').where('webhook_id', '=', id).execute();
    });
  }

  /** The follower webhook that already links an announcement channel to this channel, or null. */
  async followerLink(sourceChannelId: string, channelId: string): Promise<string | null> {
    const r = await this.db
      .selectFrom('channel_followers')
      .select('webhook_id')
      .where('source_channel_id', '=', sourceChannelId)
      .where('channel_id', '=', channelId)
      .executeTakeFirst();
    return r ? String(r.webhook_id) : null;
  }

  /** Creates a follower webhook (type 2) and its link to the followed channel, in one transaction. */
  async insertFollower(row: WebhooksTable, link: { source_channel_id: string; source_guild_id: string; channel_id: string; guild_id: string }): Promise<void> {
    await atomically(this.db, async (trx) => {
      await trx.insertInto('webhooks').values(row).execute();
      await trx
        .insertInto('channel_followers')
        .values({ webhook_id: row.id, ...link })
        .execute();
    });
  }

  /** The follower webhooks fed by an announcement channel. */
  async followersOf(sourceChannelId: string): Promise<WebhookRecord[]> {
    const rows = await this.db
      .selectFrom('channel_followers')
      .innerJoin('webhooks', 'webhooks.id', 'channel_followers.webhook_id')
      .selectAll('webhooks')
      .where('channel_followers.source_channel_id', '=', sourceChannelId)
      .execute();
    return rows.map(toWebhook);
  }

  /** The followed channel and guild (ids and names) of these follower webhooks, by webhook id. */
  async followerSources(
    webhookIds: string[],
  ): Promise<Map<string, { guild: { id: string; name: string; icon: string | null }; channel: { id: string; name: string } }>> {
    const out = new Map<string, { guild: { id: string; name: string; icon: string | null }; channel: { id: string; name: string } }>();
    if (!webhookIds.length) return out;
    const rows = await this.db
      .selectFrom('channel_followers')
      .innerJoin('channels', 'channels.id', 'channel_followers.source_channel_id')
      .innerJoin('guilds', 'guilds.id', 'channel_followers.source_guild_id')
      .select([
        'channel_followers.webhook_id as webhook_id',
        'channels.id as channel_id',
        'channels.name as channel_name',
        'guilds.id as guild_id',
        'guilds.name as guild_name',
        'guilds.icon as guild_icon',
      ])
      .where('channel_followers.webhook_id', 'in', webhookIds)
      .execute();
    for (const r of rows) {
      out.set(String(r.webhook_id), {
        guild: { id: String(r.guild_id), name: r.guild_name, icon: r.guild_icon ?? null },
        channel: { id: String(r.channel_id), name: r.channel_name ?? '' },
      });
    }
    return out;
  }

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

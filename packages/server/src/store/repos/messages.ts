import { Repo } from './repo.js';
import type { Kysely } from 'kysely';
import type { DB, MessagesTable } from '../schema.js';
import { toMessage } from './mappers.js';
import type { MessageRecord } from '../records.js';
import { atomically } from './tx.js';

/** Messages: the hot write path (one commit for concurrent creates), pages, edits, deletes. */
export class MessagesRepo extends Repo {
  /** One message by id (of any channel), or null. */
  async byId(id: string): Promise<MessageRecord | null> {
    const row = await this.db.selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toMessage(row) : null;
  }

  /** Overwrites a message's flags and `extra` (nothing else, no event). */
  async setFlagsAndExtra(id: string, flags: number, extra: Record<string, unknown>): Promise<void> {
    await this.db.updateTable('messages').set({ flags, extra: JSON.stringify(extra) }).where('id', '=', id).execute();
  }

  /** Deletes messages with their reactions and stored files (`fileIds`), in one transaction. */
  async deleteWithReactionsAndFiles(ids: string[], fileIds: string[]): Promise<void> {
    const purge = async (db: Kysely<DB>) => {
      await db.deleteFrom('reactions').where('message_id', 'in', ids).execute();
      if (fileIds.length) await db.deleteFrom('files').where('id', 'in', fileIds).execute();
      await db.deleteFrom('messages').where('id', 'in', ids).execute();
    };
    if (this.db.isTransaction) return purge(this.db);
    await this.db.transaction().execute((trx) => purge(trx));
  }

  /** How many messages of a channel are pinned. */
  async countPinned(channelId: string): Promise<number> {
    const r = await this.db.selectFrom('messages').select((eb) => eb.fn.countAll<number>().as('n'))
      .where('channel_id', '=', channelId).where('pinned_at', 'is not', null).executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  /** Pins a message at `now` and sets the channel's last pin time, in one transaction; false when it was pinned already. */
  async pin(channelId: string, messageId: string, now: number): Promise<boolean> {
    return atomically(this.db, async (trx) => {
      const r = await trx.updateTable('messages').set({ pinned_at: now }).where('id', '=', messageId).where('pinned_at', 'is', null).executeTakeFirst();
      await trx.updateTable('channels').set({ last_pin_timestamp: now }).where('id', '=', channelId).execute();
      return Number(r.numUpdatedRows) > 0;
    });
  }

  /** Unpins a message and sets the channel's last pin time to the latest remaining pin, which it returns (null: none). */
  async unpin(channelId: string, messageId: string): Promise<number | null> {
    return atomically(this.db, async (trx) => {
      await trx.updateTable('messages').set({ pinned_at: null }).where('id', '=', messageId).execute();
      const latest = await trx.selectFrom('messages').select((eb) => eb.fn.max('pinned_at').as('t'))
        .where('channel_id', '=', channelId).where('pinned_at', 'is not', null).executeTakeFirst();
      const t = latest?.t == null ? null : Number(latest.t);
      await trx.updateTable('channels').set({ last_pin_timestamp: t }).where('id', '=', channelId).execute();
      return t;
    });
  }

  /** A channel's pinned messages, most recently pinned first, pinned before `before` (ms) when given. */
  async pinnedPage(channelId: string, before: number | undefined, limit: number): Promise<MessageRecord[]> {
    let q = this.db.selectFrom('messages').selectAll().where('channel_id', '=', channelId).where('pinned_at', 'is not', null);
    if (before !== undefined) q = q.where('pinned_at', '<', before);
    const rows = await q.orderBy('pinned_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
    return rows.map(toMessage);
  }

  /** Sets a message's flags if they still are `expected` (a compare-and-set); false when they changed meanwhile. */
  async setFlagsIf(id: string, expected: number, flags: number): Promise<boolean> {
    const res = await this.db.updateTable('messages').set({ flags }).where('id', '=', id).where('flags', '=', expected).executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** Inserts a crossposted copy and makes it its channel's last message, in one transaction. */
  async insertCrosspost(row: MessagesTable): Promise<void> {
    await atomically(this.db, async (trx) => {
      await trx.insertInto('messages').values(row).execute();
      await trx.updateTable('channels').set({ last_message_id: row.id }).where('id', '=', row.channel_id).execute();
    });
  }

  /** A message by id within one channel, or null. */
  async inChannel(channelId: string, id: string): Promise<MessageRecord | null> {
    const row = await this.db.selectFrom('messages').selectAll().where('id', '=', id).where('channel_id', '=', channelId).executeTakeFirst();
    return row ? toMessage(row) : null;
  }

  /** A message sent by this webhook, or null. */
  async ofWebhook(webhookId: string, id: string): Promise<MessageRecord | null> {
    const row = await this.db.selectFrom('messages').selectAll().where('id', '=', id).where('webhook_id', '=', webhookId).executeTakeFirst();
    return row ? toMessage(row) : null;
  }

  /** Deletes one message with its reactions and these files, in one transaction. */
  async deleteWithFiles(id: string, fileIds: string[]): Promise<void> {
    await atomically(this.db, async (trx) => {
      await trx.deleteFrom('reactions').where('message_id', '=', id).execute();
      if (fileIds.length) await trx.deleteFrom('files').where('id', 'in', fileIds).execute();
      await trx.deleteFrom('messages').where('id', '=', id).execute();
    });
  }

  /** A channel's messages created at or after `since` (ms), newest first, at most `limit`. */
  async recentSince(channelId: string, since: number, limit: number): Promise<MessageRecord[]> {
    const rows = await this.db.selectFrom('messages').selectAll().where('channel_id', '=', channelId).where('created_at', '>=', since)
      .orderBy('id', 'desc').limit(limit).execute();
    return rows.map(toMessage);
  }

  /** Makes `to` the author of every DM message (no guild) `from` wrote (accounts merged). */
  async reassignDmAuthor(from: string, to: string): Promise<void> {
    await this.db.updateTable('messages').set({ author_id: to }).where('author_id', '=', from).where('guild_id', 'is', null).execute();
  }

  /** Deletes every message of a guild. */
  async deleteInGuild(guildId: string): Promise<void> {
    await this.db.deleteFrom('messages').where('guild_id', '=', guildId).execute();
  }

  /** The distinct authors of a guild's messages created after `since` (ms). */
  async authorsInGuildSince(guildId: string, since: number): Promise<string[]> {
    const rows = await this.db.selectFrom('messages').select('author_id').distinct().where('guild_id', '=', guildId).where('created_at', '>', since).execute();
    return rows.map((r) => String(r.author_id));
  }

  /** Ids and channels of the messages of these authors in a guild created at or after `since` (ms). */
  async idsByAuthorsInGuildSince(guildId: string, authorIds: string[], since: number): Promise<{ id: string; channel_id: string }[]> {
    if (!authorIds.length) return [];
    const rows = await this.db.selectFrom('messages').select(['id', 'channel_id']).where('guild_id', '=', guildId).where('author_id', 'in', authorIds)
      .where('created_at', '>=', since).execute();
    return rows.map((r) => ({ id: String(r.id), channel_id: String(r.channel_id) }));
  }

  /** Deletes messages by id (their reactions go through ReactionsRepo.deleteOnMessages). */
  async deleteByIds(ids: string[]): Promise<void> {
    if (!ids.length) return;
    await this.db.deleteFrom('messages').where('id', 'in', ids).execute();
  }

  /** The channel of a message marked with this app's id (its game DMs among them), or null: other messages are not the app's. */
  async channelOfAppMessage(messageId: string, applicationId: string): Promise<string | null> {
    const row = await this.db.selectFrom('messages').select('channel_id').where('id', '=', messageId).where('application_id', '=', applicationId).executeTakeFirst();
    return row ? String(row.channel_id) : null;
  }
}

import { Repo } from './repo.js';

/** Reactions of one message grouped by emoji and kind: how many, and when the first was added. */
export interface ReactionGroup {
  message_id: string;
  emoji_key: string;
  burst: boolean;
  count: number;
  first: number;
}

/** Message reactions. */
export class ReactionsRepo extends Repo {
  /** The distinct emoji keys on a message, in first-use order. */
  async emojiKeys(messageId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('reactions')
      .select((eb) => ['emoji_key', eb.fn.min('created_at').as('first')])
      .where('message_id', '=', messageId)
      .groupBy('emoji_key')
      .execute();
    return rows.sort((a, b) => Number(a.first) - Number(b.first)).map((r) => r.emoji_key);
  }

  /** Adds a user's reaction; false when it was already there (nothing written). */
  async add(r: { messageId: string; channelId: string; emojiKey: string; userId: string; burst: boolean; at: number }): Promise<boolean> {
    const res = await this.db
      .insertInto('reactions')
      .values({ message_id: r.messageId, channel_id: r.channelId, emoji_key: r.emojiKey, user_id: r.userId, burst: r.burst ? 1 : 0, created_at: r.at })
      .onConflict((oc) => oc.columns(['message_id', 'emoji_key', 'user_id', 'burst']).doNothing())
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Removes a user's reactions with one emoji (`burst` narrows to one kind); returns the kinds removed (true = burst). */
  async removeOfUser(messageId: string, emojiKey: string, userId: string, burst?: boolean): Promise<boolean[]> {
    let q = this.db.selectFrom('reactions').select('burst').where('message_id', '=', messageId).where('emoji_key', '=', emojiKey).where('user_id', '=', userId);
    if (burst !== undefined) q = q.where('burst', '=', burst ? 1 : 0);
    const rows = await q.execute();
    if (!rows.length) return [];
    let del = this.db.deleteFrom('reactions').where('message_id', '=', messageId).where('emoji_key', '=', emojiKey).where('user_id', '=', userId);
    if (burst !== undefined) del = del.where('burst', '=', burst ? 1 : 0);
    await del.execute();
    return rows.map((r) => Number(r.burst) === 1);
  }

  /** Removes every reaction of a message. */
  async removeAll(messageId: string): Promise<void> {
    await this.db.deleteFrom('reactions').where('message_id', '=', messageId).execute();
  }

  /** Removes every reaction with one emoji; returns how many there were. */
  async removeEmoji(messageId: string, emojiKey: string): Promise<number> {
    const res = await this.db.deleteFrom('reactions').where('message_id', '=', messageId).where('emoji_key', '=', emojiKey).executeTakeFirst();
    return Number(res.numDeletedRows);
  }

  /** Ids of the users who reacted with an emoji (one kind), by id, after `after`. */
  async userIds(messageId: string, emojiKey: string, burst: boolean, q: { after?: string; limit: number }): Promise<string[]> {
    let sel = this.db
      .selectFrom('reactions')
      .select('user_id')
      .where('message_id', '=', messageId)
      .where('emoji_key', '=', emojiKey)
      .where('burst', '=', burst ? 1 : 0);
    if (q.after) sel = sel.where('user_id', '>', q.after);
    const rows = await sel.orderBy('user_id', 'asc').limit(q.limit).execute();
    return rows.map((r) => String(r.user_id));
  }

  /** The reactions of these messages grouped by message, emoji and kind. */
  async groupsOf(messageIds: string[]): Promise<ReactionGroup[]> {
    if (!messageIds.length) return [];
    const rows = await this.db
      .selectFrom('reactions')
      .select((eb) => ['message_id', 'emoji_key', 'burst', eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('first')])
      .where('message_id', 'in', messageIds)
      .groupBy(['message_id', 'emoji_key', 'burst'])
      .execute();
    return rows.map((r) => ({
      message_id: String(r.message_id),
      emoji_key: r.emoji_key,
      burst: Number(r.burst) === 1,
      count: Number(r.n),
      first: Number(r.first),
    }));
  }

  /** The reactions one user put on these messages: message id, emoji key and kind. */
  async ofUserOn(messageIds: string[], userId: string): Promise<{ message_id: string; emoji_key: string; burst: boolean }[]> {
    if (!messageIds.length) return [];
    const rows = await this.db
      .selectFrom('reactions')
      .select(['message_id', 'emoji_key', 'burst'])
      .where('message_id', 'in', messageIds)
      .where('user_id', '=', userId)
      .execute();
    return rows.map((r) => ({ message_id: String(r.message_id), emoji_key: r.emoji_key, burst: Number(r.burst) === 1 }));
  }

  /** Deletes every reaction in a guild's channels. */
  async deleteInGuild(guildId: string): Promise<void> {
    await this.db
      .deleteFrom('reactions')
      .where('channel_id', 'in', this.db.selectFrom('channels').select('id').where('guild_id', '=', guildId))
      .execute();
  }

  /** Deletes every reaction on these messages. */
  async deleteOnMessages(messageIds: string[]): Promise<void> {
    if (!messageIds.length) return;
    await this.db.deleteFrom('reactions').where('message_id', 'in', messageIds).execute();
  }
}

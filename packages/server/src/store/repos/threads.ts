import { Repo } from './repo.js';
import type { ChannelsTable } from '../schema.js';
import type { ChannelRecord } from '../records.js';
import { toChannel } from './mappers.js';
import { newestMessageId, selectChannels } from './last-message.js';
import { num } from '../json.js';
import { atomically } from './tx.js';

/** A thread member row. */
export interface ThreadMemberRecord {
  channel_id: string;
  user_id: string;
  join_timestamp: number;
  flags: number;
}
export const toThreadMember = (r: any): ThreadMemberRecord => ({
  channel_id: String(r.channel_id),
  user_id: String(r.user_id),
  join_timestamp: num(r.join_timestamp),
  flags: num(r.flags),
});

/** Threads and thread members. */
export class ThreadsRepo extends Repo {
  /** One thread member, or null. */
  async member(threadId: string, userId: string): Promise<ThreadMemberRecord | null> {
    const row = await this.db.selectFrom('thread_members').selectAll().where('channel_id', '=', threadId).where('user_id', '=', userId).executeTakeFirst();
    return row ? toThreadMember(row) : null;
  }

  /** Whether a user is a member of a thread. */
  async isMember(threadId: string, userId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('thread_members')
      .select('user_id')
      .where('channel_id', '=', threadId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return !!row;
  }

  /** The ids of a thread's members. */
  async memberIds(threadId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('thread_members').select('user_id').where('channel_id', '=', threadId).execute();
    return rows.map((r) => String(r.user_id));
  }

  /** A user's memberships among these threads. */
  async membershipsOf(userId: string, threadIds: string[]): Promise<ThreadMemberRecord[]> {
    if (!threadIds.length) return [];
    const rows = await this.db.selectFrom('thread_members').selectAll().where('user_id', '=', userId).where('channel_id', 'in', threadIds).execute();
    return rows.map(toThreadMember);
  }

  /** A thread's members by user id, `after` a user id, at most `limit` (all when no limit). */
  async membersPage(threadId: string, after: string | undefined, limit: number | undefined): Promise<ThreadMemberRecord[]> {
    let sel = this.db.selectFrom('thread_members').selectAll().where('channel_id', '=', threadId);
    if (after) sel = sel.where('user_id', '>', after);
    sel = sel.orderBy('user_id');
    if (limit !== undefined) sel = sel.limit(limit);
    return (await sel.execute()).map(toThreadMember);
  }

  /** Creates a thread with its first member, in one transaction. */
  async create(row: ChannelsTable, creator: ThreadMemberRecord): Promise<void> {
    await atomically(this.db, async (trx) => {
      await trx.insertInto('channels').values(row).execute();
      await trx.insertInto('thread_members').values(creator).execute();
    });
  }

  /** Creates a thread on a message (the thread takes its id) with its first member, and marks the starter message, in one transaction. */
  async createOnMessage(
    row: ChannelsTable,
    creator: ThreadMemberRecord,
    starter: { id: string; flags: number; extra: Record<string, unknown> },
  ): Promise<void> {
    await atomically(this.db, async (trx) => {
      await trx.insertInto('channels').values(row).execute();
      await trx.insertInto('thread_members').values(creator).execute();
      await trx
        .updateTable('messages')
        .set({ flags: starter.flags, extra: JSON.stringify(starter.extra) })
        .where('id', '=', starter.id)
        .execute();
    });
  }

  /** Removes a thread that was just created and has no messages (its members and its row). */
  async deleteEmpty(threadId: string): Promise<void> {
    await atomically(this.db, async (trx) => {
      await trx.deleteFrom('thread_members').where('channel_id', '=', threadId).execute();
      await trx.deleteFrom('channels').where('id', '=', threadId).execute();
    });
  }

  /** Deletes a thread with its reactions, messages, members and files; `detached` rewrites the starter message's extra. */
  async deleteWithContent(threadId: string, detached: { id: string; extra: Record<string, unknown> } | null): Promise<void> {
    await atomically(this.db, async (trx) => {
      await trx.deleteFrom('reactions').where('channel_id', '=', threadId).execute();
      await trx.deleteFrom('messages').where('channel_id', '=', threadId).execute();
      await trx.deleteFrom('thread_members').where('channel_id', '=', threadId).execute();
      await trx.deleteFrom('files').where('channel_id', '=', threadId).execute();
      await trx.deleteFrom('channels').where('id', '=', threadId).execute();
      if (detached)
        await trx
          .updateTable('messages')
          .set({ extra: JSON.stringify(detached.extra) })
          .where('id', '=', detached.id)
          .execute();
    });
  }

  /** Adds a member and recounts (member_count capped at `cap`); returns the uncapped count. Throws on a duplicate. */
  async addMember(row: ThreadMemberRecord, cap: number): Promise<number> {
    return atomically(this.db, async (trx) => {
      await trx.insertInto('thread_members').values(row).execute();
      const n = await trx
        .selectFrom('thread_members')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('channel_id', '=', row.channel_id)
        .executeTakeFirst();
      const total = Number(n?.n ?? 0);
      await trx
        .updateTable('channels')
        .set({ member_count: Math.min(total, cap) })
        .where('id', '=', row.channel_id)
        .execute();
      return total;
    });
  }

  /** Removes a member and recounts (capped at `cap`); returns the new count, or null when they were not a member. */
  async removeMember(threadId: string, userId: string, cap: number): Promise<number | null> {
    return atomically(this.db, async (trx) => {
      const res = await trx.deleteFrom('thread_members').where('channel_id', '=', threadId).where('user_id', '=', userId).executeTakeFirst();
      if (!Number(res.numDeletedRows)) return null;
      const n = await trx
        .selectFrom('thread_members')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('channel_id', '=', threadId)
        .executeTakeFirst();
      const total = Math.min(Number(n?.n ?? 0), cap);
      await trx.updateTable('channels').set({ member_count: total }).where('id', '=', threadId).execute();
      return total;
    });
  }

  /** Threads of these types in a guild and/or under one parent. */
  async listWhere(filter: { guildId?: string; parentId?: string; types: number[] }): Promise<ChannelRecord[]> {
    let q = selectChannels(this.db).where('type', 'in', filter.types);
    if (filter.guildId) q = q.where('guild_id', '=', filter.guildId);
    if (filter.parentId) q = q.where('parent_id', '=', filter.parentId);
    return (await q.execute()).map(toChannel);
  }

  /** The private threads (type 12) under a parent that a user is a member of. */
  async joinedPrivateOf(userId: string, parentId: string): Promise<ChannelRecord[]> {
    const rows = await this.db
      .selectFrom('thread_members')
      .innerJoin('channels', 'channels.id', 'thread_members.channel_id')
      .selectAll('channels')
      .select(newestMessageId)
      .where('thread_members.user_id', '=', userId)
      .where('channels.parent_id', '=', parentId)
      .where('channels.type', '=', 12)
      .execute();
    return rows.map(toChannel);
  }

  /** Deletes the thread members of every thread of a guild. */
  async deleteMembersInGuild(guildId: string): Promise<void> {
    await this.db
      .deleteFrom('thread_members')
      .where('channel_id', 'in', this.db.selectFrom('channels').select('id').where('guild_id', '=', guildId))
      .execute();
  }
}

import { Repo } from './repo.js';
import { sql, type CompiledQuery, type Insertable, type Kysely } from 'kysely';
import type { Dialect, Store } from '../db.js';
import type { DB, FilesTable } from '../schema.js';
import type { MessageRecord } from '../records.js';
import { toMessage } from './mappers.js';
import { compiledFor, fixedSql, readRows, type FixedSql } from '../fixed-sql.js';
import { writeAtomically } from '../group-commit.js';
import { PgGroupCommit } from '../pg-group-commit.js';
import '../tables/message-nonces.js';
import { atomically } from './tx.js';
import { keepLastMessageIds } from './last-message.js';

/** A message row to insert: every column by name (services build it with `messageRow`). */
export type NewMessage = Insertable<DB['messages']>;
/** A stored file to insert with a message (an upload). */
export type NewFile = FilesTable;
/** The changes an edit writes: the message's content fields, its files added and removed. */
export interface MessageEdit {
  content: string;
  embeds: unknown[];
  components: unknown[];
  attachments: unknown[];
  flags: number;
  mentions: string[];
  mention_roles: string[];
  mention_everyone: boolean;
  edited_at: number | null;
}
/** A page of a channel: newest first without a cursor; `around` centres on an id. */
export interface MessagePageQuery {
  before?: string;
  after?: string;
  around?: string;
  limit: number;
}
/** The filters of a guild message search the database applies (the rest are applied to the rows). */
export interface MessageSearchQuery {
  channelIds: string[];
  minId?: string;
  maxId?: string;
  pinned?: boolean;
  authorIds?: string[];
  mentionEveryone?: boolean;
  /** Lower-case words the content must contain, each anywhere. */
  terms: string[];
  limit: number;
}

const UPDATE_THREAD = fixedSql(
  'update "channels" set "last_message_id" = case when "last_message_id" is null or "last_message_id" < ? then ? else "last_message_id" end, ' +
    '"message_count" = "message_count" + 1, "total_message_sent" = "total_message_sent" + 1 where "id" = ?',
);
/** Frees a claim past its window, or whose message is gone, so the insert after it may claim the nonce again. */
const FREE_NONCE = fixedSql(
  'delete from "message_nonces" where "author_id" = ? and "nonce" = ? and ("created_at" < ? or not exists (select 1 from "messages" where "messages"."id" = "message_nonces"."message_id"))',
);
/** Fails (unique violation) while another create holds the claim: that is what makes enforce_nonce exactly once. */
const CLAIM_NONCE = fixedSql('insert into "message_nonces" ("author_id", "nonce", "message_id", "created_at") values (?, ?, ?, ?)');
const NONCE_HOLDER = fixedSql('select "message_id" from "message_nonces" where "author_id" = ? and "nonce" = ? and "created_at" >= ?');
const MESSAGE_BY_ID = fixedSql('select * from "messages" where "id" = ?');
const THREAD_TYPES = new Set([10, 11, 12]);

/**
 * The insert of a message row, by its columns: rows are built by messageRow, so one text serves nearly every call.
 * Undefined values leave their column out (its default), as Kysely's insert does.
 */
const inserts = new Map<string, FixedSql>();
function insertRow(dialect: Dialect, row: NewMessage): CompiledQuery {
  const columns = (Object.keys(row) as (keyof NewMessage)[]).filter((c) => row[c] !== undefined);
  const key = columns.join(',');
  let q = inserts.get(key);
  if (!q) {
    q = fixedSql(`insert into "messages" (${columns.map((c) => `"${c}"`).join(', ')}) values (${columns.map(() => '?').join(', ')})`);
    inserts.set(key, q);
  }
  return compiledFor(
    dialect,
    q,
    columns.map((c) => row[c]),
  );
}

/** The PostgreSQL group commit of each store (one per pool). */
const pgCommits = new WeakMap<Store, PgGroupCommit>();

/** Messages: the hot write path (one commit for concurrent creates), pages, edits, deletes. */
export class MessagesRepo extends Repo {
  /**
   * Inserts one message with its files (a thread also counts it), all or nothing (its channel's last message id is
   * derived: last-message.ts); concurrent calls share one commit (SQLite: one transaction, a savepoint each;
   * PostgreSQL: one statement).
   * With `nonce`, claims (author, nonce) in the same transaction: when a live claim exists nothing is written and the
   * id of the message holding it is returned (enforce_nonce, exactly once across processes). Null when written.
   */
  async insert(
    row: NewMessage,
    opts: { channelType: number; files?: NewFile[]; nonce?: { authorId: string; nonce: string; since: number } },
  ): Promise<string | null> {
    const files = opts.files ?? [];
    const dialect = this.store.dialect;
    if (dialect === 'postgres' && !opts.nonce && !this.db.isTransaction) {
      let commit = pgCommits.get(this.store);
      if (!commit) pgCommits.set(this.store, (commit = new PgGroupCommit(this.store.db)));
      await commit.submit({
        row: row as Record<string, unknown>,
        files: files as unknown as Record<string, unknown>[],
        thread: THREAD_TYPES.has(opts.channelType),
      });
      return null;
    }
    const statements: CompiledQuery[] = [];
    const n = opts.nonce;
    if (n) {
      statements.push(compiledFor(dialect, FREE_NONCE, [n.authorId, n.nonce, n.since]));
      statements.push(compiledFor(dialect, CLAIM_NONCE, [n.authorId, n.nonce, row.id, row.created_at]));
    }
    if (files.length) statements.push(this.db.insertInto('files').values(files).compile());
    statements.push(insertRow(dialect, row));
    if (THREAD_TYPES.has(opts.channelType)) statements.push(compiledFor(dialect, UPDATE_THREAD, [row.id, row.id, row.channel_id]));
    try {
      if (this.db.isTransaction) for (const q of statements) await this.db.executeQuery(q);
      else await writeAtomically(this.store, statements);
    } catch (err) {
      if (!n) throw err;
      // A unique violation of the claim: the other create's message wins (any other error has no holder: rethrow).
      const holder = await this.nonceHolder(n.authorId, n.nonce, n.since);
      if (holder && holder !== String(row.id)) return holder;
      throw err;
    }
    return null;
  }

  /** The id of the message that claimed (author, nonce) with enforce_nonce since `since`, or null. */
  async nonceHolder(authorId: string, nonce: string, since: number): Promise<string | null> {
    const [r] = await this.fixedRows(NONCE_HOLDER, [authorId, nonce, since]);
    return r ? String(r.message_id) : null;
  }

  /** The newest message from this author with this nonce created since `since` (enforce_nonce's lookup), or null. */
  async byNonce(authorId: string, nonce: string | number, since: number): Promise<MessageRecord | null> {
    const row = await this.db
      .selectFrom('messages')
      .selectAll()
      .where('author_id', '=', authorId)
      .where('nonce', '=', nonce as string)
      .where('created_at', '>=', since)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? toMessage(row) : null;
  }

  /** One message by id (of any channel), or null. */
  async byId(id: string): Promise<MessageRecord | null> {
    const [row] = await this.fixedRows(MESSAGE_BY_ID, [id]);
    return row ? toMessage(row) : null;
  }

  /** The messages among `ids` that exist (any channel, no order). */
  async byIds(ids: string[]): Promise<MessageRecord[]> {
    const out: MessageRecord[] = [];
    for (let i = 0; i < ids.length; i += 500) {
      out.push(
        ...(
          await this.db
            .selectFrom('messages')
            .selectAll()
            .where('id', 'in', ids.slice(i, i + 500))
            .execute()
        ).map(toMessage),
      );
    }
    return out;
  }

  /** The messages of a channel among `ids` (no order). */
  async ofChannelByIds(channelId: string, ids: string[]): Promise<MessageRecord[]> {
    if (!ids.length) return [];
    return (await this.db.selectFrom('messages').selectAll().where('channel_id', '=', channelId).where('id', 'in', ids).execute()).map(toMessage);
  }

  /** The author of each message among `ids` that exists, by message id. */
  async authorsOf(ids: string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (let i = 0; i < ids.length; i += 500) {
      for (const r of await this.db
        .selectFrom('messages')
        .select(['id', 'author_id'])
        .where('id', 'in', ids.slice(i, i + 500))
        .execute())
        out.set(String(r.id), String(r.author_id));
    }
    return out;
  }

  /** When this author last posted in the channel after `since` (slowmode), or null. */
  async lastPostedAt(channelId: string, authorId: string, since: number): Promise<number | null> {
    const last = await this.db
      .selectFrom('messages')
      .select('created_at')
      .where('channel_id', '=', channelId)
      .where('author_id', '=', authorId)
      .where('created_at', '>', since)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return last ? Number(last.created_at) : null;
  }

  /** One page of a channel's messages, ephemeral ones (flag 64) left out; in no particular order. */
  async page(channelId: string, q: MessagePageQuery): Promise<MessageRecord[]> {
    const base = () =>
      this.db
        .selectFrom('messages')
        .selectAll()
        .where('channel_id', '=', channelId)
        .where(sql<number>`flags & 64`, '=', 0);
    let rows;
    if (q.around) {
      const older = Math.floor(q.limit / 2);
      const [from, before] = await Promise.all([
        base()
          .where('id', '>=', q.around)
          .orderBy('id', 'asc')
          .limit(q.limit - older)
          .execute(),
        older ? base().where('id', '<', q.around).orderBy('id', 'desc').limit(older).execute() : Promise.resolve([]),
      ]);
      rows = [...from, ...before];
    } else if (q.before) {
      rows = await base().where('id', '<', q.before).orderBy('id', 'desc').limit(q.limit).execute();
    } else if (q.after) {
      rows = await base().where('id', '>', q.after).orderBy('id', 'asc').limit(q.limit).execute();
    } else {
      rows = await base().orderBy('id', 'desc').limit(q.limit).execute();
    }
    return rows.map(toMessage);
  }

  /** Writes an edit: the message's fields, with its new files inserted and its removed ones deleted, in one transaction. */
  async applyEdit(id: string, e: MessageEdit, files: { add: NewFile[]; remove: string[] }): Promise<void> {
    const write = async (db: Kysely<DB>) => {
      if (files.add.length) await db.insertInto('files').values(files.add).execute();
      if (files.remove.length) await db.deleteFrom('files').where('id', 'in', files.remove).execute();
      await db
        .updateTable('messages')
        .set({
          content: e.content,
          embeds: JSON.stringify(e.embeds),
          components: JSON.stringify(e.components),
          attachments: JSON.stringify(e.attachments),
          flags: e.flags,
          mentions: JSON.stringify(e.mentions),
          mention_roles: JSON.stringify(e.mention_roles),
          mention_everyone: e.mention_everyone ? 1 : 0,
          edited_at: e.edited_at,
        })
        .where('id', '=', id)
        .execute();
    };
    if (!files.add.length && !files.remove.length) return write(this.db);
    if (this.db.isTransaction) return write(this.db);
    await this.db.transaction().execute((trx) => write(trx));
  }

  /** Replaces a message's `extra` (rare fields: call, poll results). */
  async setExtra(id: string, extra: Record<string, unknown>): Promise<void> {
    await this.db
      .updateTable('messages')
      .set({ extra: JSON.stringify(extra) })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Writes the `extra` of a poll that ends, only if its stored poll is still open: one process wins the end of a poll
   * however many run its clock (workers, nodes). False when another already ended it.
   */
  async endPoll(id: string, extra: Record<string, unknown>): Promise<boolean> {
    const res = await this.db
      .updateTable('messages')
      .set({ extra: JSON.stringify(extra) })
      .where('id', '=', id)
      .where('extra', 'like', '%"is_finalized":false%')
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** Deletes messages with their reactions and stored files (`fileIds`), in one transaction. */
  async deleteWithReactionsAndFiles(ids: string[], fileIds: string[]): Promise<void> {
    const purge = async (db: Kysely<DB>) => {
      await keepLastMessageIds(db, ids);
      await db.deleteFrom('reactions').where('message_id', 'in', ids).execute();
      if (fileIds.length) await db.deleteFrom('files').where('id', 'in', fileIds).execute();
      await db.deleteFrom('messages').where('id', 'in', ids).execute();
    };
    if (this.db.isTransaction) return purge(this.db);
    await this.db.transaction().execute((trx) => purge(trx));
  }

  /** Inserts a platform message (poll results, crossposts), which becomes its channel's last message. */
  async insertPlain(row: NewMessage): Promise<void> {
    await this.db.insertInto('messages').values(row).execute();
  }

  /** Messages holding a poll not yet finalized: id and `extra` (the poll clock's first load). */
  async withOpenPolls(): Promise<{ id: string; extra: string }[]> {
    const rows = await this.db.selectFrom('messages').select(['id', 'extra']).where('extra', 'like', '%"is_finalized":false%').execute();
    return rows.map((r) => ({ id: String(r.id), extra: String(r.extra) }));
  }

  /** How many messages a guild holds. */
  async countInGuild(guildId: string): Promise<number> {
    const total = await this.db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('guild_id', '=', guildId)
      .executeTakeFirst();
    return Number(total?.n ?? 0);
  }

  /** A guild search's candidates, newest first: the filters the database applies, ephemeral messages left out. */
  async search(guildId: string, q: MessageSearchQuery): Promise<MessageRecord[]> {
    let sel = this.db
      .selectFrom('messages')
      .selectAll()
      .where('guild_id', '=', guildId)
      .where('channel_id', 'in', q.channelIds)
      .where(sql<number>`flags & 64`, '=', 0);
    if (q.minId) sel = sel.where('id', '>', q.minId);
    if (q.maxId) sel = sel.where('id', '<', q.maxId);
    if (q.pinned !== undefined) sel = sel.where('pinned_at', q.pinned ? 'is not' : 'is', null);
    if (q.authorIds?.length) sel = sel.where('author_id', 'in', q.authorIds);
    if (q.mentionEveryone !== undefined) sel = sel.where('mention_everyone', '=', q.mentionEveryone ? 1 : 0);
    for (const t of q.terms) {
      const pattern = '%' + t.replace(/[\\%_]/g, (c) => '\\' + c) + '%';
      sel = sel.where(sql<boolean>`lower(content) like ${pattern} escape ${sql.lit('\\')}`);
    }
    return (await sel.orderBy('id', 'desc').limit(q.limit).execute()).map(toMessage);
  }

  /** Rows of a fixed statement: on the connection at once (SQLite), or in the open transaction of a unit of work. */
  private async fixedRows(q: FixedSql, params: readonly unknown[]): Promise<Record<string, any>[]> {
    if (!this.db.isTransaction) return readRows(this.store, q, params);
    return (await this.db.executeQuery<Record<string, any>>(compiledFor(this.store.dialect, q, params))).rows;
  }

  /** Overwrites a message's flags and `extra` (nothing else, no event). */
  async setFlagsAndExtra(id: string, flags: number, extra: Record<string, unknown>): Promise<void> {
    await this.db
      .updateTable('messages')
      .set({ flags, extra: JSON.stringify(extra) })
      .where('id', '=', id)
      .execute();
  }

  /** How many messages of a channel are pinned. */
  async countPinned(channelId: string): Promise<number> {
    const r = await this.db
      .selectFrom('messages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('channel_id', '=', channelId)
      .where('pinned_at', 'is not', null)
      .executeTakeFirst();
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
      const latest = await trx
        .selectFrom('messages')
        .select((eb) => eb.fn.max('pinned_at').as('t'))
        .where('channel_id', '=', channelId)
        .where('pinned_at', 'is not', null)
        .executeTakeFirst();
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
      await keepLastMessageIds(trx, [id]);
      await trx.deleteFrom('reactions').where('message_id', '=', id).execute();
      if (fileIds.length) await trx.deleteFrom('files').where('id', 'in', fileIds).execute();
      await trx.deleteFrom('messages').where('id', '=', id).execute();
    });
  }

  /** A channel's messages created at or after `since` (ms), newest first, at most `limit`. */
  async recentSince(channelId: string, since: number, limit: number): Promise<MessageRecord[]> {
    const rows = await this.db
      .selectFrom('messages')
      .selectAll()
      .where('channel_id', '=', channelId)
      .where('created_at', '>=', since)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
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
    const rows = await this.db
      .selectFrom('messages')
      .select(['id', 'channel_id'])
      .where('guild_id', '=', guildId)
      .where('author_id', 'in', authorIds)
      .where('created_at', '>=', since)
      .execute();
    return rows.map((r) => ({ id: String(r.id), channel_id: String(r.channel_id) }));
  }

  /** Deletes messages by id (their reactions go through ReactionsRepo.deleteOnMessages). */
  async deleteByIds(ids: string[]): Promise<void> {
    if (!ids.length) return;
    await atomically(this.db, async (trx) => {
      await keepLastMessageIds(trx, ids);
      await trx.deleteFrom('messages').where('id', 'in', ids).execute();
    });
  }

  /** The channel of a message marked with this app's id (its game DMs among them), or null: other messages are not the app's. */
  async channelOfAppMessage(messageId: string, applicationId: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('messages')
      .select('channel_id')
      .where('id', '=', messageId)
      .where('application_id', '=', applicationId)
      .executeTakeFirst();
    return row ? String(row.channel_id) : null;
  }
}

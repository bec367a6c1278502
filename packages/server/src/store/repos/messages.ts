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

const UPDATE_CHANNEL = fixedSql(
  'update "channels" set "last_message_id" = ? where "id" = ? and ("last_message_id" is null or "last_message_id" < ?)',
);
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
  return compiledFor(dialect, q, columns.map((c) => row[c]));
}

/** The PostgreSQL group commit of each store (one per pool). */
const pgCommits = new WeakMap<Store, PgGroupCommit>();

/** Messages: the hot write path (one commit for concurrent creates), pages, edits, deletes. */
export class MessagesRepo extends Repo {
  /**
   * Inserts one message with its files and moves its channel's last message forward (threads also count it), all or
   * nothing; concurrent calls share one commit (SQLite: one transaction, a savepoint each; PostgreSQL: one statement).
   * With `nonce`, claims (author, nonce) in the same transaction: when a live claim exists nothing is written and the
   * id of the message holding it is returned (enforce_nonce, exactly once across processes). Null when written.
   */
  async insert(row: NewMessage, opts: { channelType: number; files?: NewFile[]; nonce?: { authorId: string; nonce: string; since: number } }): Promise<string | null> {
    const files = opts.files ?? [];
    const dialect = this.store.dialect;
    if (dialect === 'postgres' && !opts.nonce && !this.db.isTransaction) {
      let commit = pgCommits.get(this.store);
      if (!commit) pgCommits.set(this.store, (commit = new PgGroupCommit(this.store.db)));
      await commit.submit({ row: row as Record<string, unknown>, files: files as unknown as Record<string, unknown>[] });
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
    statements.push(THREAD_TYPES.has(opts.channelType)
      ? compiledFor(dialect, UPDATE_THREAD, [row.id, row.id, row.channel_id])
      : compiledFor(dialect, UPDATE_CHANNEL, [row.id, row.channel_id, row.id]));
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
    const row = await this.db.selectFrom('messages').selectAll()
      .where('author_id', '=', authorId).where('nonce', '=', nonce as string).where('created_at', '>=', since)
      .orderBy('id', 'desc').limit(1).executeTakeFirst();
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
      out.push(...(await this.db.selectFrom('messages').selectAll().where('id', 'in', ids.slice(i, i + 500)).execute()).map(toMessage));
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
      for (const r of await this.db.selectFrom('messages').select(['id', 'author_id']).where('id', 'in', ids.slice(i, i + 500)).execute()) out.set(String(r.id), String(r.author_id));
    }
    return out;
  }

  /** When this author last posted in the channel after `since` (slowmode), or null. */
  async lastPostedAt(channelId: string, authorId: string, since: number): Promise<number | null> {
    const last = await this.db.selectFrom('messages').select('created_at')
      .where('channel_id', '=', channelId).where('author_id', '=', authorId).where('created_at', '>', since)
      .orderBy('created_at', 'desc').limit(1).executeTakeFirst();
    return last ? Number(last.created_at) : null;
  }

  /** One page of a channel's messages, ephemeral ones (flag 64) left out; in no particular order. */
  async page(channelId: string, q: MessagePageQuery): Promise<MessageRecord[]> {
    const base = () => this.db.selectFrom('messages').selectAll().where('channel_id', '=', channelId).where(sql<number>`flags & 64`, '=', 0);
    let rows;
    if (q.around) {
      const older = Math.floor(q.limit / 2);
      const [from, before] = await Promise.all([
        base().where('id', '>=', q.around).orderBy('id', 'asc').limit(q.limit - older).execute(),
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
      await db.updateTable('messages').set({
        content: e.content,
        embeds: JSON.stringify(e.embeds),
        components: JSON.stringify(e.components),
        attachments: JSON.stringify(e.attachments),
        flags: e.flags,
        mentions: JSON.stringify(e.mentions),
        mention_roles: JSON.stringify(e.mention_roles),
        mention_everyone: e.mention_everyone ? 1 : 0,
        edited_at: e.edited_at,
      }).where('id', '=', id).execute();
    };
    if (!files.add.length && !files.remove.length) return write(this.db);
    if (this.db.isTransaction) return write(this.db);
    await this.db.transaction().execute((trx) => write(trx));
  }

  /** Replaces a message's `extra` (rare fields: call, poll results). */
  async setExtra(id: string, extra: Record<string, unknown>): Promise<void> {
    await this.db.updateTable('messages').set({ extra: JSON.stringify(extra) }).where('id', '=', id).execute();
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

  /** Inserts a platform message and makes it its channel's last message, in one transaction (poll results). */
  async insertAsLast(row: NewMessage): Promise<void> {
    const write = async (db: Kysely<DB>) => {
      await db.insertInto('messages').values(row).execute();
      await db.updateTable('channels').set({ last_message_id: row.id }).where('id', '=', row.channel_id).execute();
    };
    if (this.db.isTransaction) return write(this.db);
    await this.db.transaction().execute((trx) => write(trx));
  }

  /** Messages holding a poll not yet finalized: id and `extra` (the poll clock's first load). */
  async withOpenPolls(): Promise<{ id: string; extra: string }[]> {
    const rows = await this.db.selectFrom('messages').select(['id', 'extra']).where('extra', 'like', '%"is_finalized":false%').execute();
    return rows.map((r) => ({ id: String(r.id), extra: String(r.extra) }));
  }

  /** How many messages a guild holds. */
  async countInGuild(guildId: string): Promise<number> {
    const total = await this.db.selectFrom('messages').select((eb) => eb.fn.countAll<number>().as('n')).where('guild_id', '=', guildId).executeTakeFirst();
    return Number(total?.n ?? 0);
  }

  /** A guild search's candidates, newest first: the filters the database applies, ephemeral messages left out. */
  async search(guildId: string, q: MessageSearchQuery): Promise<MessageRecord[]> {
    let sel = this.db.selectFrom('messages').selectAll().where('guild_id', '=', guildId).where('channel_id', 'in', q.channelIds).where(sql<number>`flags & 64`, '=', 0);
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
}

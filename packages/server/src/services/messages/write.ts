import type { Ctx } from '../context.js';
import type { ChannelRecord, MessageRecord, UserRecord } from '../../store/records.js';
import type { DB } from '../../store/schema.js';
import type { CompiledQuery, Insertable } from 'kysely';
import type { Dialect } from '../../store/db.js';
import { compiledFor, fixedSql, type FixedSql } from '../../store/fixed-sql.js';
import { writeAtomically } from '../../store/group-commit.js';
import { toMessage } from '../../store/repos/mappers.js';
import { routeFor, THREAD_TYPES } from './channel.js';
import { messageEventWire } from './view.js';

export type MessageRow = Insertable<DB['messages']>;

/** A message row with every column at its default; callers set what their message carries. */
export function messageRow(ctx: Ctx, ch: ChannelRecord, authorId: string, type: number): MessageRow {
  return {
    id: ctx.ids.next(), channel_id: ch.id, guild_id: ch.guild_id, author_id: authorId, webhook_id: null, application_id: null,
    type, content: '', tts: 0, mention_everyone: 0, mentions: '[]', mention_roles: '[]', attachments: '[]', embeds: '[]',
    components: '[]', sticker_items: null, flags: 0, nonce: null, pinned_at: null, edited_at: null, message_reference: null,
    extra: '{}', created_at: ctx.clock.now(),
  };
}

const UPDATE_CHANNEL = fixedSql(
  'update "channels" set "last_message_id" = ? where "id" = ? and ("last_message_id" is null or "last_message_id" < ?)',
);
const UPDATE_THREAD = fixedSql(
  'update "channels" set "last_message_id" = case when "last_message_id" is null or "last_message_id" < ? then ? else "last_message_id" end, ' +
    '"message_count" = "message_count" + 1, "total_message_sent" = "total_message_sent" + 1 where "id" = ?',
);

/**
 * The insert of a message row, by its columns: rows are built by messageRow, so one text serves nearly every call.
 * Undefined values leave their column out (its default), as Kysely's insert does.
 */
const inserts = new Map<string, FixedSql>();
function insertRow(dialect: Dialect, row: MessageRow): CompiledQuery {
  const columns = (Object.keys(row) as (keyof MessageRow)[]).filter((c) => row[c] !== undefined);
  const key = columns.join(',');
  let q = inserts.get(key);
  if (!q) {
    q = fixedSql(`insert into "messages" (${columns.map((c) => `"${c}"`).join(', ')}) values (${columns.map(() => '?').join(', ')})`);
    inserts.set(key, q);
  }
  return compiledFor(dialect, q, columns.map((c) => row[c]));
}

/**
 * Writes a message row (and its uploaded files) and moves the channel's last message forward, in one transaction
 * (on SQLite, the group commit's). Threads also count the message. Every path that creates a message row goes through
 * here. The last message only moves forward, so racing creates leave the newest one there.
 */
export async function writeMessageRow(ctx: Ctx, ch: ChannelRecord, row: MessageRow, files: Insertable<DB['files']>[] = []): Promise<void> {
  const dialect = ctx.store.dialect;
  const statements: CompiledQuery[] = [];
  if (files.length) statements.push(ctx.db.insertInto('files').values(files).compile());
  statements.push(insertRow(dialect, row));
  statements.push(THREAD_TYPES.has(ch.type)
    ? compiledFor(dialect, UPDATE_THREAD, [row.id, row.id, ch.id])
    : compiledFor(dialect, UPDATE_CHANNEL, [row.id, ch.id, row.id]));
  await writeAtomically(ctx.store, statements);
}

/**
 * Writes the row and publishes MESSAGE_CREATE. No rule is checked here: Create Message checks them first, and system
 * notices (AutoMod alerts, loading messages) are written by the platform itself. `out` narrows who hears the event;
 * `once` is the event's idempotency key (a nonce-enforced create's).
 */
export async function insertMessage(
  ctx: Ctx, ch: ChannelRecord, row: MessageRow,
  opts: { files?: Insertable<DB['files']>[]; authors?: UserRecord[]; out?: Ctx; once?: string } = {},
): Promise<{ record: MessageRecord; event: Record<string, unknown> }> {
  await writeMessageRow(ctx, ch, row, opts.files);
  const record = toMessage(row);
  const event = await messageEventWire(ctx, record, opts.authors);
  (opts.out ?? ctx).bus.publish({ t: 'MESSAGE_CREATE', d: event, ...routeFor(ch), ...(opts.once ? { once: opts.once } : {}) });
  return { record, event };
}

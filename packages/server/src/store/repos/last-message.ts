import { sql, type Kysely } from 'kysely';
import type { DB } from '../schema.js';

/*
 * A channel's last message id is the newer of its stored `last_message_id` and the id of its newest message: a create
 * never touches its channel's row. That row would otherwise be locked by every message until its commit is flushed, so
 * concurrent batches to one channel (from every worker and node) would queue on it one flush at a time. A delete
 * first stores the newest id, so the last message id never moves back (the platform's may name a deleted message).
 * Threads still write their row: they count their messages.
 */

/** The newest message's id of the "channels" row in scope, as SQL text. */
const NEWEST = '(select max("newest"."id") from "messages" as "newest" where "newest"."channel_id" = "channels"."id")';

/** A column of a channel row: its newest message's id (`newest_message_id`, read by toChannel). */
export const newestMessageId = sql.raw<string | null>(NEWEST).as('newest_message_id');

/** The same column, for fixed statements over "channels". */
export const NEWEST_MESSAGE_ID_SQL = `${NEWEST} as "newest_message_id"`;

/** Channel rows with their newest message's id. */
export const selectChannels = (db: Kysely<DB>) => db.selectFrom('channels').selectAll('channels').select(newestMessageId);

/** Before messages are deleted: stores their channels' newest message id, so deleting the newest keeps it as the last. */
export async function keepLastMessageIds(db: Kysely<DB>, messageIds: readonly string[]): Promise<void> {
  if (!messageIds.length) return;
  const newest = sql.raw(NEWEST);
  await sql`update "channels" set "last_message_id" = ${newest}
    where "id" in (select "channel_id" from "messages" where "id" in (${sql.join(messageIds)}))
    and ("last_message_id" is null or "last_message_id" < ${newest})`.execute(db);
}

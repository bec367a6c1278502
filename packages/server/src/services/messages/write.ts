import type { Ctx } from '../../context.js';
import type { ChannelRecord } from '../../store/records.js';
import type { DB } from '../../store/schema.js';
import type { Insertable } from 'kysely';
import { THREAD_TYPES } from './channel.js';

/**
 * Writes a message row (and its uploaded files) and moves the channel's last message, in one transaction. Threads
 * also count the message. Every path that creates a message row goes through here.
 */
export async function writeMessageRow(ctx: Ctx, ch: ChannelRecord, row: Insertable<DB['messages']>, files: Insertable<DB['files']>[] = []): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    if (files.length) await trx.insertInto('files').values(files).execute();
    await trx.insertInto('messages').values(row).execute();
    await trx.updateTable('channels')
      .set((eb) => (THREAD_TYPES.has(ch.type)
        ? { last_message_id: row.id, message_count: eb('message_count', '+', 1), total_message_sent: eb('total_message_sent', '+', 1) }
        : { last_message_id: row.id }))
      .where('id', '=', ch.id).execute();
  });
}

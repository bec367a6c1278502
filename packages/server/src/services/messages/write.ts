import type { Ctx } from '../context.js';
import type { ChannelRecord, MessageRecord, UserRecord } from '../../store/records.js';
import type { DB } from '../../store/schema.js';
import type { Insertable } from 'kysely';
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

/**
 * Writes a message row (and its uploaded files) and moves the channel's last message, in one transaction. Threads
 * also count the message. Every path that creates a message row goes through here.
 */
export async function writeMessageRow(ctx: Ctx, ch: ChannelRecord, row: MessageRow, files: Insertable<DB['files']>[] = []): Promise<void> {
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

/**
 * Writes the row and publishes MESSAGE_CREATE. No rule is checked here: Create Message checks them first, and system
 * notices (AutoMod alerts, loading messages) are written by the platform itself. `out` narrows who hears the event.
 */
export async function insertMessage(
  ctx: Ctx, ch: ChannelRecord, row: MessageRow,
  opts: { files?: Insertable<DB['files']>[]; authors?: UserRecord[]; out?: Ctx } = {},
): Promise<{ record: MessageRecord; event: Record<string, unknown> }> {
  await writeMessageRow(ctx, ch, row, opts.files);
  const record = toMessage(row);
  const event = await messageEventWire(ctx, record, opts.authors);
  (opts.out ?? ctx).bus.publish({ t: 'MESSAGE_CREATE', d: event, ...routeFor(ch) });
  return { record, event };
}

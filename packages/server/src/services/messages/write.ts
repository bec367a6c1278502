import type { Ctx } from '../context.js';
import type { ChannelRecord, MessageRecord, UserRecord } from '../../store/records.js';
import type { NewFile, NewMessage } from '../../store/repos/messages.js';
import { toMessage } from '../../store/repos/mappers.js';
import { routeFor } from './channel.js';
import { messageEventWire } from './view.js';
import type { AccordMessage } from '../../wire/extensions.js';

export type MessageRow = NewMessage;

/** A message row with every column at its default; callers set what their message carries. */
export function messageRow(ctx: Ctx, ch: ChannelRecord, authorId: string, type: number): MessageRow {
  return {
    id: ctx.ids.next(),
    channel_id: ch.id,
    guild_id: ch.guild_id,
    author_id: authorId,
    webhook_id: null,
    application_id: null,
    type,
    content: '',
    tts: 0,
    mention_everyone: 0,
    mentions: '[]',
    mention_roles: '[]',
    attachments: '[]',
    embeds: '[]',
    components: '[]',
    sticker_items: null,
    flags: 0,
    nonce: null,
    pinned_at: null,
    edited_at: null,
    message_reference: null,
    extra: '{}',
    created_at: ctx.clock.now(),
  };
}

/** An enforced nonce's claim: the author it belongs to, and the start of its window. */
export interface NonceClaim {
  authorId: string;
  nonce: string;
  since: number;
}

/**
 * Writes the row and publishes MESSAGE_CREATE. No rule is checked here: Create Message checks them first, and system
 * notices (AutoMod alerts, loading messages) are written by the platform itself. `out` narrows who hears the event;
 * `once` is the event's idempotency key (a nonce-enforced create's). The row and its files are written together
 * (MessagesRepo.insert: concurrent creates share one commit).
 */
export async function insertMessage(
  ctx: Ctx,
  ch: ChannelRecord,
  row: MessageRow,
  opts: { files?: NewFile[]; authors?: UserRecord[]; out?: Ctx; once?: string } = {},
): Promise<{ record: MessageRecord; event: AccordMessage }> {
  await ctx.repos.messages.insert(row, { channelType: ch.type, files: opts.files });
  return published(ctx, ch, row, opts);
}

/**
 * insertMessage for a create with an enforced nonce: the (author, nonce) claim is written with the message, and a
 * create that lost the claim to an earlier one writes nothing and returns `{ earlier }`, the id of the message holding it.
 */
export async function insertMessageOnce(
  ctx: Ctx,
  ch: ChannelRecord,
  row: MessageRow,
  nonce: NonceClaim,
  opts: { files?: NewFile[]; authors?: UserRecord[]; out?: Ctx; once?: string } = {},
): Promise<{ record: MessageRecord; event: AccordMessage } | { earlier: string }> {
  const earlier = await ctx.repos.messages.insert(row, { channelType: ch.type, files: opts.files, nonce });
  if (earlier) return { earlier };
  return published(ctx, ch, row, opts);
}

async function published(ctx: Ctx, ch: ChannelRecord, row: MessageRow, opts: { authors?: UserRecord[]; out?: Ctx; once?: string }) {
  const record = toMessage(row);
  const event = await messageEventWire(ctx, record, opts.authors);
  (opts.out ?? ctx).bus.publish({ t: 'MESSAGE_CREATE', d: event, ...routeFor(ch), ...(opts.once ? { once: opts.once } : {}) });
  return { record, event };
}

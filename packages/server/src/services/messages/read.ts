import type { Ctx } from '../context.js';
import { Errors } from '../../core/errors.js';
import { P } from '@accord/protocol';
import type { ChannelRecord, MessageRecord } from '../../store/records.js';
import { channelAccess, loadMessage } from './channel.js';

export interface ListQuery {
  before?: string;
  after?: string;
  around?: string;
  limit?: number;
}

const newestFirst = (a: MessageRecord, b: MessageRecord) => (BigInt(b.id) > BigInt(a.id) ? 1 : BigInt(b.id) < BigInt(a.id) ? -1 : 0);

/**
 * A page of a channel's messages, newest first. `around` centres the page on an id (half before, the rest from it on);
 * `after` takes the oldest messages past the id. Without READ_MESSAGE_HISTORY the list is empty, as on the platform.
 */
export async function listMessages(ctx: Ctx, ch: ChannelRecord, userId: string, q: ListQuery): Promise<MessageRecord[]> {
  const perms = await channelAccess(ctx, ch, userId);
  if (!ctx.access.hasPerm(perms, P.READ_MESSAGE_HISTORY)) return [];
  // Ephemeral interaction responses (flag 64) belong to their invoker's client only: channel routes never list them.
  const rows = await ctx.repos.messages.page(ch.id, { before: q.before, after: q.after, around: q.around, limit: q.limit ?? 50 });
  return rows.sort(newestFirst);
}

/** One message; needs READ_MESSAGE_HISTORY (50013) and belongs to the channel (10008). */
export async function getMessage(ctx: Ctx, ch: ChannelRecord, userId: string, messageId: string): Promise<MessageRecord> {
  const perms = await channelAccess(ctx, ch, userId);
  const m = await loadMessage(ctx, ch.id, messageId);
  if (m.flags & 64) throw Errors.unknownMessage();
  if (!ctx.access.hasPerm(perms, P.READ_MESSAGE_HISTORY)) throw Errors.missingPermissions();
  return m;
}

import type { Ctx } from '../context.js';
import { Errors } from '../../core/errors.js';
import { P } from '@accord/protocol';
import type { ChannelRecord, MessageRecord, UserRecord } from '../../store/records.js';
import { channelAccess, guildField, loadMessage, routeFor } from '../messages/channel.js';
import { createMessage } from '../messages/create.js';
import { messageEventWire, messagesWire } from '../messages/view.js';
import { AuditLogEvent, writeAuditLog } from '../moderation/audit-log.js';

const MAX_PINS = 250;
/** Only messages people send can be pinned, not system notices. */
const PINNABLE_TYPES = new Set([0, 19, 20, 23]);

const iso = (ms: number | null) => (ms == null ? null : new Date(ms).toISOString());

async function requirePinPermission(ctx: Ctx, ch: ChannelRecord, userId: string): Promise<void> {
  const perms = await channelAccess(ctx, ch, userId);
  if (!ctx.access.hasPerm(perms, P.PIN_MESSAGES)) throw Errors.missingPermissions();
}

function publishPinChange(ctx: Ctx, ch: ChannelRecord, lastPin: number | null, message: Record<string, unknown>): void {
  ctx.bus.publish({ t: 'MESSAGE_UPDATE', d: message, ...routeFor(ch) });
  ctx.bus.publish({ t: 'CHANNEL_PINS_UPDATE', d: { ...guildField(ch), channel_id: ch.id, last_pin_timestamp: iso(lastPin) }, ...routeFor(ch) });
}

/**
 * Pins a message (PIN_MESSAGES; at most 250 per channel). Posts a CHANNEL_PINNED_MESSAGE notice and publishes
 * MESSAGE_UPDATE and CHANNEL_PINS_UPDATE. Pinning a pinned message changes nothing.
 */
export async function pinMessage(ctx: Ctx, ch: ChannelRecord, actor: UserRecord, messageId: string): Promise<void> {
  await requirePinPermission(ctx, ch, actor.id);
  const m = await loadMessage(ctx, ch.id, messageId);
  if (!PINNABLE_TYPES.has(m.type)) throw Errors.systemMessage();
  if (m.pinned_at != null) return;
  if ((await ctx.repos.messages.countPinned(ch.id)) >= MAX_PINS) throw Errors.maxPins();
  const now = ctx.clock.now();
  if (!(await ctx.repos.messages.pin(ch.id, m.id, now))) return;
  const pinned = { ...m, pinned_at: now };
  publishPinChange(ctx, ch, now, await messageEventWire(ctx, pinned));
  if (ch.guild_id)
    await writeAuditLog(ctx, {
      guildId: ch.guild_id,
      userId: actor.id,
      actionType: AuditLogEvent.MESSAGE_PIN,
      targetId: m.author_id,
      options: { channel_id: ch.id, message_id: m.id },
    });
  await createMessage(ctx, {
    channel: { ...ch, last_pin_timestamp: now },
    author: actor,
    files: [],
    type: 6,
    skipPermissionChecks: true,
    body: { content: '', message_reference: { message_id: m.id, fail_if_not_exists: false } },
  });
}

/** Unpins a message (PIN_MESSAGES); unpinning a message that is not pinned changes nothing. */
export async function unpinMessage(ctx: Ctx, ch: ChannelRecord, actor: UserRecord, messageId: string): Promise<void> {
  await requirePinPermission(ctx, ch, actor.id);
  const m = await loadMessage(ctx, ch.id, messageId);
  if (m.pinned_at == null) return;
  const lastPin = await ctx.repos.messages.unpin(ch.id, m.id);
  const unpinned = { ...m, pinned_at: null };
  publishPinChange(ctx, ch, lastPin, await messageEventWire(ctx, unpinned));
  if (ch.guild_id)
    await writeAuditLog(ctx, {
      guildId: ch.guild_id,
      userId: actor.id,
      actionType: AuditLogEvent.MESSAGE_UNPIN,
      targetId: m.author_id,
      options: { channel_id: ch.id, message_id: m.id },
    });
}

/** Pinned messages, most recently pinned first, pinned before `before` (ms). Empty without READ_MESSAGE_HISTORY. */
async function pinnedRecords(ctx: Ctx, ch: ChannelRecord, userId: string, before: number | undefined, limit: number): Promise<MessageRecord[]> {
  const perms = await channelAccess(ctx, ch, userId);
  if (!ctx.access.hasPerm(perms, P.READ_MESSAGE_HISTORY)) return [];
  return ctx.repos.messages.pinnedPage(ch.id, before, limit);
}

/** GET /channels/{id}/messages/pins: `{items: [{pinned_at, message}], has_more}`. */
export async function listPins(ctx: Ctx, ch: ChannelRecord, userId: string, q: { before?: number; limit?: number }) {
  const limit = q.limit ?? 50;
  const records = await pinnedRecords(ctx, ch, userId, q.before, limit + 1);
  const page = records.slice(0, limit);
  const wire = await messagesWire(ctx, page, { viewerId: userId, reactions: true });
  return { items: page.map((m, i) => ({ pinned_at: iso(m.pinned_at), message: wire[i] })), has_more: records.length > limit };
}

/** GET /channels/{id}/pins (deprecated): every pinned message. */
export async function listPinsLegacy(ctx: Ctx, ch: ChannelRecord, userId: string) {
  const records = await pinnedRecords(ctx, ch, userId, undefined, MAX_PINS);
  return messagesWire(ctx, records, { viewerId: userId, reactions: true });
}

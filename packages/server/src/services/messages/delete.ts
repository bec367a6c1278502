import type { Ctx } from '../context.js';
import { Errors } from '../../core/errors.js';
import { P, snowflakeTime } from '@accord/protocol';
import type { ChannelRecord, MessageRecord } from '../../store/records.js';
import { channelAccess, DM_TYPES, guildField, loadMessage, routeFor } from './channel.js';
import { AuditLogEvent, writeAuditLog } from '../moderation/audit-log.js';

/** System messages nobody may delete (recipient changes, calls, renames, thread starters). */
const UNDELETABLE_TYPES = new Set([1, 2, 3, 4, 5, 21]);
const BULK_MAX_AGE_MS = 14 * 86400_000;

/** Removes messages with their reactions and stored files. */
async function purge(ctx: Ctx, messages: MessageRecord[]): Promise<void> {
  await ctx.repos.messages.deleteWithReactionsAndFiles(
    messages.map((m) => m.id),
    messages.flatMap((m) => m.attachments.map((a) => a.id)),
  );
}

/**
 * Deletes one message: the author may delete their own; anyone else needs MANAGE_MESSAGES in a guild channel (in DMs
 * never, 50003). Publishes MESSAGE_DELETE.
 */
export async function deleteMessage(ctx: Ctx, ch: ChannelRecord, userId: string, messageId: string): Promise<void> {
  const perms = await channelAccess(ctx, ch, userId);
  const m = await loadMessage(ctx, ch.id, messageId);
  if (UNDELETABLE_TYPES.has(m.type)) throw Errors.systemMessage();
  const own = m.author_id === userId && !m.webhook_id;
  if (!own || m.type === 24) {
    if (DM_TYPES.has(ch.type)) throw Errors.cannotDM();
    if (!ctx.access.hasPerm(perms, P.MANAGE_MESSAGES)) throw Errors.missingPermissions();
  }
  await purge(ctx, [m]);
  ctx.bus.publish({ t: 'MESSAGE_DELETE', d: { id: m.id, channel_id: ch.id, ...guildField(ch) }, ...routeFor(ch) });
  if (ch.guild_id && m.author_id !== userId)
    await writeAuditLog(ctx, {
      guildId: ch.guild_id,
      userId,
      actionType: AuditLogEvent.MESSAGE_DELETE,
      targetId: m.author_id,
      options: { channel_id: ch.id, count: 1 },
    });
}

/**
 * Deletes 2–100 messages of a guild channel (MANAGE_MESSAGES). Ids must be under 14 days old by the server clock;
 * unknown ids and undeletable system messages are skipped. Publishes MESSAGE_DELETE_BULK with the ids removed.
 */
export async function bulkDeleteMessages(ctx: Ctx, ch: ChannelRecord, userId: string, ids: string[]): Promise<void> {
  if (DM_TYPES.has(ch.type)) throw Errors.cannotDM();
  await channelAccess(ctx, ch, userId, P.MANAGE_MESSAGES);
  const unique = [...new Set(ids)];
  if (unique.length < 2 || unique.length > 100) throw Errors.bulkDeleteCount();
  const oldest = ctx.clock.now() - BULK_MAX_AGE_MS;
  if (unique.some((id) => snowflakeTime(id) < oldest)) throw Errors.bulkDeleteTooOld();
  const rows = await ctx.repos.messages.ofChannelByIds(ch.id, unique);
  const doomed = rows.filter((m) => !UNDELETABLE_TYPES.has(m.type));
  if (!doomed.length) return;
  await purge(ctx, doomed);
  const deleted = new Set(doomed.map((m) => m.id));
  ctx.bus.publish({ t: 'MESSAGE_DELETE_BULK', d: { ids: unique.filter((id) => deleted.has(id)), channel_id: ch.id, ...guildField(ch) }, ...routeFor(ch) });
  if (ch.guild_id)
    await writeAuditLog(ctx, {
      guildId: ch.guild_id,
      userId,
      actionType: AuditLogEvent.MESSAGE_BULK_DELETE,
      targetId: ch.id,
      options: { count: deleted.size },
    });
}

import { z } from 'zod';
import type { Actor, Ctx } from '../../context.js';
import { Errors } from '../../../core/errors.js';
import { isId } from '../../../core/ids.js';
import { toMessage } from '../../../store/repos/mappers.js';
import type { ChannelRecord, MessageRecord } from '../../../store/records.js';
import { openDm } from '../../channels/dms.js';
import { createMessage } from '../../messages/create.js';
import { deleteMessage } from '../../messages/delete.js';
import { editMessage } from '../../messages/edit.js';
import { messagesWire, messageWire } from '../../messages/view.js';
import { enqueueWebhookEvent } from '../../apps/webhook-events/outbox.js';
import { getUser } from '../../identity/users.js';
import { getGrant } from '../../identity/oauth2/grants.js';
import { areFriends, blockedBetween } from '../relationships/model.js';
import { stringMap } from '../lobbies/model.js';
import { limitCommunication } from '../sdk/limits.js';

/**
 * Game DMs: direct messages between players, sent from a game through the SDK (a Bearer token of the app). They are
 * ordinary DM messages (the web client shows them too) marked with the app's id and optional `metadata`; their
 * history through the SDK is the newest 200 of the last 72 hours. The app hears of them as GAME_DIRECT_MESSAGE_CREATE,
 * _UPDATE and _DELETE webhook events; its moderation metadata for a message (PUT /partner-sdk/dms/…) is kept per app
 * and fires nothing.
 *
 * Who may DM whom (the SDK's rule, reference/social-sdk.md): not when either blocked the other; otherwise friends
 * (Discord or this game's), two players of the game, or users who already have a DM.
 */

export const HISTORY_LIMIT = 200;
export const HISTORY_WINDOW_MS = 72 * 3600_000;

export const GameDmBody = z.object({ content: z.string().min(1).max(2000), metadata: stringMap(25, 1024).nullable().optional() });
export const GameDmEdit = z.object({ content: z.string().min(1).max(2000) });
export const HistoryQuery = z.object({
  limit: z.preprocess((v) => (v === undefined || v === '' ? undefined : Number(v)), z.number().int().min(1).max(HISTORY_LIMIT).optional()),
});

function appOf(actor: Actor): string {
  if (actor.kind !== 'bearer' || !actor.applicationId) throw Errors.unauthorized();
  return actor.applicationId;
}

async function existingDm(ctx: Ctx, a: string, b: string): Promise<ChannelRecord | null> {
  return ctx.repos.channels.dmByKey([a, b].sort().join(':'));
}

async function mayDm(ctx: Ctx, appId: string, me: string, other: string): Promise<ChannelRecord | null> {
  if (await blockedBetween(ctx, me, other)) throw Errors.cannotSendToUser();
  const dm = await existingDm(ctx, me, other);
  if (dm) return dm;
  if (await areFriends(ctx, me, other, appId)) return null;
  if ((await getGrant(ctx, appId, me)) && (await getGrant(ctx, appId, other))) return null;
  throw Errors.cannotSendToUser();
}

/** The event data: the message with its channel (recipients), as the platform sends game DM events. */
async function eventData(ctx: Ctx, ch: ChannelRecord, m: MessageRecord) {
  const msg = await messageWire(ctx, m, null);
  return { ...msg, channel: { id: ch.id, type: ch.type, recipients: ch.recipients ?? [] } };
}

const webhook = (ctx: Ctx, appId: string, type: string, data: unknown) =>
  void enqueueWebhookEvent(ctx, appId, type, data).catch((err) => console.error('[game-dms] webhook event', type, err));

/** POST /users/@me/dms/{user_id}/messages: a game DM (≤ 2000 characters, optional metadata). */
export async function sendGameDm(ctx: Ctx, actor: Actor, recipientId: string, body: z.infer<typeof GameDmBody>) {
  const appId = appOf(actor);
  if (!isId(recipientId) || recipientId === actor.user.id) throw Errors.unknownUser();
  const other = await getUser(ctx, recipientId);
  if (!other || other.bot) throw Errors.unknownUser();
  await limitCommunication(ctx, appId, 'message');
  const ch = (await mayDm(ctx, appId, actor.user.id, recipientId)) ?? (await openDm(ctx, { id: actor.user.id, bot: false }, recipientId));
  const m = await createMessage(ctx, {
    channel: ch,
    author: actor.user,
    files: [],
    applicationId: appId,
    body: { content: body.content, allowed_mentions: { parse: [] } },
    extra: body.metadata ? { metadata: body.metadata } : {},
  });
  const data = await eventData(ctx, ch, m);
  webhook(ctx, appId, 'GAME_DIRECT_MESSAGE_CREATE', data);
  return data;
}

async function ownDmMessage(ctx: Ctx, actor: Actor, recipientId: string, messageId: string) {
  if (!isId(recipientId) || !isId(messageId)) throw Errors.unknownMessage();
  const ch = await existingDm(ctx, actor.user.id, recipientId);
  if (!ch) throw Errors.unknownChannel();
  return ch;
}

/** PATCH /users/@me/dms/{user_id}/messages/{message_id}: the author edits a game DM. */
export async function editGameDm(ctx: Ctx, actor: Actor, recipientId: string, messageId: string, content: string) {
  const appId = appOf(actor);
  const ch = await ownDmMessage(ctx, actor, recipientId, messageId);
  const m = await editMessage(ctx, { channel: ch, editor: actor.user, messageId, body: { content }, files: [] });
  const data = await eventData(ctx, ch, m);
  if (m.application_id === appId) webhook(ctx, appId, 'GAME_DIRECT_MESSAGE_UPDATE', data);
  return data;
}

/** DELETE /users/@me/dms/{user_id}/messages/{message_id}: the author deletes a game DM. */
export async function deleteGameDm(ctx: Ctx, actor: Actor, recipientId: string, messageId: string): Promise<void> {
  const appId = appOf(actor);
  const ch = await ownDmMessage(ctx, actor, recipientId, messageId);
  const row = await ctx.repos.messages.inChannel(ch.id, messageId);
  await deleteMessage(ctx, ch, actor.user.id, messageId);
  if (row && String(row.application_id ?? '') === appId) webhook(ctx, appId, 'GAME_DIRECT_MESSAGE_DELETE', { id: messageId, channel_id: ch.id });
}

/** GET /users/@me/dms/{user_id}/messages?limit=1..200: newest first, the last 72 hours (404 10003 without a DM). */
export async function gameDmHistory(ctx: Ctx, actor: Actor, recipientId: string, limit = 50) {
  appOf(actor);
  if (!isId(recipientId)) throw Errors.unknownChannel();
  const ch = await existingDm(ctx, actor.user.id, recipientId);
  if (!ch) throw Errors.unknownChannel();
  const since = ctx.clock.now() - HISTORY_WINDOW_MS;
  const records = await ctx.repos.messages.recentSince(ch.id, since, Math.min(limit, HISTORY_LIMIT));
  return messagesWire(ctx, records, { viewerId: actor.user.id });
}

/** GET /users/@me/dms: the SDK's GetUserMessageSummaries (each DM partner and the last message id). */
export async function gameDmSummaries(ctx: Ctx, actor: Actor) {
  appOf(actor);
  const dms = (await ctx.repos.channels.dmsOf(actor.user.id)).filter((c) => c.type === 1);
  return dms
    .map((c) => ({ recipients: c.recipients ?? [], last: c.last_message_id }))
    .filter((r) => r.recipients.includes(actor.user.id) && r.last)
    .map((r) => ({ user_id: r.recipients.find((u) => u !== actor.user.id) ?? actor.user.id, last_message_id: r.last! }));
}

/**
 * PUT /partner-sdk/dms/{user_id_1}/{user_id_2}/messages/{message_id}/moderation-metadata (the app's Bot token): the
 * app's own moderation metadata for a DM message between the two users (≤ 5 keys, values ≤ 2000). No event.
 * Ownership before existence: only a message of the calling app's game DMs between exactly these two users is
 * found; everything else (another app's or an ordinary DM message, no such message, no DM between the two) is the
 * same 404 10008, so the answer never tells whether a DM or a message exists.
 */
export async function setDmModerationMetadata(
  ctx: Ctx,
  appId: string,
  u1: string,
  u2: string,
  messageId: string,
  metadata: Record<string, string>,
): Promise<void> {
  if (![u1, u2, messageId].every(isId) || u1 === u2) throw Errors.unknownMessage();
  const channelId = await ctx.repos.messages.channelOfAppMessage(messageId, appId);
  const ch = channelId ? await ctx.repos.channels.byId(channelId) : null;
  const between = new Set(ch?.recipients ?? []);
  if (!ch || ch.type !== 1 || between.size !== 2 || !between.has(u1) || !between.has(u2)) throw Errors.unknownMessage();
  await ctx.repos.social.setDmModerationMetadata(messageId, appId, metadata);
}

/** The app's moderation metadata of a message, or null. */
export async function dmModerationMetadata(ctx: Ctx, appId: string, messageId: string): Promise<Record<string, string> | null> {
  return ctx.repos.social.dmModerationMetadata(messageId, appId);
}

/** A merged provisional account's DMs become the platform account's (messages join an existing DM when there is one). */
export async function moveDirectMessages(ctx: Ctx, from: string, to: string): Promise<void> {
  const rows = (await ctx.repos.channels.dmsOf(from)).filter((c) => c.type === 1);
  for (const ch of rows) {
    const recipients = ch.recipients ?? [];
    if (!recipients.includes(from)) continue;
    const other = recipients.find((u) => u !== from) ?? to;
    if (other === to) continue;
    const target = await existingDm(ctx, to, other);
    if (target) {
      await ctx.repos.channels.mergeDmInto(ch.id, target.id);
    } else {
      await ctx.repos.channels.setDmRecipients(ch.id, [to, other], [to, other].sort().join(':'));
    }
  }
  await ctx.repos.messages.reassignDmAuthor(from, to);
}

export { toMessage };

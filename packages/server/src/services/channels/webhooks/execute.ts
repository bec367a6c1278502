import crypto from 'node:crypto';
import { z } from 'zod';
import type { Ctx } from '../../context.js';
import { ApiError, Errors } from '../../../core/errors.js';
import { isSnowflake } from '@accord/protocol';
import type { UploadedFile } from '../../../core/uploads.js';
import { parseBody, qBool, snowflake, toFormError } from '../../../core/validation.js';
import type { ChannelRecord, MessageRecord, UserRecord, WebhookRecord } from '../../../store/records.js';
import { createMessage } from '../../messages/create.js';
import { editMessage } from '../../messages/edit.js';
import { guildField, routeFor } from '../../messages/channel.js';
import { MessageCreateBody, MessageEditBody } from '../../messages/schema.js';
import { messageWire } from '../../messages/view.js';
import { WebhookName, requireWebhookByToken } from './lookup.js';

/**
 * Executing a webhook and managing the messages it sent. Webhook messages have no user author: the webhook is the
 * author (its id, the name and avatar in effect at send time). The token never reaches a message or an event.
 */

const ExecuteQuery = z.object({ wait: qBool, thread_id: snowflake.optional(), with_components: qBool });
const MessageQuery = z.object({ thread_id: snowflake.optional() });

const WebhookFields = z.object({
  username: WebhookName.nullish(),
  avatar_url: z
    .string()
    .max(2048)
    .regex(/^https?:\/\//i, { message: 'Not a well formed URL.' })
    .nullish(),
  thread_name: z.string().min(1).max(100).nullish(),
  applied_tags: z.array(snowflake).max(5).nullish(),
});

const onlyForums = () => new ApiError(400, 220003, 'Webhooks can only create threads in forum channels');
const forumNeedsThread = () => new ApiError(400, 220001, 'Webhooks posted to forum channels must have a thread_name or thread_id');
const forumBoth = () => new ApiError(400, 220002, 'Webhooks posted to forum channels cannot have both a thread_name and thread_id');

/** Validates the message fields and the webhook fields together, so one 50035 lists every problem. */
function parseExecuteBody(body: unknown) {
  const m = MessageCreateBody.safeParse(body);
  const w = WebhookFields.safeParse(body);
  if (m.success && w.success) return { message: m.data, hook: w.data };
  throw toFormError([...(m.success ? [] : m.error.issues), ...(w.success ? [] : w.error.issues)], body);
}

/** A stand-in user for the services that take an author: it carries the webhook's id and name and is never stored. */
function webhookUser(w: WebhookRecord, name: string, avatar: string | null): UserRecord {
  return {
    id: w.id,
    username: name,
    discriminator: '0000',
    global_name: null,
    avatar,
    banner: null,
    accent_color: null,
    bio: '',
    email: null,
    verified: true,
    bot: true,
    system: false,
    flags: 0,
    premium_type: 0,
    primary_guild: null,
    created_at: w.created_at,
  };
}

async function loadChannelRecord(ctx: Ctx, id: string): Promise<ChannelRecord | null> {
  return ctx.repos.channels.byId(id);
}

/** The channel a webhook posts to: its own, or (with `thread_id`) one of that channel's threads. */
async function targetChannel(ctx: Ctx, w: WebhookRecord, threadId: string | undefined): Promise<ChannelRecord> {
  const own = await loadChannelRecord(ctx, w.channel_id);
  if (!own) throw Errors.unknownChannel();
  if (!threadId) return own;
  const thread = await loadChannelRecord(ctx, threadId);
  if (!thread || ![10, 11, 12].includes(thread.type) || thread.parent_id !== w.channel_id) throw Errors.unknownChannel();
  return thread;
}

/** POST /webhooks/{id}/{token}: `wait` returns the message, else null (204). */
export async function executeWebhook(ctx: Ctx, webhookId: string, token: string, query: unknown, body: unknown, files: UploadedFile[]) {
  const w = await requireWebhookByToken(ctx, webhookId, token);
  const q = parseBody(ExecuteQuery, query);
  const { message, hook } = parseExecuteBody(body);
  const own = await loadChannelRecord(ctx, w.channel_id);
  if (!own) throw Errors.unknownChannel();
  const forum = own.type === 15 || own.type === 16;
  if (hook.thread_name && !forum) throw onlyForums();
  if (forum) {
    if (hook.thread_name && q.thread_id) throw forumBoth();
    if (!hook.thread_name && !q.thread_id) throw forumNeedsThread();
    // Forum posts by webhooks (thread_name) are not supported yet: they need the forum post service.
    if (hook.thread_name) throw onlyForums();
  }
  const ch = await targetChannel(ctx, w, q.thread_id);
  const name = hook.username ?? w.name;
  const avatar = hook.avatar_url ? crypto.createHash('md5').update(hook.avatar_url).digest('hex') : w.avatar;
  const record = await createMessage(ctx, {
    channel: ch,
    author: webhookUser(w, name, avatar),
    body: message,
    files,
    webhook: { id: w.id, name, avatar },
    applicationId: null,
    skipPermissionChecks: true,
  });
  return q.wait ? messageWire(ctx, record, null) : null;
}

/** A message this webhook sent: 10008 for malformed ids, other authors, and other threads than `thread_id`. */
async function requireWebhookMessage(
  ctx: Ctx,
  w: WebhookRecord,
  messageId: string,
  threadId: string | undefined,
): Promise<{ message: MessageRecord; channel: ChannelRecord }> {
  if (!isSnowflake(messageId)) throw Errors.unknownMessage();
  const message = await ctx.repos.messages.ofWebhook(w.id, messageId);
  if (!message) throw Errors.unknownMessage();
  if (threadId && message.channel_id !== threadId) throw Errors.unknownMessage();
  const channel = await loadChannelRecord(ctx, message.channel_id);
  if (!channel) throw Errors.unknownMessage();
  return { message, channel };
}

/** GET /webhooks/{id}/{token}/messages/{message_id}. */
export async function getWebhookMessage(ctx: Ctx, webhookId: string, token: string, messageId: string, query: unknown) {
  const w = await requireWebhookByToken(ctx, webhookId, token);
  const q = parseBody(MessageQuery, query);
  const { message } = await requireWebhookMessage(ctx, w, messageId, q.thread_id);
  return messageWire(ctx, message, null);
}

/** PATCH /webhooks/{id}/{token}/messages/{message_id}. */
export async function editWebhookMessage(ctx: Ctx, webhookId: string, token: string, messageId: string, query: unknown, body: unknown, files: UploadedFile[]) {
  const w = await requireWebhookByToken(ctx, webhookId, token);
  const q = parseBody(MessageQuery, query);
  const b = parseBody(MessageEditBody, body);
  const { message, channel } = await requireWebhookMessage(ctx, w, messageId, q.thread_id);
  const next = await editMessage(ctx, {
    channel,
    editor: webhookUser(w, message.extra.username ?? w.name, message.extra.avatar ?? w.avatar),
    messageId: message.id,
    body: b,
    files,
    skipPermissionChecks: true,
  });
  return messageWire(ctx, next, null);
}

/** DELETE /webhooks/{id}/{token}/messages/{message_id}: removes the message with its reactions and files. */
export async function deleteWebhookMessage(ctx: Ctx, webhookId: string, token: string, messageId: string, query: unknown): Promise<void> {
  const w = await requireWebhookByToken(ctx, webhookId, token);
  const q = parseBody(MessageQuery, query);
  const { message, channel } = await requireWebhookMessage(ctx, w, messageId, q.thread_id);
  const fileIds = message.attachments.map((a) => a.id).filter(isSnowflake);
  await ctx.repos.messages.deleteWithFiles(message.id, fileIds);
  ctx.bus.publish({ t: 'MESSAGE_DELETE', d: { id: message.id, channel_id: channel.id, ...guildField(channel) }, ...routeFor(channel) });
}

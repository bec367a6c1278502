import type { Ctx } from '../../context.js';
import type { BusEvent, EventBus } from '../../../bus/bus.js';
import { fieldError } from '../../../core/errors.js';
import { isSnowflake } from '@accord/protocol';
import type { UploadedFile } from '../../../core/uploads.js';
import type { ApplicationRecord, ChannelRecord, MessageRecord, UserRecord } from '../../../store/records.js';
import { automodBlocked, automodBlocks } from '../../moderation/automod.js';
import { createMessage } from '../../messages/create.js';
import { editMessage } from '../../messages/edit.js';
import { guildField, loadChannel, routeFor } from '../../messages/channel.js';
import type { MessageCreateInput, MessageEditInput } from '../../messages/schema.js';
import { getMember } from '../../guilds/lookup.js';
import { getUser } from '../../identity/users.js';
import { insertMessage, messageRow } from '../../messages/write.js';
import type { InteractionRecord } from './store.js';

/** Messages made by interaction responses and follow-ups: authored by the app's bot, sent as the app's webhook. */

export const EPHEMERAL = 1 << 6;
export const LOADING = 1 << 7;

/**
 * A Ctx whose MESSAGE_* events reach only the given users: ephemeral messages are delivered to the invoker alone
 * (not to the channel, not to the bot).
 */
export function onlyTo(ctx: Ctx, userIds: string[]): Ctx {
  const only = <E extends BusEvent>(e: E): E => (e.t.startsWith('MESSAGE_') ? { ...e, user_ids: userIds } : e);
  const bus: EventBus = {
    publish: (e) => ctx.bus.publish(only(e)),
    republish: (e) => ctx.bus.republish(only(e)),
    mark: () => ctx.bus.mark(),
    settled: (mark) => ctx.bus.settled(mark),
    subscribe: (h, opts) => ctx.bus.subscribe(h, opts),
    watch: (topic) => ctx.bus.watch(topic),
    unwatch: (topic) => ctx.bus.unwatch(topic),
    close: () => ctx.bus.close(),
  };
  return { ...ctx, bus };
}

const viewCtx = (ctx: Ctx, rec: InteractionRecord, m: { flags: number }) => (m.flags & EPHEMERAL ? onlyTo(ctx, [rec.user_id]) : ctx);

/** The author of response messages: the bot user (a stand-in built from the app when it has none). */
export async function appAuthor(
  ctx: Ctx,
  app: ApplicationRecord,
): Promise<{ author: UserRecord; webhook: { id: string; name: string; avatar: string | null } }> {
  const bot = app.bot_user_id ? await getUser(ctx, app.bot_user_id) : null;
  const author: UserRecord = bot ?? {
    id: app.id,
    username: app.name.slice(0, 32),
    discriminator: '0000',
    global_name: null,
    avatar: app.icon,
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
    created_at: app.created_at,
  };
  return { author, webhook: { id: app.id, name: author.username, avatar: author.avatar } };
}

/** Message type of a response: 20 CHAT_INPUT_COMMAND / 23 CONTEXT_MENU_COMMAND for commands, 0 otherwise. */
export function responseType(rec: InteractionRecord): number {
  if (rec.type !== 2 || !rec.data.command) return 0;
  return rec.data.command.type === 2 || rec.data.command.type === 3 ? 23 : 20;
}

/** interaction_metadata (nested user, no user_id) and the deprecated `interaction` of a response message. */
export async function responseExtra(ctx: Ctx, rec: InteractionRecord, followupOf: string | null): Promise<Record<string, unknown>> {
  const metadata: Record<string, unknown> = { ...rec.data.metadata };
  if (followupOf) metadata.original_response_message_id = followupOf;
  const extra: Record<string, unknown> = { interaction_metadata: metadata };
  if (rec.data.legacy) extra.interaction = rec.data.legacy;
  return extra;
}

export interface ResponseMessageOptions {
  ephemeral: boolean;
  /** Follow-ups carry original_response_message_id in their metadata. */
  followupOf?: string | null;
  /** Follow-ups are type 0; initial responses take the interaction's type. */
  followup?: boolean;
}

export async function responseChannel(ctx: Ctx, rec: InteractionRecord): Promise<ChannelRecord> {
  if (!rec.channel_id) throw fieldError('channel_id', 'BASE_TYPE_REQUIRED', 'This field is required');
  return loadChannel(ctx, rec.channel_id);
}

/** Creates a response or follow-up message in the interaction's channel. */
export async function createResponseMessage(
  ctx: Ctx,
  app: ApplicationRecord,
  rec: InteractionRecord,
  body: MessageCreateInput,
  files: UploadedFile[],
  opts: ResponseMessageOptions,
): Promise<MessageRecord> {
  const channel = await responseChannel(ctx, rec);
  const { author, webhook } = await appAuthor(ctx, app);
  const ephemeral = opts.ephemeral || rec.data.force_ephemeral;
  return createMessage(ephemeral ? onlyTo(ctx, [rec.user_id]) : ctx, {
    channel,
    author,
    body: { ...body, message_reference: null, enforce_nonce: false, nonce: undefined },
    files,
    webhook,
    applicationId: app.id,
    skipPermissionChecks: true,
    type: opts.followup ? 0 : responseType(rec),
    extra: await responseExtra(ctx, rec, opts.followupOf ?? null),
    addFlags: ephemeral ? EPHEMERAL : 0,
  });
}

/**
 * The loading message of a DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: no content, flag LOADING (and EPHEMERAL when asked).
 * Written directly because an empty message is not something Create Message accepts.
 */
export async function createLoadingMessage(ctx: Ctx, app: ApplicationRecord, rec: InteractionRecord, ephemeral: boolean): Promise<MessageRecord> {
  const ch = await responseChannel(ctx, rec);
  const { webhook } = await appAuthor(ctx, app);
  const flags = LOADING | (ephemeral ? EPHEMERAL : 0);
  const extra = { username: webhook.name, avatar: webhook.avatar, ...(await responseExtra(ctx, rec, null)) };
  const row = { ...messageRow(ctx, ch, webhook.id, responseType(rec)), webhook_id: webhook.id, application_id: app.id, flags, extra: JSON.stringify(extra) };
  const out = ephemeral ? onlyTo(ctx, [rec.user_id]) : ctx;
  return (await insertMessage(ctx, ch, row, { out })).record;
}

export async function loadRawMessage(ctx: Ctx, messageId: string): Promise<MessageRecord | null> {
  if (!isSnowflake(messageId)) return null;
  return ctx.repos.messages.byId(messageId);
}

export interface EditOptions {
  /** A poll to add: only while the message is still a deferred (loading) response. */
  poll?: Record<string, unknown> | null;
  /** Consult AutoMod for the new content (edits of responses and follow-ups). */
  automod?: boolean;
}

/**
 * Edits a response message (the interaction's original, a follow-up, or a component's message). Filling a loading
 * message clears LOADING and may add a poll; AutoMod keyword rules that block the new content give 400 (200000).
 */
export async function editResponseMessage(
  ctx: Ctx,
  app: ApplicationRecord,
  rec: InteractionRecord,
  message: MessageRecord,
  body: MessageEditInput,
  files: UploadedFile[],
  opts: EditOptions = {},
): Promise<MessageRecord> {
  const channel = await loadChannel(ctx, message.channel_id);
  if (opts.automod && body.content && channel.guild_id) {
    const member = await getMember(ctx, channel.guild_id, rec.user_id);
    if (await automodBlocks(ctx, channel.guild_id, body.content, { channelId: channel.id, roleIds: member?.roles ?? [] })) throw automodBlocked();
  }
  const loading = (message.flags & LOADING) !== 0;
  if (opts.poll && !loading) throw fieldError('poll', 'POLL_EDIT_NOT_ALLOWED', 'Polls can only be added to a deferred interaction response.');
  const { author } = await appAuthor(ctx, app);
  const prior = { flags: message.flags, extra: message.extra };
  if (loading) {
    const extra = opts.poll ? { ...message.extra, poll: opts.poll } : message.extra;
    await ctx.repos.messages.setFlagsAndExtra(message.id, message.flags & ~LOADING, extra);
  }
  try {
    return await editMessage(viewCtx(ctx, rec, message), { channel, editor: author, messageId: message.id, body, files, skipPermissionChecks: true });
  } catch (err) {
    if (loading) await ctx.repos.messages.setFlagsAndExtra(message.id, prior.flags, prior.extra);
    throw err;
  }
}

/** Deletes a response message with its reactions and files; MESSAGE_DELETE goes where the message was seen. */
export async function deleteResponseMessage(ctx: Ctx, rec: InteractionRecord, message: MessageRecord): Promise<void> {
  const channel = await loadChannel(ctx, message.channel_id);
  const fileIds = message.attachments.map((a) => a.id).filter(isSnowflake);
  await ctx.repos.messages.deleteWithReactionsAndFiles([message.id], fileIds);
  viewCtx(ctx, rec, message).bus.publish({ t: 'MESSAGE_DELETE', d: { id: message.id, channel_id: channel.id, ...guildField(channel) }, ...routeFor(channel) });
}

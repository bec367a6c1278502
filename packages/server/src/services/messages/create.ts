import { blockedBetween } from '../social/relationships/model.js';
import type { Ctx } from '../context.js';
import { ApiError, Errors } from '../../core/errors.js';
import { ALL_PERMISSIONS, P } from '@accord/protocol';
import type { UploadedFile } from '../../core/uploads.js';
import type { ChannelRecord, MessageExtra, MessageRecord, UserRecord } from '../../store/records.js';
import { planAttachments, type AttachmentPlan } from './attachments.js';
import { assertMessageChannel, channelAccess, DM_TYPES, routeFor, THREAD_TYPES } from './channel.js';
import { normalizeEmbed } from './embeds.js';
import { resolveMentions } from './mentions.js';
import { resolveReference } from './reference.js';
import { CREATE_FLAGS, MessageFlags, type MessageCreateInput } from './schema.js';
import { messageEventWire, messageWire, restFromEvent } from './view.js';
import { validateMessageComponents } from '../apps/components/index.js';
import { premiumSkuCheck } from '../commerce/skus.js';
import { automodBlocked, automodBlocks } from '../moderation/automod.js';
import { insertMessage, insertMessageOnce, messageRow, type MessageRow, type NonceClaim } from './write.js';
import { stickerItems } from '../expressions/stickers.js';
import type { AccordMessage } from '../../wire/extensions.js';
import type { APIPoll } from 'discord-api-types/v10';

export interface CreateMessageInput {
  channel: ChannelRecord;
  author: UserRecord;
  body: MessageCreateInput;
  files: UploadedFile[];
  /** Webhook messages: the webhook is the author (its name and avatar are kept in `extra`). */
  webhook?: { id: string; name: string; avatar: string | null };
  applicationId?: string | null;
  /** Callers that already authorized the send (webhooks, interaction responses). */
  skipPermissionChecks?: boolean;
  /** Message type; system types (anything but 0, 19, 20, 23) skip the empty-message rule and mention parsing. */
  type?: number;
  /** Rarely set fields kept in the `extra` column (interaction metadata, webhook overrides, …). */
  extra?: MessageExtra;
  /** Flags the caller sets beyond what the create body may (e.g. EPHEMERAL for interaction responses). */
  addFlags?: number;
  /** System messages: the users they mention (RECIPIENT_ADD / RECIPIENT_REMOVE name the user added or removed). */
  systemMentions?: string[];
  /** A message id the caller reserved (`ctx.ids.next()`), so rows that point to the message exist before its event. */
  id?: string;
}

/** Types a user or app sends; the rest are system messages. */
const USER_TYPES = new Set([0, 19, 20, 23]);
const NONCE_WINDOW_MS = 5 * 60_000;
const VOICE_MESSAGE_CONTENT = 'Voice messages do not support additional content.';

/**
 * Creates a message: checks channel type and permissions, validates references, attachments and mentions, writes the
 * message with its files in one transaction, updates the channel, and publishes MESSAGE_CREATE. With `enforce_nonce`,
 * a message from the same author with the same nonce in the last 5 minutes is returned instead.
 */
export async function createMessage(ctx: Ctx, input: CreateMessageInput): Promise<MessageRecord> {
  return (await createOrReuse(ctx, input)).record;
}

/** Creates a message and returns it with its REST object, reusing the event payload instead of reading it back. */
export async function createMessageView(ctx: Ctx, input: CreateMessageInput, viewerId: string): Promise<{ record: MessageRecord; rest: AccordMessage }> {
  const { record, event } = await createOrReuse(ctx, input);
  return { record, rest: event ? restFromEvent(event) : await messageWire(ctx, record, viewerId) };
}

async function createOrReuse(ctx: Ctx, input: CreateMessageInput): Promise<{ record: MessageRecord; event?: AccordMessage }> {
  const { nonce, enforce_nonce } = input.body;
  if (!enforce_nonce || nonce == null) return create(ctx, input);
  const authorId = input.webhook?.id ?? input.author.id;
  const key = `${authorId}:${nonce}`;
  // Exactly once whichever process takes each request: the create claims (author, nonce) in the database with its
  // message, and a create that loses the claim returns the message that won it.
  for (let attempt = 0; ; attempt++) {
    const since = ctx.clock.now() - NONCE_WINDOW_MS;
    const earlier = await ctx.repos.messages.byNonce(authorId, nonce, since);
    if (earlier) return reuse(ctx, input, earlier, key);
    const made = await create(ctx, input, { key, claim: { authorId, nonce: String(nonce), since } });
    if ('record' in made) return made;
    const holder = await ctx.repos.messages.byId(made.earlier);
    if (holder) return reuse(ctx, input, holder, key);
    if (attempt >= 2) throw new Error(`enforce_nonce: the message ${made.earlier} holding the nonce vanished`);
    // Deleted right after it won: its claim is freed by the next attempt.
  }
}

async function reuse(ctx: Ctx, input: CreateMessageInput, record: MessageRecord, key: string): Promise<{ record: MessageRecord }> {
  if (record.channel_id === input.channel.id) await publishUnsent(ctx, input.channel, record, key);
  return { record };
}

/**
 * A retried create found its message: the node that committed it may have died before publishing MESSAGE_CREATE
 * (often why the client retried). Republish it: the bus sends it only if no node published it under the nonce's key
 * (the embedded bus does nothing: a single process that died took its sessions along).
 */
async function publishUnsent(ctx: Ctx, ch: ChannelRecord, record: MessageRecord, once: string): Promise<void> {
  ctx.bus.republish({ t: 'MESSAGE_CREATE', d: await messageEventWire(ctx, record), ...routeFor(ch), once });
}

/** The author's permissions for sending here; throws when they may not send at all. */
async function sendPermissions(ctx: Ctx, ch: ChannelRecord, author: UserRecord): Promise<bigint> {
  const perms = await channelAccess(ctx, ch, author.id);
  if (DM_TYPES.has(ch.type)) {
    if (ch.type === 1) await assertCanDm(ctx, ch, author);
    return perms;
  }
  const send = THREAD_TYPES.has(ch.type) ? P.SEND_MESSAGES_IN_THREADS : P.SEND_MESSAGES;
  if (!ctx.access.hasPerm(perms, send)) throw Errors.missingPermissions();
  const meta = ch.thread_metadata;
  if (meta?.archived && meta.locked && !ctx.access.hasPerm(perms, P.MANAGE_THREADS)) throw Errors.archivedThread();
  return perms;
}

/** Nobody DMs across a block; bots may DM only users they share a guild with, and never other bots. */
async function assertCanDm(ctx: Ctx, ch: ChannelRecord, author: UserRecord): Promise<void> {
  const other = ch.recipients?.find((id) => id !== author.id);
  if (other && (await blockedBetween(ctx, author.id, other))) throw Errors.cannotSendToUser(); // blocks hold in DMs
  if (!author.bot || !other) return;
  const shared = await ctx.repos.members.sharedGuild(author.id, other);
  if (!shared || shared.otherIsBot) throw Errors.cannotSendToUser();
}

/** Slowmode: one message per `rate_limit_per_user` seconds per author; 429 with the wait left. */
async function assertSlowmode(ctx: Ctx, ch: ChannelRecord, authorId: string): Promise<void> {
  const windowMs = ch.rate_limit_per_user * 1000;
  const now = ctx.clock.now();
  const last = await ctx.repos.messages.lastPostedAt(ch.id, authorId, now - windowMs);
  if (last == null) return;
  const retryAfter = Math.max(0.001, (last + windowMs - now) / 1000);
  throw new ApiError(429, 20016, Errors.slowmode().message, undefined, { retry_after: Number(retryAfter.toFixed(3)), global: false });
}

/** Voice messages: one audio file with duration and waveform, nothing else. */
function assertVoiceMessage(body: MessageCreateInput, plan: AttachmentPlan): void {
  if (body.content || body.embeds?.length || body.sticker_ids?.length || body.poll) throw new ApiError(400, 50159, VOICE_MESSAGE_CONTENT);
  const [a] = plan.attachments;
  if (plan.attachments.length !== 1 || !a.content_type?.startsWith('audio/'))
    throw new ApiError(400, 50160, 'Voice messages must have a single audio attachment.');
  if (a.duration_secs == null || !a.waveform) throw new ApiError(400, 50161, 'Voice messages must have supporting metadata.');
}

function pollFrom(poll: NonNullable<MessageCreateInput['poll']>, now: number): APIPoll {
  return {
    question: { text: poll.question.text },
    answers: poll.answers.map((a, i) => ({
      answer_id: i + 1,
      poll_media: {
        text: a.poll_media.text,
        ...(a.poll_media.emoji ? { emoji: { id: a.poll_media.emoji.id ?? null, name: a.poll_media.emoji.name ?? null } } : {}),
      },
    })),
    expiry: new Date(now + (poll.duration ?? 24) * 3600_000).toISOString(),
    allow_multiselect: poll.allow_multiselect ?? false,
    layout_type: 1,
    results: { is_finalized: false, answer_counts: [] },
  };
}

type Created = { record: MessageRecord; event: AccordMessage };

/** Creates the message. With `once` (an enforced nonce), claims the nonce with it: `{ earlier }` when another create holds it. */
async function create(ctx: Ctx, input: CreateMessageInput): Promise<Created>;
async function create(ctx: Ctx, input: CreateMessageInput, once: { key: string; claim: NonceClaim }): Promise<Created | { earlier: string }>;
async function create(ctx: Ctx, input: CreateMessageInput, once?: { key: string; claim: NonceClaim }): Promise<Created | { earlier: string }> {
  const { channel: ch, author, body, files } = input;
  const type = input.type ?? 0;
  const system = !USER_TYPES.has(type);
  const skip = !!input.skipPermissionChecks;
  assertMessageChannel(ch);
  const perms = skip ? ALL_PERMISSIONS : await sendPermissions(ctx, ch, author);
  const can = (p: bigint) => skip || ctx.access.hasPerm(perms, p);

  if (files.length && !can(P.ATTACH_FILES)) throw Errors.missingPermissions();
  if (body.poll && !can(P.SEND_POLLS)) throw Errors.missingPermissions();
  let flags = ((body.flags ?? 0) & CREATE_FLAGS) | (input.addFlags ?? 0);
  if (flags & MessageFlags.IS_VOICE_MESSAGE && !can(P.SEND_VOICE_MESSAGES)) throw new ApiError(403, 50173, 'You cannot send voice messages in this channel.');

  // Without EMBED_LINKS the platform keeps the message and drops its embeds.
  const embedsIn = can(P.EMBED_LINKS) ? (body.embeds ?? []) : [];
  const content = body.content ?? '';
  const stickers = body.sticker_ids ?? [];
  const ref = await resolveReference(ctx, ch, author, body.message_reference, can(P.READ_MESSAGE_HISTORY), skip);
  if (ref.snapshot) flags |= MessageFlags.HAS_SNAPSHOT;
  const plan = planAttachments(ctx, ch.id, files, body.attachments, null);
  const { components } = validateMessageComponents(body.components, {
    flags,
    attachments: plan.attachments,
    hasContent: !!content,
    hasEmbeds: !!body.embeds?.length,
    hasPoll: !!body.poll,
    hasStickers: !!stickers.length,
    skuExists: await premiumSkuCheck(ctx, body.components, author.id),
  });
  const empty = !content.trim() && !embedsIn.length && !files.length && !stickers.length && !components.length && !body.poll && !ref.snapshot;
  if (!system && empty) throw Errors.emptyMessage();
  const stickerRows = stickers.length ? await stickerItems(ctx, ch.guild_id, stickers) : null; // 50081 for unknown stickers
  if (!skip && !system && (await automodBlocks(ctx, ch.guild_id, content, { channelId: ch.id, userId: input.webhook ? null : author.id })))
    throw automodBlocked();

  if (flags & MessageFlags.IS_VOICE_MESSAGE) assertVoiceMessage(body, plan);
  if (!skip && ch.guild_id && !author.bot && ch.rate_limit_per_user > 0 && !ctx.access.hasPerm(perms, P.BYPASS_SLOWMODE)) {
    await assertSlowmode(ctx, ch, author.id);
  }

  const mentions = system
    ? { users: input.systemMentions ?? [], roles: [], everyone: false }
    : await resolveMentions(ctx, {
        content,
        allowed: body.allowed_mentions,
        guildId: ch.guild_id,
        canMentionEveryone: can(P.MENTION_EVERYONE),
        repliedUserId: ref.repliedUserId,
      });
  const now = ctx.clock.now();
  const extra: MessageExtra = {};
  if (input.webhook) Object.assign(extra, { username: input.webhook.name, avatar: input.webhook.avatar });
  if (ref.snapshot) extra.message_snapshots = [ref.snapshot];
  if (body.poll) extra.poll = pollFrom(body.poll, now);
  Object.assign(extra, input.extra ?? {});

  const row: MessageRow = {
    ...messageRow(ctx, ch, input.webhook?.id ?? author.id, ref.reply && type === 0 ? 19 : type),
    ...(input.id ? { id: input.id } : {}),
    webhook_id: input.webhook?.id ?? null,
    application_id: input.applicationId ?? null,
    content,
    tts: body.tts && can(P.SEND_TTS_MESSAGES) ? 1 : 0,
    mention_everyone: mentions.everyone ? 1 : 0,
    mentions: JSON.stringify(mentions.users),
    mention_roles: JSON.stringify(mentions.roles),
    attachments: JSON.stringify(plan.attachments),
    embeds: JSON.stringify(embedsIn.map((e) => normalizeEmbed(e, plan.attachments))),
    components: JSON.stringify(components),
    sticker_items: stickerRows ? JSON.stringify(stickerRows) : null,
    flags,
    nonce: body.nonce ?? null,
    message_reference: ref.stored ? JSON.stringify(ref.stored) : null,
    extra: JSON.stringify(extra),
    created_at: now,
  };
  const opts = { files: plan.rows, authors: input.webhook ? [] : [author], once: once?.key };
  return once ? insertMessageOnce(ctx, ch, row, once.claim, opts) : insertMessage(ctx, ch, row, opts);
}

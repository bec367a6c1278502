import type { Ctx } from '../context.js';
import { Errors, formError } from '../../core/errors.js';
import { P } from '@accord/protocol';
import type { UploadedFile } from '../../core/uploads.js';
import type { ChannelRecord, MessageRecord, UserRecord } from '../../store/records.js';
import { planAttachments } from './attachments.js';
import { channelAccess, loadMessage, routeFor } from './channel.js';
import { normalizeEmbed } from './embeds.js';
import { resolveMentions } from './mentions.js';
import { MessageFlags, type MessageEditInput } from './schema.js';
import { messageEventWire } from './view.js';
import { validateMessageComponents } from '../apps/components/index.js';
import { premiumSkuCheck } from '../commerce/skus.js';
import { automodBlocked, automodBlocks } from '../moderation/automod.js';

/** Types whose author may change content. */
const EDITABLE_TYPES = new Set([0, 19, 20, 23]);

export interface EditMessageInput {
  channel: ChannelRecord;
  editor: UserRecord;
  messageId: string;
  body: MessageEditInput;
  files: UploadedFile[];
  /** Webhook edits: the webhook authored the message, permission checks were done by the caller. */
  skipPermissionChecks?: boolean;
}

/**
 * Edits a message. The author may change content, embeds, components, attachments and SUPPRESS_EMBEDS; anyone else
 * needs MANAGE_MESSAGES and may only toggle SUPPRESS_EMBEDS. `attachments` lists the attachments to keep (by id, with
 * `description` / `is_spoiler` edits) and uploads to add (by index). Publishes MESSAGE_UPDATE with the full message.
 */
export async function editMessage(ctx: Ctx, input: EditMessageInput): Promise<MessageRecord> {
  const { channel: ch, editor, body, files } = input;
  const skip = !!input.skipPermissionChecks;
  const perms = skip ? 0n : await channelAccess(ctx, ch, editor.id);
  const can = (p: bigint) => skip || ctx.access.hasPerm(perms, p);
  const old = await loadMessage(ctx, ch.id, input.messageId);
  const isAuthor = skip || (old.author_id === editor.id && !old.webhook_id);
  const touchesContent =
    body.content !== undefined || body.embeds !== undefined || body.components !== undefined || body.attachments !== undefined || files.length > 0;

  if (!isAuthor) {
    if (touchesContent) throw Errors.cannotEditOthers();
    if (body.flags != null && !can(P.MANAGE_MESSAGES)) throw Errors.missingPermissions();
  }
  if (touchesContent && !EDITABLE_TYPES.has(old.type)) throw Errors.systemMessage();
  if (files.length && !can(P.ATTACH_FILES)) throw Errors.missingPermissions();

  // Only SUPPRESS_EMBEDS toggles; IS_COMPONENTS_V2 may be added by the author but never removed.
  let flags = old.flags;
  if (body.flags != null) {
    flags = (flags & ~MessageFlags.SUPPRESS_EMBEDS) | (body.flags & MessageFlags.SUPPRESS_EMBEDS);
    if (isAuthor) flags |= body.flags & MessageFlags.IS_COMPONENTS_V2;
  }

  const next: MessageRecord = { ...old, flags };
  const plan = touchesContent ? planAttachments(ctx, ch.id, files, body.attachments === null ? [] : body.attachments, old.attachments) : null;
  if (plan) next.attachments = plan.attachments;
  if (body.content !== undefined) next.content = body.content ?? '';
  if (body.components !== undefined) {
    next.components = validateMessageComponents(body.components, {
      flags,
      attachments: next.attachments,
      hasContent: !!next.content,
      hasEmbeds: !!(body.embeds !== undefined ? body.embeds?.length : old.embeds.length),
      hasPoll: !!old.extra.poll,
      hasStickers: !!old.sticker_items?.length,
      skuExists: await premiumSkuCheck(ctx, body.components, editor.id),
    }).components as MessageRecord['components'];
  }
  if (!skip && body.content && (await automodBlocks(ctx, ch.guild_id, next.content, { channelId: ch.id, userId: editor.id }))) throw automodBlocked();
  if (body.embeds !== undefined) next.embeds = can(P.EMBED_LINKS) ? (body.embeds ?? []).map((e) => normalizeEmbed(e, next.attachments)) : [];
  assertShape(next);

  if (isAuthor && (body.content !== undefined || body.allowed_mentions !== undefined)) {
    const m = await resolveMentions(ctx, {
      content: next.content,
      allowed: body.allowed_mentions,
      guildId: ch.guild_id,
      canMentionEveryone: can(P.MENTION_EVERYONE),
      repliedUserId: null,
    });
    // The replied-to author stays mentioned if they were.
    const replied = await repliedAuthor(ctx, old);
    next.mentions = replied && old.mentions.includes(replied) && !m.users.includes(replied) ? [...m.users, replied] : m.users;
    next.mention_roles = m.roles;
    next.mention_everyone = m.everyone;
  }
  if (touchesContent) next.edited_at = ctx.clock.now();

  await ctx.repos.messages.applyEdit(
    old.id,
    {
      content: next.content,
      embeds: next.embeds,
      components: next.components,
      attachments: next.attachments,
      flags: next.flags,
      mentions: next.mentions,
      mention_roles: next.mention_roles,
      mention_everyone: next.mention_everyone,
      edited_at: next.edited_at,
    },
    { add: plan?.rows ?? [], remove: plan?.removed ?? [] },
  );
  ctx.bus.publish({ t: 'MESSAGE_UPDATE', d: await messageEventWire(ctx, next), ...routeFor(ch) });
  return next;
}

async function repliedAuthor(ctx: Ctx, m: MessageRecord): Promise<string | null> {
  const refId = m.type === 19 ? m.message_reference?.message_id : undefined;
  if (!refId) return null;
  return (await ctx.repos.messages.authorsOf([refId])).get(refId) ?? null;
}

/** After the edit: not empty, and the component count fits the message's mode. */
function assertShape(m: MessageRecord): void {
  const v2 = (m.flags & MessageFlags.IS_COMPONENTS_V2) !== 0;
  if (!v2 && m.components.length > 5) throw formError([{ path: ['components'], code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 5 or fewer in length.' }]);
  if (v2 && (m.content || m.embeds.length)) {
    throw formError([
      {
        path: [m.content ? 'content' : 'embeds'],
        code: 'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2',
        message: "The 'content' and 'embeds' fields cannot be used when using the IS_COMPONENTS_V2 flag.",
      },
    ]);
  }
  const hasPoll = !!m.extra.poll;
  const hasSnapshot = !!m.extra.message_snapshots;
  if (!m.content.trim() && !m.embeds.length && !m.attachments.length && !m.components.length && !m.sticker_items?.length && !hasPoll && !hasSnapshot) {
    throw Errors.emptyMessage();
  }
}

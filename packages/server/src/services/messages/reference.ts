import type { Ctx } from '../context.js';
import { ApiError, fieldError } from '../../core/errors.js';
import { P } from '@accord/protocol';
import type { ChannelRecord, MessageRecord, UserRecord } from '../../store/records.js';
import { publicUser } from '../../wire/user.js';
import { getUsers } from '../identity/users.js';
import { APP_FLAGS, applicationOfBot } from '../identity/applications.js';
import { channelAccess, loadChannel, loadMessage } from './channel.js';
import type { MessageCreateInput } from './schema.js';
import type { APIMessageSnapshot } from 'discord-api-types/v10';

export interface ResolvedReference {
  /** What the message stores as `message_reference`. */
  stored: MessageRecord['message_reference'];
  /** A reply: the message becomes type 19 and may mention the replied-to author. */
  reply: boolean;
  repliedUserId: string | null;
  /** A forward: the snapshot of the source message. */
  snapshot: APIMessageSnapshot | null;
}

const NONE: ResolvedReference = { stored: null, reply: false, repliedUserId: null, snapshot: null };

const unknownReference = () => fieldError('message_reference', 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE', 'Unknown message');
const cannotReply = () => new ApiError(403, 160002, 'Cannot reply without permission to read message history');
const cannotForward = () => new ApiError(403, 160014, 'You cannot forward a message whose content you cannot read');

/**
 * Resolves `message_reference`: a reply (type 0) must point at a message of this channel, unless
 * `fail_if_not_exists` is false, in which case a bad reference is dropped; a forward (type 1) copies a snapshot of a
 * message the author can read.
 */
export async function resolveReference(
  ctx: Ctx,
  ch: ChannelRecord,
  author: UserRecord,
  ref: MessageCreateInput['message_reference'],
  canReadHistory: boolean,
  skipChecks: boolean,
): Promise<ResolvedReference> {
  if (!ref) return NONE;
  if ((ref.type ?? 0) === 1) return resolveForward(ctx, author, ref, skipChecks);
  if (!ref.message_id) throw fieldError(['message_reference', 'message_id'], 'BASE_TYPE_REQUIRED', 'This field is required');
  if (!skipChecks && !canReadHistory) throw cannotReply();
  const target = await loadMessage(ctx, ch.id, ref.message_id).catch(() => null);
  if (!target || (ref.channel_id && ref.channel_id !== ch.id)) {
    if (ref.fail_if_not_exists === false) return NONE;
    throw unknownReference();
  }
  return {
    stored: { type: 0, message_id: target.id, channel_id: ch.id, ...(ch.guild_id ? { guild_id: ch.guild_id } : {}) },
    reply: true,
    repliedUserId: target.webhook_id ? null : target.author_id,
    snapshot: null,
  };
}

/**
 * Whether the sender can read a message's content: people always; bots without the MESSAGE_CONTENT intent enabled on
 * their app only in DMs and in their own messages or messages that mention them (the rule of the Gateway and HTTP).
 */
async function canReadContent(ctx: Ctx, author: UserRecord, m: MessageRecord): Promise<boolean> {
  if (!author.bot || !m.guild_id || m.author_id === author.id || m.mentions.includes(author.id)) return true;
  const app = await applicationOfBot(ctx, author.id);
  return !!app && (app.flags & (APP_FLAGS.GATEWAY_MESSAGE_CONTENT | APP_FLAGS.GATEWAY_MESSAGE_CONTENT_LIMITED)) !== 0n;
}

async function resolveForward(
  ctx: Ctx,
  author: UserRecord,
  ref: NonNullable<MessageCreateInput['message_reference']>,
  skipChecks: boolean,
): Promise<ResolvedReference> {
  if (!ref.message_id) throw fieldError(['message_reference', 'message_id'], 'BASE_TYPE_REQUIRED', 'This field is required');
  if (!ref.channel_id) throw fieldError(['message_reference', 'channel_id'], 'BASE_TYPE_REQUIRED', 'This field is required');
  const source = await loadChannel(ctx, ref.channel_id).catch(() => null);
  const target = source && (await loadMessage(ctx, source.id, ref.message_id).catch(() => null));
  if (!source || !target) throw unknownReference();
  if (!skipChecks)
    await channelAccess(ctx, source, author.id, P.READ_MESSAGE_HISTORY).catch(() => {
      throw cannotForward();
    });
  if (!skipChecks && !(await canReadContent(ctx, author, target))) throw cannotForward();
  const users = await getUsers(ctx, target.mentions);
  const iso = (ms: number | null) => (ms == null ? null : new Date(ms).toISOString());
  return {
    stored: { type: 1, message_id: target.id, channel_id: source.id, ...(source.guild_id ? { guild_id: source.guild_id } : {}) },
    reply: false,
    repliedUserId: null,
    snapshot: {
      message: {
        type: target.type,
        content: target.content,
        embeds: target.embeds,
        attachments: target.attachments,
        timestamp: new Date(target.created_at).toISOString(),
        edited_timestamp: iso(target.edited_at),
        flags: target.flags,
        mentions: target.mentions
          .map((id) => users.get(id))
          .filter((u): u is UserRecord => !!u)
          .map(publicUser),
        mention_roles: target.mention_roles,
        stickers: [],
        sticker_items: target.sticker_items ?? [],
        components: target.components,
      },
    },
  };
}

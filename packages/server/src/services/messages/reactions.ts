import type { Ctx } from '../context.js';
import { Errors } from '../../core/errors.js';
import { P } from '@accord/protocol';
import type { ChannelRecord, UserRecord } from '../../store/records.js';
import { member as memberWire } from '../../wire/member.js';
import { channelAccess, DM_TYPES, guildField, loadMessage, routeFor } from './channel.js';
import { cachedMember } from './view.js';
import { getUsers } from '../identity/users.js';
import { isId } from '../../core/ids.js';

const MAX_UNIQUE = 20;

export interface ParsedEmoji {
  /** How the emoji is keyed in storage: the unicode text, or `name:id` for custom emoji. */
  key: string;
  id: string | null;
  name: string;
  animated: boolean;
}

const CUSTOM_RE = /^(?:(a):)?([\w~-]{1,32}):(\d{1,20})$/;
const EMOJI_CHARS = /^(?:\p{Emoji}|\p{Emoji_Component}|\p{Emoji_Modifier}|\u200d|\ufe0e|\ufe0f|\u20e3|[\u{e0020}-\u{e007f}])+$/u;
const PICTOGRAPH = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20e3/u;

/** Parses the `{emoji}` path segment (already URL-decoded): a unicode emoji or `name:id` / `a:name:id`. 10014 otherwise. */
export function parseEmoji(raw: string): ParsedEmoji {
  const custom = CUSTOM_RE.exec(raw);
  if (custom && isId(custom[3])) return { key: `${custom[2]}:${custom[3]}`, id: custom[3], name: custom[2], animated: !!custom[1] };
  if (raw.length > 0 && raw.length <= 64 && EMOJI_CHARS.test(raw) && PICTOGRAPH.test(raw)) return { key: raw, id: null, name: raw, animated: false };
  throw Errors.unknownEmoji();
}

const emojiWire = (e: ParsedEmoji) => (e.id ? { id: e.id, name: e.name, ...(e.animated ? { animated: true } : {}) } : { id: null, name: e.name });

/** The distinct emoji keys on a message, in first-use order. */
async function emojiKeys(ctx: Ctx, messageId: string): Promise<string[]> {
  return ctx.repos.reactions.emojiKeys(messageId);
}

/** Custom emoji are matched by id, whatever name the request used; unicode emoji by their text. */
function matchKey(keys: string[], e: ParsedEmoji): string {
  if (!e.id) return e.key;
  return keys.find((k) => k.endsWith(`:${e.id}`)) ?? e.key;
}

/**
 * Adds the caller's reaction (type 1 = burst). Needs READ_MESSAGE_HISTORY, plus ADD_REACTIONS when the emoji is new on
 * the message; at most 20 distinct emoji (30010). Adding a reaction twice is a no-op.
 */
export async function addReaction(ctx: Ctx, ch: ChannelRecord, user: UserRecord, messageId: string, rawEmoji: string, burst: boolean): Promise<void> {
  const perms = await channelAccess(ctx, ch, user.id, P.READ_MESSAGE_HISTORY);
  const m = await loadMessage(ctx, ch.id, messageId);
  const emoji = parseEmoji(rawEmoji);
  const keys = await emojiKeys(ctx, m.id);
  const key = matchKey(keys, emoji);
  if (!keys.includes(key)) {
    if (!ctx.access.hasPerm(perms, P.ADD_REACTIONS)) throw Errors.missingPermissions();
    if (keys.length >= MAX_UNIQUE) throw Errors.maxReactions();
  }
  const added = await ctx.repos.reactions.add({ messageId: m.id, channelId: ch.id, emojiKey: key, userId: user.id, burst, at: ctx.clock.now() });
  if (!added) return;
  const mem = ch.guild_id ? await cachedMember(ctx, ch.guild_id, user.id) : null;
  ctx.bus.publish({
    t: 'MESSAGE_REACTION_ADD',
    d: {
      user_id: user.id,
      channel_id: ch.id,
      message_id: m.id,
      ...guildField(ch),
      ...(mem ? { member: memberWire(mem, user) } : {}),
      emoji: emojiWire({ ...emoji, key }),
      message_author_id: m.author_id,
      burst,
      burst_colors: [],
      type: burst ? 1 : 0,
    },
    ...routeFor(ch),
  });
}

/** Removes one user's reaction(s) with an emoji; `type` limits it to normal (0) or burst (1). */
async function removeFor(ctx: Ctx, ch: ChannelRecord, messageId: string, emoji: ParsedEmoji, userId: string, type: 0 | 1 | undefined): Promise<void> {
  const key = matchKey(await emojiKeys(ctx, messageId), emoji);
  const removed = await ctx.repos.reactions.removeOfUser(messageId, key, userId, type === undefined ? undefined : type === 1);
  for (const burst of removed) {
    ctx.bus.publish({
      t: 'MESSAGE_REACTION_REMOVE',
      d: { user_id: userId, channel_id: ch.id, message_id: messageId, ...guildField(ch), emoji: emojiWire({ ...emoji, key }), burst, type: burst ? 1 : 0 },
      ...routeFor(ch),
    });
  }
}

/** Removes the caller's own reaction; missing reactions are fine. */
export async function removeOwnReaction(ctx: Ctx, ch: ChannelRecord, userId: string, messageId: string, rawEmoji: string, type?: 0 | 1): Promise<void> {
  await channelAccess(ctx, ch, userId);
  const m = await loadMessage(ctx, ch.id, messageId);
  await removeFor(ctx, ch, m.id, parseEmoji(rawEmoji), userId, type);
}

/** Removes someone else's reaction: MANAGE_MESSAGES, guild channels only. */
export async function removeUserReaction(
  ctx: Ctx,
  ch: ChannelRecord,
  actorId: string,
  messageId: string,
  rawEmoji: string,
  targetId: string,
  type?: 0 | 1,
): Promise<void> {
  if (targetId === actorId) return removeOwnReaction(ctx, ch, actorId, messageId, rawEmoji, type);
  if (DM_TYPES.has(ch.type)) throw Errors.cannotDM();
  await channelAccess(ctx, ch, actorId, P.MANAGE_MESSAGES);
  const m = await loadMessage(ctx, ch.id, messageId);
  await removeFor(ctx, ch, m.id, parseEmoji(rawEmoji), targetId, type);
}

/** Removes every reaction of a message (MANAGE_MESSAGES). */
export async function removeAllReactions(ctx: Ctx, ch: ChannelRecord, actorId: string, messageId: string): Promise<void> {
  if (DM_TYPES.has(ch.type)) throw Errors.cannotDM();
  await channelAccess(ctx, ch, actorId, P.MANAGE_MESSAGES);
  const m = await loadMessage(ctx, ch.id, messageId);
  await ctx.repos.reactions.removeAll(m.id);
  ctx.bus.publish({ t: 'MESSAGE_REACTION_REMOVE_ALL', d: { channel_id: ch.id, message_id: m.id, ...guildField(ch) }, ...routeFor(ch) });
}

/** Removes every reaction with one emoji (MANAGE_MESSAGES). */
export async function removeEmojiReactions(ctx: Ctx, ch: ChannelRecord, actorId: string, messageId: string, rawEmoji: string): Promise<void> {
  if (DM_TYPES.has(ch.type)) throw Errors.cannotDM();
  await channelAccess(ctx, ch, actorId, P.MANAGE_MESSAGES);
  const m = await loadMessage(ctx, ch.id, messageId);
  const emoji = parseEmoji(rawEmoji);
  const key = matchKey(await emojiKeys(ctx, m.id), emoji);
  if (!(await ctx.repos.reactions.removeEmoji(m.id, key))) return;
  ctx.bus.publish({
    t: 'MESSAGE_REACTION_REMOVE_EMOJI',
    d: { channel_id: ch.id, ...guildField(ch), message_id: m.id, emoji: emojiWire({ ...emoji, key }) },
    ...routeFor(ch),
  });
}

/** Users who reacted with an emoji, by user id, `after` a user id; `type` 1 lists burst reactions. */
export async function listReactionUsers(
  ctx: Ctx,
  ch: ChannelRecord,
  viewerId: string,
  messageId: string,
  rawEmoji: string,
  q: { after?: string; limit?: number; type?: 0 | 1 },
): Promise<UserRecord[]> {
  await channelAccess(ctx, ch, viewerId, P.READ_MESSAGE_HISTORY);
  const m = await loadMessage(ctx, ch.id, messageId);
  const key = matchKey(await emojiKeys(ctx, m.id), parseEmoji(rawEmoji));
  const ids = await ctx.repos.reactions.userIds(m.id, key, (q.type ?? 0) === 1, { after: q.after, limit: q.limit ?? 25 });
  const users = await getUsers(ctx, ids);
  return ids.map((id) => users.get(id)).filter((u): u is UserRecord => !!u);
}

import type { Actor, Ctx } from '../context.js';
import type { BusEvent } from '../../bus/bus.js';
import { ApiError, Errors } from '../../core/errors.js';
import { P, isSnowflake } from '@accord/protocol';
import type { ChannelRecord, MessageRecord } from '../../store/records.js';

export const DM_TYPES = new Set([1, 3]);
/** Ids are stored as signed BIGINT (PostgreSQL refuses larger values in comparisons). */
const MAX_ID = 1n << 63n;
export const THREAD_TYPES = new Set([10, 11, 12]);

/** What a DM recipient may do: the text permissions of a channel, without moderating others. */
const DM_PERMS =
  P.VIEW_CHANNEL |
  P.SEND_MESSAGES |
  P.SEND_TTS_MESSAGES |
  P.EMBED_LINKS |
  P.ATTACH_FILES |
  P.READ_MESSAGE_HISTORY |
  P.ADD_REACTIONS |
  P.USE_EXTERNAL_EMOJIS |
  P.USE_EXTERNAL_STICKERS |
  P.PIN_MESSAGES |
  P.SEND_VOICE_MESSAGES |
  P.SEND_POLLS |
  P.USE_APPLICATION_COMMANDS |
  P.USE_EXTERNAL_APPS;

export const forumChannel = () => new ApiError(400, 40058, 'Cannot send a message in a forum channel');

/** Loads a channel by path id; malformed and unknown ids are both 10003. */
export async function loadChannel(ctx: Ctx, channelId: string): Promise<ChannelRecord> {
  if (!isSnowflake(channelId) || BigInt(channelId) >= MAX_ID) throw Errors.unknownChannel(); // past BIGINT: nothing is stored there
  const ch = await ctx.repos.channels.lookup(channelId); // on nearly every request: a fixed statement
  if (!ch) throw Errors.unknownChannel();
  return ch;
}

/**
 * The caller's permissions in a channel, throwing like the platform: 10003 for an invisible guild channel, 50001 for a
 * DM the caller is not in, 50013 when `needed` is missing. DM recipients get fixed text permissions.
 */
export async function channelAccess(ctx: Ctx, ch: ChannelRecord, userId: string, needed: bigint = 0n): Promise<bigint> {
  if (ch.guild_id) return ctx.access.requireChannel(ch.guild_id, ch.id, userId, needed);
  if (!ch.recipients?.includes(userId)) throw Errors.missingAccess();
  if (needed && !ctx.access.hasPerm(DM_PERMS, needed)) throw Errors.missingPermissions();
  return DM_PERMS;
}

/** Loads a message of this channel; malformed ids, unknown ids and messages of other channels are all 10008. */
export async function loadMessage(ctx: Ctx, channelId: string, messageId: string): Promise<MessageRecord> {
  if (!isSnowflake(messageId) || BigInt(messageId) >= MAX_ID) throw Errors.unknownMessage();
  const m = await ctx.repos.messages.byId(messageId);
  if (!m || m.channel_id !== channelId) throw Errors.unknownMessage();
  return m;
}

/** Bus routing for an event about this channel: guild channels by guild + channel, DMs to their recipients. */
export function routeFor(ch: ChannelRecord): Pick<BusEvent, 'guild_id' | 'channel_id' | 'user_ids'> {
  if (ch.guild_id) return { guild_id: ch.guild_id, channel_id: ch.id };
  return { guild_id: null, channel_id: ch.id, user_ids: ch.recipients ?? [] };
}

/** `guild_id` only for guild channels, as event payloads carry it. */
export const guildField = (ch: ChannelRecord): { guild_id?: string } => (ch.guild_id ? { guild_id: ch.guild_id } : {});

/** OAuth2 bearer tokens reach messages only in DMs, through the Social SDK's DM message scopes. */
export function assertTokenScope(actor: Actor, ch: ChannelRecord, write: boolean): void {
  if (actor.kind !== 'bearer') return;
  const scope = write ? 'dm_channels.messages.write' : 'dm_channels.messages.read';
  if (!DM_TYPES.has(ch.type) || !actor.scopes.includes(scope)) throw Errors.missingScope();
}

/** The path's channel, for a caller whose token kind may use it. */
export async function channelFor(ctx: Ctx, actor: Actor, channelId: string, write: boolean): Promise<ChannelRecord> {
  const ch = await loadChannel(ctx, channelId);
  assertTokenScope(actor, ch, write);
  return ch;
}

/**
 * The path's channel for sending a message: a guild channel's row comes from memory while its guild is unchanged
 * (ctx.access.rows), so its last_message_id and counts may be behind; sending needs neither.
 */
export async function channelForSend(ctx: Ctx, actor: Actor, channelId: string): Promise<ChannelRecord> {
  const ch = await ctx.access.rows.channel(channelId, () => loadChannel(ctx, channelId));
  assertTokenScope(actor, ch, true);
  return ch;
}

/** Category and directory channels hold no messages; forum and media channels take posts (threads), not messages. */
export function assertMessageChannel(ch: ChannelRecord): void {
  if (ch.type === 15 || ch.type === 16) throw forumChannel();
  if (![0, 1, 2, 3, 5, 10, 11, 12, 13].includes(ch.type)) throw Errors.nonTextChannel();
}

import type { Actor, Ctx } from '../context.js';
import { Errors } from '../../core/errors.js';
import { P, isSnowflake } from '@accord/protocol';
import type { ChannelRecord } from '../../store/records.js';
import type { MentionCandidate, ReadStateRecord } from '../../store/repos/read-states.js';
import { channelAccess } from './channel.js';

/** Messages read past a read state to count its mentions: counts stop there, as a badge shows "99+" anyway. */
export const MENTION_SCAN_LIMIT = 100;
/** Read states whose mentions READY computes, newest acks first; older ones go out with 0. */
const READY_COUNTED_ENTRIES = 200;

export interface AckInput {
  manual?: boolean;
  mention_count?: number;
}

/** A read state as READY and clients see it. */
export interface ReadStateEntry {
  id: string;
  last_message_id: string | null;
  mention_count: number;
  last_pin_timestamp: string | null;
  flags: number;
}

/** Whether a message counts as a mention for someone holding `roles`: DMs always, else a user, role or @everyone. */
export function mentions(m: MentionCandidate, userId: string, roles: ReadonlySet<string>, isDm: boolean): boolean {
  return isDm || m.mention_everyone || m.mentions.includes(userId) || m.mention_roles.some((r) => roles.has(r));
}

async function countMentions(ctx: Ctx, userId: string, channelId: string, guildId: string | null, after: string | null): Promise<number> {
  const [rows, roles] = await Promise.all([
    ctx.repos.readStates.after(channelId, after, userId, MENTION_SCAN_LIMIT),
    guildId ? ctx.repos.members.roleIdsOf(guildId, userId) : Promise.resolve([]),
  ]);
  const held = new Set(roles);
  return rows.filter((m) => mentions(m, userId, held, !guildId)).length;
}

/**
 * Acknowledges a channel up to a message for a person (`POST /channels/{id}/messages/{id}/ack`): 10003 for a guild
 * channel they cannot see, 50001 for a DM they are not in, 10008 for a malformed message id. Their other sessions
 * get MESSAGE_ACK. A manual ack ("mark unread") keeps the mention count it carries.
 */
export async function ackMessage(ctx: Ctx, actor: Actor, ch: ChannelRecord, messageId: string, input: AckInput): Promise<{ token: null }> {
  if (actor.kind !== 'user') throw Errors.botsCannotUse();
  const userId = actor.user.id;
  await channelAccess(ctx, ch, userId, P.VIEW_CHANNEL);
  if (!isSnowflake(messageId)) throw Errors.unknownMessage();
  const manual = input.manual === true;
  const manualCount = manual ? (input.mention_count ?? 0) : null;
  const version = await ctx.repos.readStates.ack(userId, ch.id, messageId, manualCount);
  const mentionCount = manualCount ?? (await countMentions(ctx, userId, ch.id, ch.guild_id, messageId));
  ctx.bus.publish({
    t: 'MESSAGE_ACK',
    d: {
      channel_id: ch.id,
      message_id: messageId,
      version,
      mention_count: mentionCount,
      ...(ch.guild_id ? { guild_id: ch.guild_id } : {}),
      ...(manual ? { manual: true } : {}),
    },
    user_ids: [userId],
  });
  // The platform answers a token for ack rate limiting it no longer uses: always null.
  return { token: null };
}

/** READY's `read_state` for a person: their stored read states, each with its mention count computed now. */
export async function readStateForReady(ctx: Ctx, userId: string, guildIds: ReadonlySet<string>) {
  const rows = await ctx.repos.readStates.ofUser(userId);
  const channels = await channelsOf(ctx, rows);
  const entries = await Promise.all(
    rows
      .sort((a, b) => b.version - a.version)
      .map(async (r, i): Promise<ReadStateEntry> => {
        const ch = channels.get(r.channel_id);
        // Channels gone or of guilds left count nothing (and say nothing about what was posted there since).
        const visible = ch && (ch.guild_id ? guildIds.has(ch.guild_id) : ch.recipients?.includes(userId));
        const counted = visible && i < READY_COUNTED_ENTRIES && ch.last_message_id !== r.last_message_id;
        const count = r.manual_mention_count ?? (counted ? await countMentions(ctx, userId, r.channel_id, ch.guild_id, r.last_message_id) : 0);
        return {
          id: r.channel_id,
          last_message_id: r.last_message_id,
          mention_count: count,
          last_pin_timestamp: r.last_pin_timestamp == null ? null : new Date(r.last_pin_timestamp).toISOString(),
          flags: r.flags,
        };
      }),
  );
  return { version: entries.length ? Math.max(...rows.map((r) => r.version)) : 0, partial: false, entries };
}

async function channelsOf(ctx: Ctx, rows: ReadStateRecord[]): Promise<Map<string, ChannelRecord>> {
  const found = await Promise.all(rows.map((r) => ctx.repos.channels.byId(r.channel_id)));
  return new Map(found.filter((c): c is ChannelRecord => c !== null).map((c) => [c.id, c]));
}

import type { Ctx } from '../services/context.js';
import type { BusEvent } from '../bus/bus.js';
import type { Session } from './session.js';
import { presenceAudience } from '../services/social/relationships/model.js';
import { dmChannelsOf } from '../services/channels/dms.js';

/**
 * Who gets a guild member's PRESENCE_UPDATE (userdoccers `gateway-events.mdx` "Presence Update", `guild-subscriptions.mdx`):
 *
 * - Bots: every member's, with the GUILD_PRESENCES intent (the dispatcher's intent check).
 * - People, in guilds up to their `large_threshold`: every member's, as before.
 * - People, in guilds above it: only presences they are subscribed to: their own, their friends' and the people
 *   they have a DM with (the platform subscribes those automatically), and the members they asked for with op 8
 *   and `presences: true` (all of them for `query: ""`, `limit: 0`; the web client's member list does that).
 *
 * So N people joining a large guild cost N presence dispatches, not N²/2. Friends also get every change without
 * `guild_id` (gateway/social.ts), whatever the guild's size.
 */

/** Per session and guild: the members whose presences it asked for ('all', or their ids). */
const subscriptions = new WeakMap<Session, Map<string, Set<string> | 'all'>>();

/** Op 8 with `presences: true`: the session follows these members' presences in that guild from now on. */
export function subscribePresences(s: Session, guildId: string, userIds: string[] | 'all'): void {
  let byGuild = subscriptions.get(s);
  if (!byGuild) subscriptions.set(s, (byGuild = new Map()));
  const current = byGuild.get(guildId);
  if (current === 'all') return;
  if (userIds === 'all') return void byGuild.set(guildId, 'all');
  const set = current ?? new Set<string>();
  for (const id of userIds) set.add(id);
  byGuild.set(guildId, set);
}

/** What a session follows, as data: kept in its checkpoints so a rebuild on another node follows the same. */
export function presenceFollows(s: Session): { guildId: string; users: string[] | 'all' }[] {
  return [...(subscriptions.get(s) ?? [])].map(([guildId, users]) => ({ guildId, users: users === 'all' ? 'all' : [...users] }));
}

/**
 * For a guild's PRESENCE_UPDATE, the test a session must pass to receive it; null for any other event (no filter).
 * The guild's size and the member's friends and DM partners are read once per event, not per session.
 */
export async function presenceRecipients(ctx: Ctx, e: BusEvent): Promise<((s: Session) => boolean) | null> {
  if (e.t !== 'PRESENCE_UPDATE' || !e.guild_id || e.user_ids) return null;
  const guildId = e.guild_id;
  const userId = String(e.d?.user?.id ?? '');
  const memberCount = await ctx.access.memberCount(guildId);
  // Friends and DM partners; not needed when the guild is under the lowest large_threshold (50).
  const auto = memberCount > 50 ? await audienceOf(ctx, userId) : new Set<string>();
  return (s) => {
    if (s.isBot || memberCount <= s.largeThreshold || s.userId === userId || auto.has(s.userId)) return true;
    const sub = subscriptions.get(s)?.get(guildId);
    return sub === 'all' || !!sub?.has(userId);
  };
}

/**
 * A user's friends and DM partners, kept a few seconds: a presence storm (a guild's members connecting, or sessions
 * rebuilt on another node) asks for the same users again and again. A new friend's guild presences may thus start a
 * few seconds late; friends get presence changes without guild_id at once anyway (gateway/social.ts).
 */
const AUDIENCE_TTL_MS = 10_000;
const audiences = new WeakMap<Ctx, Map<string, { at: number; set: Promise<Set<string>> }>>();

function audienceOf(ctx: Ctx, userId: string): Promise<Set<string>> {
  let byUser = audiences.get(ctx);
  if (!byUser) audiences.set(ctx, (byUser = new Map()));
  const now = performance.now();
  const hit = byUser.get(userId);
  if (hit && now - hit.at < AUDIENCE_TTL_MS) return hit.set;
  if (byUser.size > 50_000) byUser.clear();
  const set = Promise.all([presenceAudience(ctx, userId), dmChannelsOf(ctx, userId)]).then(
    ([friends, dms]) => new Set([...friends, ...dms.flatMap((c) => c.recipients ?? []).filter((id) => id !== userId)]),
  );
  byUser.set(userId, { at: now, set });
  set.catch(() => byUser!.delete(userId));
  return set;
}

import { onlineCount } from '../../bus/presence-state.js';
import type { Actor, Ctx } from '../context.js';
import { Errors, formError } from '../../core/errors.js';
import { checkId, isId } from '../../core/ids.js';
import { P } from '@accord/protocol';
import type { ChannelRecord, GuildRecord, MemberRecord, RoleRecord } from '../../store/records.js';
import { member as memberWire } from '../../wire/member.js';
import { getUser } from '../identity/users.js';

export async function getGuildRecord(ctx: Ctx, guildId: string): Promise<GuildRecord | null> {
  if (!isId(guildId)) return null;
  return ctx.repos.guilds.byId(guildId);
}

export async function requireGuildRecord(ctx: Ctx, guildId: string): Promise<GuildRecord> {
  const g = await getGuildRecord(ctx, guildId);
  if (!g) throw Errors.unknownGuild();
  return g;
}

/** Every role of a guild, lowest first; on equal positions the older role ranks higher, as clients sort them. */
export async function guildRoles(ctx: Ctx, guildId: string): Promise<RoleRecord[]> {
  return (await ctx.repos.roles.ofGuild(guildId)).sort((a, b) => a.position - b.position || (BigInt(a.id) > BigInt(b.id) ? -1 : 1));
}

export async function getChannelRecord(ctx: Ctx, channelId: string): Promise<ChannelRecord | null> {
  if (!isId(channelId)) return null;
  return ctx.repos.channels.byId(channelId);
}

export const isAdmin = (perms: bigint) => (perms & P.ADMINISTRATOR) !== 0n;

/** The hierarchy between two members: the owner outranks everyone and is outranked by no one; else top roles decide, strictly. */
export async function outranks(ctx: Ctx, guildId: string, actorId: string, targetId: string): Promise<boolean> {
  const owner = await ctx.access.ownerId(guildId);
  if (targetId === owner) return false;
  if (actorId === owner) return true;
  return (await ctx.access.topPosition(guildId, actorId)) > (await ctx.access.topPosition(guildId, targetId));
}

export async function requireOutranks(ctx: Ctx, guildId: string, actorId: string, targetId: string): Promise<void> {
  if (!(await outranks(ctx, guildId, actorId, targetId))) throw Errors.missingPermissions();
}

/** A non-owner can only manage roles strictly below their highest role. */
export async function requireRoleBelow(ctx: Ctx, guildId: string, actorId: string, position: number): Promise<void> {
  if (position >= (await ctx.access.topPosition(guildId, actorId))) throw Errors.missingPermissions();
}

/** The member object with its user, as GUILD_MEMBER_UPDATE and the member routes return it. */
export async function memberView(ctx: Ctx, m: MemberRecord) {
  return memberWire(m, await getUser(ctx, m.user_id), { now: ctx.clock.now() });
}

/** Counts for `with_counts`: members from the store, presences (online, idle, dnd) from the Gateway's presence state. */
export async function guildCounts(ctx: Ctx, guildId: string): Promise<{ members: number; presences: number }> {
  const ids = await ctx.repos.members.userIdsOf(guildId);
  return { members: ids.length, presences: onlineCount(ctx.presences, ids) };
}

export async function getMember(ctx: Ctx, guildId: string, userId: string): Promise<MemberRecord | null> {
  return ctx.repos.members.get(guildId, userId);
}

export async function requireMember(ctx: Ctx, guildId: string, userId: string): Promise<MemberRecord> {
  const m = await getMember(ctx, guildId, userId);
  if (!m) throw Errors.unknownMember();
  return m;
}

/** The caller's permissions in the guild; unknown guild (10004) when it is not a member, 50013 without `needed`. */
export async function requireGuildPerms(ctx: Ctx, actor: Actor, guildId: string, needed: bigint = 0n): Promise<bigint> {
  checkId(guildId, Errors.unknownGuild);
  return ctx.access.requireGuild(guildId, actor.user.id, needed);
}

/** Channel ids that must be channels of this guild (not threads), reported as 50035 leaves. */
export async function checkGuildChannels(ctx: Ctx, guildId: string, refs: { path: (string | number)[]; id: string }[]): Promise<void> {
  if (!refs.length) return;
  const ids = [...new Set(refs.map((r) => r.id))].filter(isId);
  const known = new Set(await ctx.repos.channels.guildChannelIdsAmong(guildId, ids));
  const bad = refs.filter((r) => !known.has(r.id));
  if (bad.length) throw formError(bad.map((r) => ({ path: r.path, code: 'CHANNEL_INVALID', message: 'Invalid channel.' })));
}

import type { Ctx } from '../context.js';
import { Errors, type ApiError } from '../core/errors.js';
import { P } from '../core/permissions.js';
import { toChannel, toGuild, toRole } from '../store/repos/mappers.js';
import type { ChannelRecord, GuildRecord, MemberRecord, RoleRecord } from '../store/records.js';
import { member as memberWire } from '../wire/member.js';
import { getUser } from './users.js';

const MAX_BIGINT = 1n << 63n;

/** An id we may hand to the database: digits that fit a signed BIGINT (PostgreSQL refuses larger values). */
export function isId(v: unknown): v is string {
  return typeof v === 'string' && /^\d{1,20}$/.test(v) && BigInt(v) < MAX_BIGINT;
}

/** Path ids: a malformed one is reported like an unknown one, never as a 500. */
export function checkId(v: string | undefined, unknown: () => ApiError): string {
  if (!isId(v)) throw unknown();
  return v;
}

export async function getGuildRecord(ctx: Ctx, guildId: string): Promise<GuildRecord | null> {
  if (!isId(guildId)) return null;
  const row = await ctx.db.selectFrom('guilds').selectAll().where('id', '=', guildId).executeTakeFirst();
  return row ? toGuild(row) : null;
}

export async function requireGuildRecord(ctx: Ctx, guildId: string): Promise<GuildRecord> {
  const g = await getGuildRecord(ctx, guildId);
  if (!g) throw Errors.unknownGuild();
  return g;
}

/** Every role of a guild, lowest first; on equal positions the older role ranks higher, as clients sort them. */
export async function guildRoles(ctx: Ctx, guildId: string): Promise<RoleRecord[]> {
  const rows = await ctx.db.selectFrom('roles').selectAll().where('guild_id', '=', guildId).execute();
  return rows.map(toRole).sort((a, b) => a.position - b.position || (BigInt(a.id) > BigInt(b.id) ? -1 : 1));
}

export async function getChannelRecord(ctx: Ctx, channelId: string): Promise<ChannelRecord | null> {
  if (!isId(channelId)) return null;
  const row = await ctx.db.selectFrom('channels').selectAll().where('id', '=', channelId).executeTakeFirst();
  return row ? toChannel(row) : null;
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

/** Counts for `with_counts`: members from the store; presences are the gateway's and not visible here. */
export async function guildCounts(ctx: Ctx, guildId: string): Promise<{ members: number; presences: number }> {
  const r = await ctx.db.selectFrom('members').select((eb) => eb.fn.countAll<number>().as('n')).where('guild_id', '=', guildId).executeTakeFirst();
  return { members: Number(r?.n ?? 0), presences: 0 };
}

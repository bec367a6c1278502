import type { Actor, Ctx } from '../context.js';
import { Errors, fieldError } from '../../core/errors.js';
import { P } from '@accord/protocol';
import { member as memberWire } from '../../wire/member.js';
import type { MemberRecord } from '../../store/records.js';
import { APP_FLAGS, applicationOfBot } from '../identity/applications.js';
import { guildRoles, isAdmin, memberView, outranks, requireOutranks } from './lookup.js';
import { checkId, isId } from '../../core/ids.js';
import { removeMember } from './membership.js';
import { getMember } from './lookup.js';
import { requireRole } from './roles.js';
import { getUsers } from '../identity/users.js';
import { voiceStates } from '../voice/states.js';
import { AuditLogEvent, auditMemberChange, writeAuditLog } from '../moderation/audit-log.js';
import { automodCheckMember } from '../moderation/automod.js';

const MAX_TIMEOUT_MS = 28 * 86400_000;
/** The only member flag a moderator may set: BYPASSES_VERIFICATION. */
const EDITABLE_FLAGS = 1 << 2;

const selfId = (actor: Actor, userId: string) => (userId === '@me' ? actor.user.id : userId);

function need(ctx: Ctx, perms: bigint, bit: bigint): void {
  if (!ctx.access.hasPerm(perms, bit)) throw Errors.missingPermissions();
}

async function requireMemberOf(ctx: Ctx, guildId: string, userId: string): Promise<MemberRecord> {
  checkId(userId, Errors.unknownMember);
  const m = await getMember(ctx, guildId, userId);
  if (!m) throw Errors.unknownMember();
  return m;
}

async function renderMembers(ctx: Ctx, members: MemberRecord[]) {
  const users = await getUsers(
    ctx,
    members.map((m) => m.user_id),
  );
  const now = ctx.clock.now();
  return members.map((m) => memberWire(m, users.get(m.user_id) ?? null, { now }));
}

/** Writes a member's changed fields and tells the guild. */
async function saveMember(ctx: Ctx, guildId: string, userId: string, values: Record<string, unknown>) {
  await ctx.repos.members.patch(guildId, userId, values);
  const out = await memberView(ctx, (await getMember(ctx, guildId, userId))!);
  ctx.bus.publish({ t: 'GUILD_MEMBER_UPDATE', d: { guild_id: guildId, ...out }, guild_id: guildId });
  return out;
}

export async function viewMember(ctx: Ctx, actor: Actor, guildId: string, userId: string) {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id);
  return memberView(ctx, await requireMemberOf(ctx, guildId, selfId(actor, userId)));
}

/** GET /guilds/{id}/members: by user id; bots need the server members intent enabled on their app. */
export async function listMembers(ctx: Ctx, actor: Actor, guildId: string, q: { limit?: number; after?: string }) {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id);
  if (actor.kind === 'bot') {
    const app = await applicationOfBot(ctx, actor.user.id);
    if (!app || !(app.flags & (APP_FLAGS.GATEWAY_GUILD_MEMBERS | APP_FLAGS.GATEWAY_GUILD_MEMBERS_LIMITED))) throw Errors.missingAccess();
  }
  if (q.after !== undefined && !isId(q.after)) return [];
  const rows = await ctx.repos.members.pageIn(guildId, q.after ?? '0', q.limit ?? 1);
  return renderMembers(ctx, rows);
}

/** GET /guilds/{id}/members/search: case-insensitive prefix of username, display name or nick. */
export async function searchMembers(ctx: Ctx, actor: Actor, guildId: string, q: { query: string; limit?: number }) {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id);
  const rows = await ctx.repos.members.searchByNamePrefix(guildId, q.query, q.limit ?? 1);
  return renderMembers(ctx, rows);
}

export interface MemberPatch {
  nick?: string | null;
  roles?: string[] | null;
  mute?: boolean | null;
  deaf?: boolean | null;
  channel_id?: string | null;
  communication_disabled_until?: string | null;
  flags?: number | null;
}

/** PATCH /guilds/{id}/members/{user_id}: each field has its own permission; all are checked before anything is written. */
export async function updateMember(ctx: Ctx, actor: Actor, guildId: string, userId: string, patch: MemberPatch) {
  checkId(guildId, Errors.unknownGuild);
  const perms = await ctx.access.requireGuild(guildId, actor.user.id);
  const target = await requireMemberOf(ctx, guildId, selfId(actor, userId));
  const self = target.user_id === actor.user.id;
  const values: Record<string, unknown> = {};

  if (patch.nick !== undefined) {
    if (self) {
      if (!ctx.access.hasPerm(perms, P.CHANGE_NICKNAME) && !ctx.access.hasPerm(perms, P.MANAGE_NICKNAMES)) throw Errors.missingPermissions();
    } else {
      need(ctx, perms, P.MANAGE_NICKNAMES);
      await requireOutranks(ctx, guildId, actor.user.id, target.user_id);
    }
    values.nick = patch.nick || null;
  }
  if (patch.roles != null) {
    need(ctx, perms, P.MANAGE_ROLES);
    const roles = new Map((await guildRoles(ctx, guildId)).map((r) => [r.id, r]));
    const desired = [...new Set(patch.roles)].filter((id) => id !== guildId);
    if (desired.some((id) => !roles.has(id))) throw Errors.unknownRole();
    const current = target.roles.filter((id) => roles.has(id));
    const changed = [...desired.filter((id) => !current.includes(id)), ...current.filter((id) => !desired.includes(id))].map((id) => roles.get(id)!);
    const top = await ctx.access.topPosition(guildId, actor.user.id);
    if (changed.some((r) => r.managed || r.position >= top)) throw Errors.missingPermissions();
    values.roles = JSON.stringify(desired);
  }
  if (patch.mute != null) {
    need(ctx, perms, P.MUTE_MEMBERS);
    values.mute = patch.mute ? 1 : 0;
  }
  if (patch.deaf != null) {
    need(ctx, perms, P.DEAFEN_MEMBERS);
    values.deaf = patch.deaf ? 1 : 0;
  }
  if (patch.channel_id !== undefined) {
    need(ctx, perms, P.MOVE_MEMBERS);
    await voiceStates(ctx).checkMove(actor, guildId, target.user_id, patch.channel_id); // 40032 when not connected; target needs CONNECT
  }
  if (patch.communication_disabled_until !== undefined) {
    need(ctx, perms, P.MODERATE_MEMBERS);
    const targetPerms = (await ctx.access.guildPerms(guildId, target.user_id)) ?? 0n;
    if (isAdmin(targetPerms)) throw Errors.missingPermissions();
    await requireOutranks(ctx, guildId, actor.user.id, target.user_id);
    let until: number | null = null;
    if (patch.communication_disabled_until !== null) {
      until = Date.parse(patch.communication_disabled_until);
      if (Number.isNaN(until)) throw fieldError('communication_disabled_until', 'DATE_TYPE_PARSE', 'Could not parse the date.');
      if (until > ctx.clock.now() + MAX_TIMEOUT_MS) {
        throw fieldError('communication_disabled_until', 'COMMUNICATION_DISABLED_UNTIL_TOO_FAR', 'The timeout cannot be more than 28 days in the future.');
      }
    }
    values.communication_disabled_until = until;
  }
  if (patch.flags != null) {
    const mod = P.MODERATE_MEMBERS | P.KICK_MEMBERS | P.BAN_MEMBERS;
    if (!ctx.access.hasPerm(perms, P.MANAGE_GUILD) && !ctx.access.hasPerm(perms, P.MANAGE_ROLES) && !ctx.access.hasPerm(perms, mod))
      throw Errors.missingPermissions();
    values.flags = (target.flags & ~EDITABLE_FLAGS) | (patch.flags & EDITABLE_FLAGS);
  }

  await voiceStates(ctx).memberPatched(actor, guildId, target.user_id, patch); // server mute/deaf, move, disconnect
  if (!Object.keys(values).length) return memberView(ctx, target);
  const out = await saveMember(ctx, guildId, target.user_id, values);
  await auditMemberChange(ctx, actor.user.id, guildId, target, values); // MEMBER_UPDATE / MEMBER_ROLE_UPDATE
  if ('nick' in values) await automodCheckMember(ctx, guildId, target.user_id); // MEMBER_PROFILE rules
  return out;
}

/** PATCH /guilds/{id}/members/@me (and the deprecated /@me/nick): the caller's own nickname. */
export async function updateOwnNick(ctx: Ctx, actor: Actor, guildId: string, nick: string | null | undefined) {
  return updateMember(ctx, actor, guildId, '@me', nick === undefined ? {} : { nick });
}

/** PUT/DELETE /guilds/{id}/members/{user_id}/roles/{role_id}: MANAGE_ROLES, an unmanaged role below the caller. */
export async function setMemberRole(ctx: Ctx, actor: Actor, guildId: string, userId: string, roleId: string, add: boolean): Promise<void> {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id, P.MANAGE_ROLES);
  const target = await requireMemberOf(ctx, guildId, selfId(actor, userId));
  const role = await requireRole(ctx, guildId, roleId);
  if (role.id === guildId) throw Errors.unknownRole();
  if (role.managed) throw Errors.missingPermissions();
  if (role.position >= (await ctx.access.topPosition(guildId, actor.user.id))) throw Errors.missingPermissions();
  const has = target.roles.includes(role.id);
  if (has === add) return;
  const roles = add ? [...target.roles, role.id] : target.roles.filter((r) => r !== role.id);
  await saveMember(ctx, guildId, target.user_id, { roles: JSON.stringify(roles) });
  await auditMemberChange(ctx, actor.user.id, guildId, target, { roles: JSON.stringify(roles) });
}

/** DELETE /guilds/{id}/members/{user_id}: KICK_MEMBERS and a higher rank; the owner cannot be kicked. */
export async function kickMember(ctx: Ctx, actor: Actor, guildId: string, userId: string): Promise<void> {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id, P.KICK_MEMBERS);
  const target = await requireMemberOf(ctx, guildId, selfId(actor, userId));
  if (!(await outranks(ctx, guildId, actor.user.id, target.user_id))) throw Errors.missingPermissions();
  await removeMember(ctx, guildId, target.user_id);
  await writeAuditLog(ctx, { guildId, userId: actor.user.id, actionType: AuditLogEvent.MEMBER_KICK, targetId: target.user_id });
}

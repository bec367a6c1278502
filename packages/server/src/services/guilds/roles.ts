import type { Actor, Ctx } from '../context.js';
import { Errors } from '../../core/errors.js';
import { ALL_PERMISSIONS, P } from '@accord/protocol';
import { role as roleWire } from '../../wire/role.js';
import type { RoleRecord } from '../../store/records.js';
import { toRole } from '../../store/repos/mappers.js';
import { guildRoles, requireGuildRecord, requireRoleBelow } from './lookup.js';
import { checkId } from '../../core/ids.js';
import { checkRoleIcon, resolveColors, type ColorsInput } from './role-colors.js';
import { AuditLogEvent, auditChanges, writeAuditLog } from '../moderation/audit-log.js';

const MAX_ROLES = 250;

export interface RoleInput extends ColorsInput {
  name?: string | null;
  permissions?: string | null;
  hoist?: boolean | null;
  icon?: string | null;
  unicode_emoji?: string | null;
  mentionable?: boolean | null;
}

const maskPerms = (v: string) => BigInt(v) & ALL_PERMISSIONS;

export async function requireRole(ctx: Ctx, guildId: string, roleId: string): Promise<RoleRecord> {
  checkId(roleId, Errors.unknownRole);
  const role = await ctx.repos.roles.inGuild(guildId, roleId);
  if (!role) throw Errors.unknownRole();
  return role;
}

export async function listRoles(ctx: Ctx, actor: Actor, guildId: string) {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id);
  return (await guildRoles(ctx, guildId)).map(roleWire);
}

export async function getRole(ctx: Ctx, actor: Actor, guildId: string, roleId: string) {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id);
  return roleWire(await requireRole(ctx, guildId, roleId));
}

/** POST /guilds/{id}/roles: MANAGE_ROLES; the new role lands just above @everyone and the rest move up one. */
export async function createRole(ctx: Ctx, actor: Actor, guildId: string, input: RoleInput) {
  checkId(guildId, Errors.unknownGuild);
  const perms = await ctx.access.requireGuild(guildId, actor.user.id, P.MANAGE_ROLES);
  const guild = await requireGuildRecord(ctx, guildId);
  const roles = await guildRoles(ctx, guildId);
  if (roles.length >= MAX_ROLES) throw Errors.maxRoles();
  const everyone = roles.find((r) => r.id === guildId);
  const granted = input.permissions != null ? maskPerms(input.permissions) : (everyone?.permissions ?? 0n);
  if (granted & ~perms) throw Errors.missingPermissions();
  const colors = resolveColors(guild, { color: 0, secondary_color: null, tertiary_color: null }, input);
  checkRoleIcon(guild, input);

  const row = {
    id: ctx.ids.next(),
    guild_id: guildId,
    name: input.name ?? 'new role',
    permissions: granted.toString(),
    position: 1,
    color: colors.color,
    secondary_color: colors.secondary_color,
    tertiary_color: colors.tertiary_color,
    hoist: input.hoist ? 1 : 0,
    mentionable: input.mentionable ? 1 : 0,
    managed: 0,
    icon: input.icon ?? null,
    unicode_emoji: input.unicode_emoji ?? null,
    flags: 0,
    bot_id: null,
  };
  const shifted = roles.filter((r) => r.id !== guildId && r.position >= 1);
  await ctx.repos.transaction(async (tx) => {
    await tx.roles.setPositions(shifted.map((r) => ({ id: r.id, position: r.position + 1 })));
    await tx.roles.insertMany([row]);
  });
  const out = roleWire(toRole(row));
  ctx.bus.publish({ t: 'GUILD_ROLE_CREATE', d: { guild_id: guildId, role: out }, guild_id: guildId });
  await writeAuditLog(ctx, {
    guildId,
    userId: actor.user.id,
    actionType: AuditLogEvent.ROLE_CREATE,
    targetId: row.id,
    changes: auditChanges('role', null, out),
  });
  for (const r of shifted)
    ctx.bus.publish({ t: 'GUILD_ROLE_UPDATE', d: { guild_id: guildId, role: roleWire({ ...r, position: r.position + 1 }) }, guild_id: guildId });
  return out;
}

/**
 * PATCH /guilds/{id}/roles/{role_id}: MANAGE_ROLES, a role below the caller's highest, no permission the caller lacks.
 * Managed roles belong to their integration (only their position moves). @everyone keeps its name.
 */
export async function updateRole(ctx: Ctx, actor: Actor, guildId: string, roleId: string, input: RoleInput) {
  checkId(guildId, Errors.unknownGuild);
  const perms = await ctx.access.requireGuild(guildId, actor.user.id, P.MANAGE_ROLES);
  const role = await requireRole(ctx, guildId, roleId);
  if (role.managed) throw Errors.missingPermissions();
  const isEveryone = role.id === guildId;
  if (!isEveryone) await requireRoleBelow(ctx, guildId, actor.user.id, role.position);
  const guild = await requireGuildRecord(ctx, guildId);
  const nextPerms = input.permissions != null ? maskPerms(input.permissions) : role.permissions;
  if (nextPerms & ~role.permissions & ~perms) throw Errors.missingPermissions();
  const colors = resolveColors(guild, { color: role.color, secondary_color: role.secondary_color, tertiary_color: role.tertiary_color }, input);
  checkRoleIcon(guild, input);

  const v: Record<string, unknown> = { permissions: nextPerms.toString(), ...colors };
  if (input.name != null && !isEveryone) v.name = input.name;
  if (input.hoist != null) v.hoist = input.hoist ? 1 : 0;
  if (input.mentionable != null) v.mentionable = input.mentionable ? 1 : 0;
  if (input.icon !== undefined) v.icon = input.icon;
  if (input.unicode_emoji !== undefined) v.unicode_emoji = input.unicode_emoji;
  await ctx.repos.roles.patch(role.id, v);
  const out = roleWire(await requireRole(ctx, guildId, role.id));
  ctx.bus.publish({ t: 'GUILD_ROLE_UPDATE', d: { guild_id: guildId, role: out }, guild_id: guildId });
  await writeAuditLog(ctx, {
    guildId,
    userId: actor.user.id,
    actionType: AuditLogEvent.ROLE_UPDATE,
    targetId: role.id,
    changes: auditChanges('role', roleWire(role), out),
  });
  return out;
}

/** DELETE /guilds/{id}/roles/{role_id}: not @everyone, not managed, below the caller; members lose the role. */
export async function deleteRole(ctx: Ctx, actor: Actor, guildId: string, roleId: string): Promise<void> {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id, P.MANAGE_ROLES);
  const role = await requireRole(ctx, guildId, roleId);
  if (role.id === guildId) throw Errors.invalidRole();
  if (role.managed) throw Errors.missingPermissions();
  await requireRoleBelow(ctx, guildId, actor.user.id, role.position);
  const holders = await ctx.repos.members.holdersOf(guildId, role.id);
  await ctx.repos.transaction(async (tx) => {
    await tx.roles.deleteById(role.id);
    for (const h of holders)
      await tx.members.setRoles(
        guildId,
        h.user_id,
        h.roles.filter((r) => r !== role.id),
      );
  });
  ctx.bus.publish({ t: 'GUILD_ROLE_DELETE', d: { guild_id: guildId, role_id: role.id }, guild_id: guildId });
  await writeAuditLog(ctx, {
    guildId,
    userId: actor.user.id,
    actionType: AuditLogEvent.ROLE_DELETE,
    targetId: role.id,
    changes: auditChanges('role', roleWire(role), null),
  });
}

/**
 * PATCH /guilds/{id}/roles: moves roles. Positions are renumbered 1..n (a moved role goes above the one already at its
 * target when moving up, below it when moving down); every role that moves must stay below the caller's highest.
 */
export async function reorderRoles(ctx: Ctx, actor: Actor, guildId: string, list: { id: string; position?: number | null }[]) {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id, P.MANAGE_ROLES);
  const roles = await guildRoles(ctx, guildId);
  const byId = new Map(roles.map((r) => [r.id, r]));
  const wanted = new Map<string, number>();
  for (const item of list) {
    if (!byId.has(item.id)) throw Errors.unknownRole();
    if (item.id !== guildId && item.position != null) wanted.set(item.id, item.position);
  }
  const rank = (r: RoleRecord) => {
    const w = wanted.get(r.id);
    return w === undefined ? r.position : w + (w > r.position ? 0.5 : w < r.position ? -0.5 : 0);
  };
  const others = roles.filter((r) => r.id !== guildId);
  const order = others.map((r, i) => ({ r, key: rank(r), i })).sort((a, b) => a.key - b.key || a.i - b.i);
  const moved = order.map(({ r }, i) => ({ r, position: i + 1 })).filter(({ r, position }) => r.position !== position);
  if (!moved.length) return roles.map(roleWire);

  const top = await ctx.access.topPosition(guildId, actor.user.id);
  if (moved.some(({ r, position }) => r.position >= top || position >= top)) throw Errors.missingPermissions();
  await ctx.repos.roles.setPositions(moved.map((m) => ({ id: m.r.id, position: m.position })));
  for (const m of moved)
    ctx.bus.publish({ t: 'GUILD_ROLE_UPDATE', d: { guild_id: guildId, role: roleWire({ ...m.r, position: m.position }) }, guild_id: guildId });
  return (await guildRoles(ctx, guildId)).map(roleWire);
}

/** GET /guilds/{id}/roles/member-counts: role id -> members holding it (@everyone left out). */
export async function roleMemberCounts(ctx: Ctx, actor: Actor, guildId: string): Promise<Record<string, number>> {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id);
  const out: Record<string, number> = {};
  for (const r of await guildRoles(ctx, guildId)) if (r.id !== guildId) out[r.id] = 0;
  for (const roles of await ctx.repos.members.roleListsIn(guildId)) {
    for (const id of roles) if (id in out) out[id]++;
  }
  return out;
}

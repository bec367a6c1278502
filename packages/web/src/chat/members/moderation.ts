import { P } from '@accord/protocol';
import type { APIRole, Snowflake } from '../../lib/api/types.js';
import type { GuildState } from '../../lib/state/guild-state.js';
import { channelPermissions, has } from '../../lib/state/permissions.js';

/**
 * What the acting person may do to a member, by the rules the server applies: the permission, and ranking above the
 * target (the owner outranks everyone; otherwise the highest role's position must be higher). Controls for anything
 * else are not shown; the server decides for real.
 */
export interface MemberRights {
  kick: boolean;
  ban: boolean;
  /** Time out or remove a timeout (MODERATE_MEMBERS; never an administrator or the owner). */
  timeout: boolean;
  /** Roles the acting person may give or take (MANAGE_ROLES, below their highest role, not managed). */
  roles: APIRole[];
  /** Change the member's nickname (their own with CHANGE_NICKNAME, anyone's below with MANAGE_NICKNAMES). */
  nick: boolean;
}

const guildPerms = (g: GuildState, userId: Snowflake) => channelPermissions(g, userId, undefined);

/** The position of a member's highest role (0: @everyone only); the owner is above every role. */
export function topPosition(g: GuildState, userId: Snowflake): number {
  if (g.ownerId === userId) return Infinity;
  let top = 0;
  for (const id of g.members.get(userId)?.roles ?? []) top = Math.max(top, g.roles.get(id)?.position ?? 0);
  return top;
}

export function outranks(g: GuildState, actorId: Snowflake, targetId: Snowflake): boolean {
  if (actorId === targetId || g.ownerId === targetId) return false;
  return topPosition(g, actorId) > topPosition(g, targetId);
}

export function memberRights(g: GuildState, actorId: Snowflake, targetId: Snowflake): MemberRights {
  const perms = guildPerms(g, actorId);
  const above = outranks(g, actorId, targetId);
  const targetIsAdmin = g.ownerId === targetId || has(guildPerms(g, targetId), P.ADMINISTRATOR);
  const top = topPosition(g, actorId);
  const roles = has(perms, P.MANAGE_ROLES)
    ? [...g.roles.values()].filter((r) => r.id !== g.id && !r.managed && r.position < top).sort((a, b) => b.position - a.position)
    : [];
  const self = actorId === targetId;
  return {
    kick: above && has(perms, P.KICK_MEMBERS),
    ban: above && has(perms, P.BAN_MEMBERS),
    timeout: above && !targetIsAdmin && has(perms, P.MODERATE_MEMBERS),
    roles,
    nick: self ? has(perms, P.CHANGE_NICKNAME) || has(perms, P.MANAGE_NICKNAMES) : above && has(perms, P.MANAGE_NICKNAMES),
  };
}

/** When a member's timeout ends (ms), or null when they are not timed out now. */
export function timeoutEnd(until: string | null | undefined, now = Date.now()): number | null {
  const end = until ? Date.parse(until) : NaN;
  return end > now ? end : null;
}

export const roleColor = (r: { color: number }) => (r.color ? `#${r.color.toString(16).padStart(6, '0')}` : undefined);

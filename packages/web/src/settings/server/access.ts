import { P } from '@accord/protocol';
import type { APIRole, Snowflake } from '../../lib/api/types.js';
import type { GuildState } from '../../lib/state/guild-state.js';
import { channelPermissions, has } from '../../lib/state/permissions.js';

/**
 * What the person may do in the server settings: which sections they see and which roles they may edit. The
 * server checks every call again; this only hides what would be refused.
 */

export type SectionId = 'overview' | 'roles' | 'channels' | 'invites' | 'bans' | 'audit-log' | 'emojis';

export const SECTIONS: { id: SectionId; label: string; perm: bigint }[] = [
  { id: 'overview', label: 'Overview', perm: P.MANAGE_GUILD },
  { id: 'roles', label: 'Roles', perm: P.MANAGE_ROLES },
  { id: 'channels', label: 'Channels', perm: P.MANAGE_CHANNELS },
  { id: 'emojis', label: 'Emoji & Stickers', perm: P.MANAGE_GUILD_EXPRESSIONS },
  { id: 'invites', label: 'Invites', perm: P.MANAGE_GUILD },
  { id: 'bans', label: 'Bans', perm: P.BAN_MEMBERS },
  { id: 'audit-log', label: 'Audit Log', perm: P.VIEW_AUDIT_LOG },
];

/** Where the settings live: under /settings/ (the page paths the server answers with the client). */
export const settingsPath = (guildId: Snowflake, section?: SectionId) => `/settings/server/${guildId}${section ? `/${section}` : ''}`;

export const guildPermissions = (g: GuildState, userId: Snowflake) => channelPermissions(g, userId, undefined);

/** The sections this person may open, in menu order; none means no "Server Settings" entry at all. */
export function allowedSections(g: GuildState, userId: Snowflake) {
  const perms = guildPermissions(g, userId);
  return SECTIONS.filter((s) => has(perms, s.perm));
}

/** The position of the person's highest role (@everyone is 0). */
export function highestPosition(g: GuildState, userId: Snowflake): number {
  const ids = g.members.get(userId)?.roles ?? [];
  return Math.max(0, ...ids.map((id) => g.roles.get(id)?.position ?? 0));
}

/** Roles sorted as the settings list them: highest first, @everyone last. */
export const rolesTopDown = (g: GuildState): APIRole[] => [...g.roles.values()].sort((a, b) => b.position - a.position || Number(BigInt(a.id) - BigInt(b.id)));

/**
 * The hierarchy rule: a role strictly below your highest one may be edited (the owner may edit any). @everyone
 * counts as the bottom, so anyone with Manage Roles may edit it.
 */
export function canEditRole(g: GuildState, userId: Snowflake, role: APIRole): boolean {
  if (g.ownerId === userId) return true;
  if (!has(guildPermissions(g, userId), P.MANAGE_ROLES)) return false;
  return role.id === g.id || role.position < highestPosition(g, userId);
}

/** Permission bits the person may grant: everything for the owner and administrators, else what they have. */
export function grantable(g: GuildState, userId: Snowflake): bigint {
  const perms = guildPermissions(g, userId);
  return g.ownerId === userId || has(perms, P.ADMINISTRATOR) ? (1n << 64n) - 1n : perms;
}

/** A role's colour for its dot; 0 means none, shown grey as the official client does. */
export const roleColor = (r: APIRole) => (r.color ? `#${r.color.toString(16).padStart(6, '0')}` : '#99aab5');

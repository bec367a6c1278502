import type { RoleRecord } from '../store/records.js';

export function role(r: RoleRecord) {
  const tags: Record<string, unknown> = {};
  if (r.bot_id) tags.bot_id = r.bot_id;
  return {
    id: r.id,
    name: r.name,
    description: null,
    permissions: r.permissions.toString(),
    permissions_new: r.permissions.toString(),
    position: r.position,
    color: r.color,
    colors: { primary_color: r.color, secondary_color: r.secondary_color, tertiary_color: r.tertiary_color },
    hoist: r.hoist,
    managed: r.managed,
    mentionable: r.mentionable,
    icon: r.icon,
    unicode_emoji: r.unicode_emoji,
    flags: r.flags,
    ...(Object.keys(tags).length ? { tags } : {}),
  };
}

/** Get Channel Invites carries only these role fields. */
export function partialRole(r: RoleRecord) {
  const full = role(r);
  return { id: full.id, name: full.name, position: full.position, color: full.color, colors: full.colors, icon: full.icon, unicode_emoji: full.unicode_emoji };
}

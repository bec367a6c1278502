import type { RoleRecord } from '../store/records.js';
import { dropUndefined } from './drop-undefined.js';
import type { APIInviteRole } from 'discord-api-types/v10';
import type { AccordRole } from './extensions.js';

export function role(r: RoleRecord): AccordRole {
  return dropUndefined<AccordRole>({
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
    tags: r.bot_id ? { bot_id: r.bot_id } : undefined,
  });
}

/** Get Channel Invites carries only these role fields. */
export function partialRole(r: RoleRecord): APIInviteRole {
  const { id, name, position, color, colors } = role(r);
  return { id, name, position, color, colors, icon: r.icon, unicode_emoji: r.unicode_emoji };
}

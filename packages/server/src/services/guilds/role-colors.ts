import { ApiError, fieldError } from '../../core/errors.js';
import type { GuildRecord } from '../../store/records.js';

export interface ColorsInput {
  color?: number | null;
  colors?: { primary_color: number; secondary_color?: number | null; tertiary_color?: number | null } | null;
}
export interface RoleColors {
  color: number;
  secondary_color: number | null;
  tertiary_color: number | null;
}

/** Sending a tertiary colour selects the holographic style, whose colours are fixed. */
const HOLOGRAPHIC: RoleColors = { color: 11127295, secondary_color: 16759788, tertiary_color: 16761760 };

/**
 * Resolves `colors` and the deprecated `color` into one stored triple; `colors` wins when both are sent, and
 * `color` alone keeps the gradient parts, and null is no change. Gradients need the ENHANCED_ROLE_COLORS feature.
 */
export function resolveColors(guild: GuildRecord, cur: RoleColors, input: ColorsInput): RoleColors {
  if (input.colors) {
    const { primary_color, secondary_color = null, tertiary_color = null } = input.colors;
    if ((secondary_color !== null || tertiary_color !== null) && !guild.features.includes('ENHANCED_ROLE_COLORS')) {
      throw fieldError(
        ['colors', secondary_color !== null ? 'secondary_color' : 'tertiary_color'],
        'ROLE_COLORS_FEATURE_REQUIRED',
        'This server needs the ENHANCED_ROLE_COLORS feature to use gradient or holographic role colors.',
      );
    }
    if (tertiary_color !== null) return { ...HOLOGRAPHIC };
    return { color: primary_color, secondary_color, tertiary_color: null };
  }
  if (input.color !== undefined) return { ...cur, color: input.color ?? 0 };
  return cur;
}

/** Role icons (image or unicode emoji) need the ROLE_ICONS feature. */
export function checkRoleIcon(guild: GuildRecord, input: { icon?: string | null; unicode_emoji?: string | null }): void {
  if ((input.icon || input.unicode_emoji) && !guild.features.includes('ROLE_ICONS')) {
    throw new ApiError(400, 50101, 'This server needs more boosts to perform this action');
  }
}

import type { Actor, Ctx } from '../context.js';
import { requireGuildPerms } from '../guilds/lookup.js';

/** One process serves voice everywhere: a single optimal region (READY's geo_ordered_rtc_regions says the same). */
export const VOICE_REGIONS = [{ id: 'local', name: 'Local', custom: false, deprecated: false, optimal: true }];

/** GET /guilds/{id}/regions: members. */
export async function guildRegions(ctx: Ctx, actor: Actor, guildId: string) {
  await requireGuildPerms(ctx, actor, guildId);
  return VOICE_REGIONS;
}

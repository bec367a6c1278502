import type { APIEmoji, APISticker } from 'discord-api-types/v10';
import type { Ctx } from '../context.js';
import type { Repos } from '../../store/repos/index.js';
import { isId } from '../../core/ids.js';
import { guildEmojis } from '../expressions/emojis.js';
import { guildStickers } from '../expressions/stickers.js';
import { guildSounds } from '../expressions/soundboard.js';
import { guildEvents } from '../events/scheduled-events.js';
import { guildStageInstances, stageWire } from '../channels/stage-instances.js';

/**
 * What the guild object and GUILD_CREATE carry of the resources of migration 004, and their cleanup when a guild or a
 * channel goes. One entry point for the files that assemble guilds (wire/guild.ts callers, gateway/payloads.ts).
 */

/** `emojis` and `stickers` of the guild object. */
export async function guildExpressions(ctx: Ctx, guildId: string): Promise<{ emojis: APIEmoji[]; stickers: APISticker[] }> {
  const [emojis, stickers] = await Promise.all([guildEmojis(ctx, guildId), guildStickers(ctx, guildId)]);
  return { emojis, stickers };
}

/** GUILD_CREATE's `stage_instances`, `guild_scheduled_events` (those the viewer can see) and `soundboard_sounds`. */
export async function guildCreateResources(ctx: Ctx, guildId: string, viewerId: string) {
  const [stage_instances, guild_scheduled_events, soundboard_sounds] = await Promise.all([
    guildStageInstances(ctx, guildId),
    guildEvents(ctx, guildId, viewerId),
    guildSounds(ctx, guildId),
  ]);
  return { stage_instances, guild_scheduled_events, soundboard_sounds };
}

/** Removes everything migration 004 keeps for a guild (call inside the guild deletion's transaction). */
export async function deleteGuildResources(repos: Repos, guildId: string): Promise<void> {
  if (!isId(guildId)) return;
  await repos.expressions.deleteInGuild(guildId);
  await repos.scheduledEvents.deleteInGuild(guildId);
  await repos.channels.deleteStagesInGuild(guildId);
  await repos.moderation.deleteLogAndRulesOf(guildId);
}

/** A deleted stage channel is no longer live: its stage instance ends (STAGE_INSTANCE_DELETE). */
export async function channelRemoved(ctx: Ctx, guildId: string, channelId: string): Promise<void> {
  if (!isId(channelId)) return;
  const stage = await ctx.repos.channels.endStageIn(channelId);
  if (!stage) return;
  ctx.bus.publish({ t: 'STAGE_INSTANCE_DELETE', d: stageWire(stage), guild_id: guildId, channel_id: channelId });
}

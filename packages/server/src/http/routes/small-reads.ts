import { Routes, noContent } from '../router.js';
import { Errors } from '../../core/errors.js';
import { P } from '../../core/permissions.js';
import { checkId, guildCounts, requireGuildRecord } from '../../services/guilds-common.js';
import { guildEmojis } from '../../services/emojis.js';
import { guildStickers } from '../../services/stickers.js';
import { searchThreads } from '../../services/threads-search.js';
import { loadInteraction } from '../../services/interactions/store.js';
import { isSnowflake } from '../../core/snowflake.js';

/**
 * Small read-only operations of the spec that no other area covers: the guild preview, the new-member welcome
 * (Server Guide) settings, the list of member-verification join requests, thread search, and an Activity instance.
 */
export default new Routes()
  // A member may preview their guild; anyone may preview a DISCOVERABLE one.
  .get('/guilds/{guild_id}/preview', 'any', async ({ ctx, actor, params }) => {
    checkId(params.guild_id, Errors.unknownGuild);
    const guild = await requireGuildRecord(ctx, params.guild_id);
    if (!(await ctx.access.isMember(guild.id, actor.user.id)) && !guild.features.includes('DISCOVERABLE')) throw Errors.unknownGuild();
    const counts = await guildCounts(ctx, guild.id);
    return {
      id: guild.id,
      name: guild.name,
      icon: guild.icon,
      description: guild.description,
      home_header: null,
      splash: guild.splash,
      discovery_splash: null,
      features: guild.features,
      approximate_member_count: counts.members,
      approximate_presence_count: counts.presences,
      emojis: await guildEmojis(ctx, guild.id),
      stickers: await guildStickers(ctx, guild.id),
    };
  })
  // The Server Guide is not configurable here: members get 204, the spec's answer for a guild without one.
  .get('/guilds/{guild_id}/new-member-welcome', 'any', async ({ ctx, actor, params }) => {
    checkId(params.guild_id, Errors.unknownGuild);
    await ctx.access.requireGuild(params.guild_id, actor.user.id);
    return noContent();
  })
  // Member-verification applications do not exist here yet: an empty list, for those who may review them.
  .get('/guilds/{guild_id}/requests', 'any', async ({ ctx, actor, params }) => {
    checkId(params.guild_id, Errors.unknownGuild);
    const perms = await ctx.access.requireGuild(params.guild_id, actor.user.id);
    if (!ctx.access.hasPerm(perms, P.MANAGE_GUILD) && !ctx.access.hasPerm(perms, P.KICK_MEMBERS)) throw Errors.missingPermissions();
    return { guild_join_requests: [], total: 0 };
  })
  // An Activity instance (launched by a LAUNCH_ACTIVITY callback or an Entry Point command): its id names the launching
  // interaction, whose record says where it runs and who launched it. Only the launcher is tracked as a participant.
  .get('/applications/{application_id}/activity-instances/{instance_id}', 'bot', async ({ ctx, actor, params }) => {
    const notFound = () => Errors.notFound();
    if (actor.applicationId !== params.application_id) throw Errors.missingAccess();
    const m = /^i-(\d{1,20})-/.exec(params.instance_id);
    if (!m || !isSnowflake(m[1])) throw notFound();
    const rec = await loadInteraction(ctx, m[1]);
    if (!rec || rec.application_id !== params.application_id || rec.data.activity_instance_id !== params.instance_id || !rec.channel_id) throw notFound();
    const location = rec.guild_id
      ? { id: `gc-${rec.guild_id}-${rec.channel_id}`, kind: 'gc' as const, channel_id: rec.channel_id, guild_id: rec.guild_id }
      : { id: `pc-${rec.channel_id}`, kind: 'pc' as const, channel_id: rec.channel_id };
    return { application_id: rec.application_id, instance_id: params.instance_id, launch_id: rec.id, location, users: [rec.user_id] };
  })
  .get('/channels/{channel_id}/threads/search', 'any', async ({ ctx, actor, params, query }) => searchThreads(ctx, actor, params.channel_id, query));

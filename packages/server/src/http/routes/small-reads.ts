import { Routes, noContent } from '../router.js';
import { Errors } from '../../core/errors.js';
import { guildCounts, requireGuildRecord } from '../../services/guilds/lookup.js';
import { checkId } from '../../core/ids.js';
import { guildEmojis } from '../../services/expressions/emojis.js';
import { guildStickers } from '../../services/expressions/stickers.js';
import { searchThreads } from '../../services/channels/threads/search.js';
import { getHomeSettings, putHomeSettings, putIncidentActions } from '../../services/guilds/home-and-incidents.js';
import { actionJoinRequest, listJoinRequests, submitJoinRequest } from '../../services/guilds/join-requests.js';

/**
 * Small operations of the spec that no other area covers: the guild preview, the Server Guide (new-member welcome),
 * incident actions, member-verification join requests, and thread search (Activity instances: routes/activities.ts).
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
  // The Server Guide: 204 until a guide is set (PUT, MANAGE_GUILD).
  .get('/guilds/{guild_id}/new-member-welcome', 'any', async ({ ctx, actor, params }) => (await getHomeSettings(ctx, actor, params.guild_id)) ?? noContent())
  .put('/guilds/{guild_id}/new-member-welcome', 'any', async ({ ctx, actor, params, body }) => putHomeSettings(ctx, actor, params.guild_id, body))
  .put('/guilds/{guild_id}/incident-actions', 'any', async ({ ctx, actor, params, body }) => putIncidentActions(ctx, actor, params.guild_id, body))
  // Member-verification join requests: applicants apply, moderators list and act.
  .put('/guilds/{guild_id}/requests/@me', 'user', async ({ ctx, actor, params, body }) => submitJoinRequest(ctx, actor, params.guild_id, body))
  .get('/guilds/{guild_id}/requests', 'any', async ({ ctx, actor, params, query }) => listJoinRequests(ctx, actor, params.guild_id, query))
  .patch('/guilds/{guild_id}/requests/{request_id}', 'any', async ({ ctx, actor, params, body }) =>
    actionJoinRequest(ctx, actor, params.guild_id, params.request_id, body),
  )
  .get('/channels/{channel_id}/threads/search', 'any', async ({ ctx, actor, params, query }) => searchThreads(ctx, actor, params.channel_id, query));

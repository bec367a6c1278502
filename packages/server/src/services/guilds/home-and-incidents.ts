import { z } from 'zod';
import type { Actor, Ctx } from '../context.js';
import { ApiError, Errors } from '../../core/errors.js';
import { checkId } from '../../core/ids.js';
import { parseBody, snowflake } from '../../core/validation.js';
import { P } from '@accord/protocol';
import { checkGuildChannels, requireGuildPerms, requireGuildRecord } from './lookup.js';
import { getSetting, incidentsData, putSetting } from './settings.js';
import { renderGuild } from './guild.js';

/**
 * Two guild settings the spec reads: the Server Guide (home settings, `GET /guilds/{id}/new-member-welcome`, written
 * with `PUT` by MANAGE_GUILD; 204 until a guide is set) and the incident actions (`PUT /guilds/{id}/incident-actions`:
 * invites and DMs paused until a time at most 24 hours ahead; shown as the guild's `incidents_data`).
 */
const Emoji = z.object({ id: snowflake.nullish(), name: z.string().max(32).nullish(), animated: z.boolean().nullish() }).optional();
const HomeSettings = z.object({
  enabled: z.boolean(),
  welcome_message: z.object({ author_ids: z.array(snowflake).max(5), message: z.string().max(300) }).optional(),
  new_member_actions: z
    .array(
      z.object({
        channel_id: snowflake,
        action_type: z.union([z.literal(0), z.literal(1)]),
        title: z.string().min(1).max(60),
        description: z.string().max(200),
        emoji: Emoji,
        icon: z.string().optional(),
      }),
    )
    .max(5)
    .default([]),
  resource_channels: z
    .array(z.object({ channel_id: snowflake, title: z.string().min(1).max(30), description: z.string().max(200), emoji: Emoji, icon: z.string().optional() }))
    .max(7)
    .default([]),
});

/** GET /guilds/{id}/new-member-welcome: members; null (204) until the guild has a Server Guide. */
export async function getHomeSettings(ctx: Ctx, actor: Actor, guildId: string) {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id);
  const s = await getSetting(ctx, guildId, 'home_settings');
  return s ? { guild_id: guildId, ...s } : null;
}

/** PUT /guilds/{id}/new-member-welcome: MANAGE_GUILD; every channel must be the guild's. */
export async function putHomeSettings(ctx: Ctx, actor: Actor, guildId: string, body: unknown) {
  await requireGuildPerms(ctx, actor, guildId, P.MANAGE_GUILD);
  const input = parseBody(HomeSettings, body);
  await checkGuildChannels(ctx, guildId, [
    ...input.new_member_actions.map((a, i) => ({ path: ['new_member_actions', i, 'channel_id'], id: a.channel_id })),
    ...input.resource_channels.map((c, i) => ({ path: ['resource_channels', i, 'channel_id'], id: c.channel_id })),
  ]);
  await putSetting(ctx, guildId, 'home_settings', input);
  return { guild_id: guildId, ...input };
}

const MAX_PAUSE_MS = 24 * 3600_000;
const Until = z.string().datetime({ offset: true }).nullish();
const Incidents = z.object({ invites_disabled_until: Until, dms_disabled_until: Until });

/** PUT /guilds/{id}/incident-actions: MANAGE_GUILD; each pause ends at most 24 hours ahead; null lifts it. */
export async function putIncidentActions(ctx: Ctx, actor: Actor, guildId: string, body: unknown) {
  await requireGuildPerms(ctx, actor, guildId, P.MANAGE_GUILD);
  const input = parseBody(Incidents, body);
  const norm = (v: string | null | undefined, field: string) => {
    if (!v) return null;
    const t = Date.parse(v);
    if (t > ctx.clock.now() + MAX_PAUSE_MS)
      throw new ApiError(400, 50035, 'Invalid Form Body', {
        [field]: { _errors: [{ code: 'BASE_TYPE_BAD_TIME', message: 'The time must be at most 24 hours in the future.' }] },
      });
    return new Date(t).toISOString();
  };
  const next = {
    invites_disabled_until: norm(input.invites_disabled_until, 'invites_disabled_until'),
    dms_disabled_until: norm(input.dms_disabled_until, 'dms_disabled_until'),
  };
  await putSetting(ctx, guildId, 'incidents', next);
  const g = await requireGuildRecord(ctx, guildId);
  ctx.bus.publish({ t: 'GUILD_UPDATE', d: await renderGuild(ctx, g), guild_id: guildId });
  const live = await incidentsData(ctx, guildId);
  return live ?? { invites_disabled_until: null, dms_disabled_until: null };
}

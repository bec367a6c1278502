import type { Ctx } from '../services/context.js';
import type { Session } from './session.js';
import type { PresenceState as Presences } from './presence.js';
import { toChannel, toGuild, toMember, toRole } from '../store/repos/mappers.js';
import { guild as guildWire } from '../wire/guild.js';
import { channel as channelWire } from '../wire/channel.js';
import { member as memberWire } from '../wire/member.js';
import { selfUser, publicUser } from '../wire/user.js';
import { getUsers } from '../services/identity/users.js';
import { applicationOfBot } from '../services/identity/applications.js';
import { I } from '@accord/protocol';
import { voiceStates } from '../services/voice/states.js';
import { guildCreateChannels } from './obfuscation.js';
import { guildCreateResources, guildExpressions } from '../services/guilds/resources.js';
import { runningInGuild } from '../services/activities/instances.js';

/** READY for a new session. Guilds arrive as unavailable stubs, each followed by its GUILD_CREATE. */
export async function readyPayload(ctx: Ctx, s: Session, resumeUrl: string) {
  const app = s.isBot ? await applicationOfBot(ctx, s.userId) : null;
  const privateChannels = s.isBot ? [] : await dmChannels(ctx, s.userId);
  return {
    v: 10,
    user: { ...selfUser(s.actor.user, { email: !s.isBot, premium: !s.isBot }), ...(s.isBot ? { email: null } : {}) },
    user_settings: {},
    guilds: [...s.guildIds].map((id) => ({ id, unavailable: true })),
    session_id: s.id,
    session_type: 'normal',
    resume_gateway_url: resumeUrl,
    shard: s.shard,
    ...(app ? { application: { id: app.id, flags: Number(app.flags & 0x7fffffffn), flags_new: app.flags.toString() } } : {}),
    relationships: [],
    private_channels: privateChannels,
    presences: [],
    guild_join_requests: [],
    geo_ordered_rtc_regions: ['local'],
    auth: {},
    _trace: ['["accord-gateway",{"micros":0}]'],
  };
}

async function dmChannels(ctx: Ctx, userId: string) {
  const rows = await ctx.db.selectFrom('channels').selectAll().where('type', 'in', [1, 3]).where('dm_key', 'like', `%${userId}%`).execute();
  const chans = rows.map(toChannel).filter((c) => c.recipients?.includes(userId));
  const users = await getUsers(ctx, chans.flatMap((c) => c.recipients ?? []));
  return chans.map((c) => channelWire(c, (c.recipients ?? []).filter((id) => id !== userId).map((id) => users.get(id)!).filter(Boolean)));
}

/** Guild ids a user belongs to, for the READY stubs and dispatch routing. */
export async function guildIdsOf(ctx: Ctx, userId: string): Promise<string[]> {
  const rows = await ctx.db.selectFrom('members').select('guild_id').where('user_id', '=', userId).execute();
  return rows.map((r) => String(r.guild_id));
}

/**
 * The full GUILD_CREATE for one session: channels it can see, active threads, roles, and members and presences as
 * its intents allow (everyone when small, else only itself).
 */
export async function guildCreatePayload(ctx: Ctx, s: Session, guildId: string, presences: Presences) {
  const row = await ctx.db.selectFrom('guilds').selectAll().where('id', '=', guildId).executeTakeFirst();
  if (!row) return null;
  const [roles, channelRows, memberRows] = await Promise.all([
    ctx.db.selectFrom('roles').selectAll().where('guild_id', '=', guildId).execute(),
    ctx.db.selectFrom('channels').selectAll().where('guild_id', '=', guildId).execute(),
    ctx.db.selectFrom('members').selectAll().where('guild_id', '=', guildId).execute(),
  ]);
  const g = toGuild(row);
  const self = memberRows.find((m) => String(m.user_id) === s.userId);
  const large = memberRows.length > s.largeThreshold;
  // Large guilds list only the session's own member (others arrive by op 8), for people and bots alike.
  const wantsAll = !large && (!s.isBot || (s.intents & (I.GUILD_PRESENCES | I.GUILD_MEMBERS)) !== 0);
  const listed = wantsAll ? memberRows : self ? [self] : [];
  const users = await getUsers(ctx, listed.map((m) => String(m.user_id)));

  // Channels it can see; bots that obfuscate also get the others, obfuscated (gateway/obfuscation.ts).
  const { channels, threads } = await guildCreateChannels(ctx, s, guildId, channelRows.map(toChannel));
  const sendPresences = !s.isBot || (s.intents & I.GUILD_PRESENCES) !== 0;
  return {
    ...guildWire(g, roles.map(toRole), undefined, await guildExpressions(ctx, guildId)),
    joined_at: self ? new Date(Number(self.joined_at)).toISOString() : null,
    large,
    unavailable: false,
    member_count: memberRows.length,
    voice_states: await voiceStates(ctx).forGuildCreate(guildId),
    members: listed.map((m) => memberWire(toMember(m), users.get(String(m.user_id)) ?? null)),
    channels,
    threads,
    presences: sendPresences
      ? listed.map((m) => String(m.user_id)).map((id) => ({ user: { id }, status: presences.visible(id).status, activities: presences.visible(id).activities, client_status: presences.visible(id).client_status }))
          .filter((p) => p.status !== 'offline')
      : [],
    ...(await guildCreateResources(ctx, guildId, s.userId)), // stage_instances, guild_scheduled_events, soundboard_sounds
    embedded_activities: [],
    activity_instances: s.isBot ? [] : await runningInGuild(ctx, guildId, s.userId), // EMBEDDED_ACTIVITY_UPDATE_V2 shapes
    application_command_counts: {},
    lazy: true,
  };
}

export { publicUser };

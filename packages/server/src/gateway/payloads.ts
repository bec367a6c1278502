import { dmChannelsWire } from '../services/channels/dms.js';
import crypto from 'node:crypto';
import type { Ctx } from '../services/context.js';
import type { Session } from './session.js';
import type { PresenceState as Presences } from './presence.js';
import { guild as guildWire } from '../wire/guild.js';
import { member as memberWire } from '../wire/member.js';
import { selfUser, publicUser } from '../wire/user.js';
import { getUsers } from '../services/identity/users.js';
import { applicationOfBot } from '../services/identity/applications.js';
import { I, P } from '@accord/protocol';
import { voiceStates } from '../services/voice/states.js';
import { guildCreateChannels } from './obfuscation.js';
import { guildCreateCache } from './guild-create-cache.js';
import type { ChannelRecord, GuildRecord } from '../store/records.js';
import type { AccordGuildCreateBody, AccordGuildCreateHead, AccordReady } from '../wire/extensions.js';
import { guildCreateResources, guildExpressions } from '../services/guilds/resources.js';
import { runningInGuild } from '../services/activities/instances.js';
import { readStateForReady } from '../services/messages/read-states.js';

/** READY for a new session. Guilds arrive as unavailable stubs, each followed by its GUILD_CREATE. */
export async function readyPayload(ctx: Ctx, s: Session, resumeUrl: string): Promise<AccordReady> {
  const app = s.isBot ? await applicationOfBot(ctx, s.userId) : null;
  const [privateChannels, readState] = s.isBot ? [[], null] : await Promise.all([dmChannelsWire(ctx, s.userId), readStateForReady(ctx, s.userId, s.guildIds)]);
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
    ...(readState ? { read_state: readState } : {}),
    presences: [],
    guild_join_requests: [],
    geo_ordered_rtc_regions: ['local'],
    auth: {},
    _trace: ['["accord-gateway",{"micros":0}]'],
  };
}

/** Guild ids a user belongs to, for the READY stubs and dispatch routing. */
export async function guildIdsOf(ctx: Ctx, userId: string): Promise<string[]> {
  return ctx.repos.members.guildIdsOf(userId);
}

/**
 * The GUILD_CREATE `d` for one session, serialized: channels it can see, active threads, roles, and members and
 * presences as its intents allow (everyone when small, else only itself).
 *
 * Most of it is the same for every session with the same view of the guild, and is serialized once for all of them
 * (gateway/guild-create-cache.ts) when `share` is set: only while this node follows the guild's events, which keeps
 * a shared body fresh. A view is: person or bot, whether members and presences are listed in full, the channel list
 * it gets (visible, obfuscated), and VIEW_CHANNEL in the guild and in each channel and thread (which also decides
 * the scheduled events and Activity instances it sees). What differs per session is a small head:
 * `joined_at`, `large` and `member_count`, and when the guild is listed only as the session's own member (large
 * guilds, bots without member intents), that member and its presence.
 */
export async function serializedGuildCreate(ctx: Ctx, s: Session, guildId: string, presences: Presences, share: boolean): Promise<string | null> {
  const guild = await ctx.repos.guilds.byId(guildId);
  if (!guild) return null;
  const [records, selfRow, memberIds] = await Promise.all([
    ctx.repos.channels.allOfGuild(guildId),
    ctx.repos.members.get(guildId, s.userId),
    ctx.access.memberIds(guildId),
  ]);
  const memberCount = memberIds.length;
  const large = memberCount > s.largeThreshold;
  // Large guilds list only the session's own member (others arrive by op 8), for people and bots alike.
  const listAll = !large && (!s.isBot || (s.intents & (I.GUILD_PRESENCES | I.GUILD_MEMBERS)) !== 0);
  const sendPresences = !s.isBot || (s.intents & I.GUILD_PRESENCES) !== 0;
  // Channels it can see; bots that obfuscate also get the others, obfuscated (gateway/obfuscation.ts).
  const { channels, threads } = await guildCreateChannels(ctx, s, guildId, records);

  const view = await viewKey(ctx, s, guildId, records, channels, threads, listAll, sendPresences);
  const cache = guildCreateCache(ctx);
  let body = share ? cache.get(guildId, view) : undefined;
  if (body === undefined) {
    const gen = cache.gen(guildId);
    body = JSON.stringify(await sharedPart(ctx, s, guild, guildId, { channels, threads, listAll, sendPresences }, presences)).slice(1);
    if (share) cache.set(guildId, view, body, listAll && sendPresences, gen);
  }

  const self = selfRow && !listAll ? [selfRow] : [];
  const selfUser = self.length ? ((await getUsers(ctx, [s.userId])).get(s.userId) ?? null) : null;
  const head: AccordGuildCreateHead = {
    joined_at: selfRow ? new Date(selfRow.joined_at).toISOString() : null,
    large,
    member_count: memberCount,
    ...(listAll
      ? {}
      : {
          members: self.map((m) => memberWire(m, selfUser)),
          presences: sendPresences
            ? presenceList(
                self.map((m) => m.user_id),
                presences,
              )
            : [],
        }),
  };
  // The head's closing brace becomes the comma before the shared body (which starts after its opening brace).
  return `${JSON.stringify(head).slice(0, -1)},${body}`;
}

/** What every session with this view gets: the guild, its channels as this view sees them, and the rest. */
async function sharedPart(
  ctx: Ctx,
  s: Session,
  guild: GuildRecord,
  guildId: string,
  v: { channels: unknown[]; threads: unknown[]; listAll: boolean; sendPresences: boolean },
  presences: Presences,
): Promise<AccordGuildCreateBody> {
  const [roles, memberRows] = await Promise.all([ctx.repos.roles.ofGuild(guildId), v.listAll ? ctx.repos.members.ofGuild(guildId) : Promise.resolve([])]);
  const users = await getUsers(
    ctx,
    memberRows.map((m) => m.user_id),
  );
  return {
    ...guildWire(guild, roles, undefined, await guildExpressions(ctx, guildId)),
    unavailable: false,
    voice_states: await voiceStates(ctx).forGuildCreate(guildId),
    ...(v.listAll
      ? {
          members: memberRows.map((m) => memberWire(m, users.get(m.user_id) ?? null)),
          presences: v.sendPresences
            ? presenceList(
                memberRows.map((m) => m.user_id),
                presences,
              )
            : [],
        }
      : {}),
    channels: v.channels,
    threads: v.threads,
    ...(await guildCreateResources(ctx, guildId, s.userId)), // stage_instances, guild_scheduled_events, soundboard_sounds
    embedded_activities: [],
    activity_instances: s.isBot ? [] : await runningInGuild(ctx, guildId, s.userId), // EMBEDDED_ACTIVITY_UPDATE_V2 shapes
    application_command_counts: {},
    lazy: true,
  };
}

/** Partial presences of these users, the offline ones left out. */
function presenceList(userIds: string[], presences: Presences) {
  return userIds
    .map((id) => ({
      user: { id },
      status: presences.visible(id).status,
      activities: presences.visible(id).activities,
      client_status: presences.visible(id).client_status,
    }))
    .filter((p) => p.status !== 'offline');
}

/**
 * The view key: sessions with equal keys get the same shared part. The channel and thread lists are compared as
 * serialized (obfuscation, the voice channel a session is connected to); VIEW_CHANNEL in the guild and in each channel
 * and thread decides the scheduled events and Activity instances.
 */
async function viewKey(
  ctx: Ctx,
  s: Session,
  guildId: string,
  records: ChannelRecord[],
  channels: unknown[],
  threads: unknown[],
  listAll: boolean,
  sendPresences: boolean,
): Promise<string> {
  const guildPerms = await ctx.access.guildPerms(guildId, s.userId);
  let bits = guildPerms !== null && guildPerms & P.VIEW_CHANNEL ? '1' : '0';
  for (const c of [...records].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const perms = await ctx.access.channelPerms(guildId, c.id, s.userId);
    bits += `${c.id}:${perms !== null && perms & P.VIEW_CHANNEL ? 1 : 0},`;
  }
  const seen = crypto
    .createHash('sha256')
    .update(JSON.stringify([channels, threads]))
    .update(bits)
    .digest('base64');
  return [s.isBot ? 'bot' : 'user', listAll ? 'all' : 'self', sendPresences ? 'presences' : '', seen].join('|');
}

export { publicUser };

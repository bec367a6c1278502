import type { Ctx } from '../services/context.js';
import type { BusEvent } from '../bus/bus.js';
import { P } from '@accord/protocol';
import type { ChannelRecord } from '../store/records.js';
import { channel as channelWire, THREAD_TYPES } from '../wire/channel.js';
import { applicationOfBot } from '../services/identity/applications.js';
import { CHANNEL_OMISSION_CUTOVER } from '../services/channels/channels.js';
import type { Session } from './session.js';
import { connectedChannelOf } from '../services/voice/status.js';
import type { AccordChannel } from '../wire/extensions.js';

/**
 * Channel obfuscation on the Gateway (docs branch `anthony/channel-obfuscation`, seed spec):
 *
 * - Bots receive guild channels they cannot view *obfuscated* instead of not at all: in GUILD_CREATE `channels` and
 *   in CHANNEL_CREATE / CHANNEL_UPDATE / CHANNEL_DELETE. "Can view" is VIEW_CHANNEL or being connected to that voice
 *   channel; a category counts as viewable when any of its channels is.
 * - Who gets it: bots that set the Identify capability CHANNEL_OBFUSCATION (1 << 15), bots whose app turned on
 *   "Private Channel Obfuscation" (`private_channel_obfuscation` on the application), and every bot once the server
 *   clock reaches the cutover (2026-11-16, the date HTTP starts omitting such channels). Others keep the old rule:
 *   channels they cannot view are not sent. People are never obfuscated.
 * - When a bot gains access (overwrite change, role change, role permission change, ownership change, joining a voice
 *   channel) it gets CHANNEL_UPDATE with full data, also for the parent category; when it loses access, CHANNEL_UPDATE
 *   obfuscated.
 * - Interaction payloads are built elsewhere and never obfuscated.
 *
 * The obfuscated channel keeps id, type, guild_id, position and parent_id; its name is `___hidden___`, its flags gain
 * CHANNEL_OBFUSCATED (1 << 17), its only overwrite denies VIEW_CHANNEL to @everyone. Other sensitive fields are reduced
 * (the exact list is not published; Accord's choice): topic, last_message_id, last_pin_timestamp, rtc_region,
 * default_reaction_emoji become null; nsfw false; rate limits and user_limit 0; available_tags empty.
 */

export const CHANNEL_OBFUSCATION_CAPABILITY = 1 << 15;
export const CHANNEL_OBFUSCATED = 1 << 17;
export const HIDDEN_NAME = '___hidden___';
/** Mandatory for all bots from this date (server clock). */
export const OBFUSCATION_CUTOVER = CHANNEL_OMISSION_CUTOVER;
/** Events whose payload is a channel and that go out obfuscated rather than not at all. */
export const OBFUSCATED_EVENTS = new Set(['CHANNEL_CREATE', 'CHANNEL_UPDATE', 'CHANNEL_DELETE']);
/** Events after which a bot's view of a guild's channels may have changed. */
const VISIBILITY_EVENTS =
  /^(CHANNEL_CREATE|CHANNEL_UPDATE|CHANNEL_DELETE|GUILD_ROLE_CREATE|GUILD_ROLE_UPDATE|GUILD_ROLE_DELETE|GUILD_MEMBER_UPDATE|GUILD_UPDATE|VOICE_STATE_UPDATE)$/;

const NULLED = ['topic', 'last_message_id', 'last_pin_timestamp', 'rtc_region', 'default_reaction_emoji'] as const;
const ZEROED = ['rate_limit_per_user', 'default_thread_rate_limit_per_user', 'user_limit'] as const;

/** The obfuscated form of a guild channel's wire object. */
export function obfuscateChannel(wire: Record<string, any>): Record<string, any> {
  const out: Record<string, any> = { ...wire, name: HIDDEN_NAME, flags: (Number(wire.flags) || 0) | CHANNEL_OBFUSCATED };
  const guildId = String(wire.guild_id);
  out.permission_overwrites = [{ id: guildId, type: 0, allow: '0', deny: P.VIEW_CHANNEL.toString(), allow_new: '0', deny_new: P.VIEW_CHANNEL.toString() }];
  for (const k of NULLED) if (k in out) out[k] = null;
  for (const k of ZEROED) if (k in out) out[k] = 0;
  if ('nsfw' in out) out.nsfw = false;
  if ('available_tags' in out) out.available_tags = [];
  return out;
}

/** Opt-in per session (capability bit, or the app's toggle read once at first use). */
const optIns = new WeakMap<Session, Promise<boolean>>();
/** Per session and guild: the channels the session currently sees in full (the rest it sees obfuscated). */
const views = new WeakMap<Session, Map<string, Set<string>>>();

function optIn(ctx: Ctx, s: Session): Promise<boolean> {
  let p = optIns.get(s);
  if (!p) {
    p =
      s.capabilities & CHANNEL_OBFUSCATION_CAPABILITY
        ? Promise.resolve(true)
        : applicationOfBot(ctx, s.userId)
            .then((app) => app?.extra.private_channel_obfuscation === true)
            .catch(() => false);
    optIns.set(s, p);
  }
  return p;
}

/** Whether this session receives obfuscated channels (rather than none) for channels it cannot view. */
export async function obfuscates(ctx: Ctx, s: Session): Promise<boolean> {
  if (!s.isBot) return false;
  if (ctx.clock.now() >= OBFUSCATION_CUTOVER) return true;
  return optIn(ctx, s);
}

/**
 * The ids of a guild's channels a user can view: VIEW_CHANNEL, or being connected to that voice channel; a category
 * counts when it or one of its channels is viewable.
 */
export async function viewableChannels(ctx: Ctx, guildId: string, userId: string, channels: ChannelRecord[]): Promise<Set<string>> {
  const out = new Set<string>();
  const connected = await connectedChannelOf(ctx, guildId, userId);
  if (connected) out.add(connected);
  for (const c of channels) {
    const perms = await ctx.access.channelPerms(guildId, c.id, userId);
    if (perms !== null && perms & P.VIEW_CHANNEL) out.add(c.id);
  }
  for (const c of channels) if (c.parent_id && out.has(c.id) && !THREAD_TYPES.has(c.type)) out.add(c.parent_id);
  return out;
}

function remember(s: Session, guildId: string, visible: Set<string>): void {
  let m = views.get(s);
  if (!m) views.set(s, (m = new Map()));
  m.set(guildId, visible);
}

/**
 * GUILD_CREATE `channels` and `threads` for a session: viewable channels in full; for obfuscating bots the other
 * (non-thread) channels obfuscated; threads of viewable channels only, unarchived.
 */
export async function guildCreateChannels(ctx: Ctx, s: Session, guildId: string, records: ChannelRecord[]) {
  const visible = await viewableChannels(ctx, guildId, s.userId, records);
  const obf = await obfuscates(ctx, s);
  if (obf) remember(s, guildId, visible);
  const channels: (AccordChannel | Record<string, unknown>)[] = [];
  const threads: AccordChannel[] = [];
  for (const c of records) {
    if (THREAD_TYPES.has(c.type)) {
      // A thread is visible through its own permissions (private threads: members and managers).
      const perms = await ctx.access.channelPerms(guildId, c.id, s.userId);
      if (perms !== null && perms & P.VIEW_CHANNEL && !c.thread_metadata?.archived) threads.push(channelWire(c));
    } else if (visible.has(c.id)) {
      // Non-obfuscating sessions keep the platform's old rule: a category needs VIEW_CHANNEL itself.
      if (!obf && c.type === 4) {
        const perms = await ctx.access.channelPerms(guildId, c.id, s.userId);
        if (perms === null || !(perms & P.VIEW_CHANNEL)) continue;
      }
      channels.push(channelWire(c));
    } else if (obf) channels.push(obfuscateChannel(channelWire(c)));
  }
  return { channels, threads };
}

/**
 * How a channel event goes to a session: 'full', 'obfuscated', or 'skip' (a session that does not obfuscate and cannot
 * view the channel). Only for OBFUSCATED_EVENTS of guild channels that are not threads.
 */
export async function channelEventView(ctx: Ctx, s: Session, e: BusEvent): Promise<'full' | 'obfuscated' | 'skip'> {
  const guildId = e.guild_id!;
  const perms = await ctx.access.channelPerms(guildId, e.channel_id!, s.userId);
  if (perms !== null && perms & P.VIEW_CHANNEL) return 'full';
  if (!(await obfuscates(ctx, s))) return 'skip';
  if ((await connectedChannelOf(ctx, guildId, s.userId)) === e.channel_id) return 'full';
  if (e.d?.type === 4) {
    // A category with a viewable channel is viewable.
    for (const id of await ctx.repos.channels.childIdsOf(e.channel_id!)) {
      const p = await ctx.access.channelPerms(guildId, id, s.userId);
      if (p !== null && p & P.VIEW_CHANNEL) return 'full';
    }
  }
  return 'obfuscated';
}

/** Whether this event is a non-thread guild channel event that obfuscation applies to. */
export const isObfuscatable = (e: BusEvent) =>
  OBFUSCATED_EVENTS.has(e.t) && !!e.guild_id && !!e.channel_id && !e.user_ids && !THREAD_TYPES.has(Number(e.d?.type));

/**
 * After an event that may change what bots can see, sends each obfuscating bot session of the guild CHANNEL_UPDATE for
 * the channels whose view changed: full data when access was gained (also the parent category), obfuscated when it was
 * lost. The event's own channel was already sent in the right form and is only recorded.
 */
export async function afterEvent(ctx: Ctx, e: BusEvent, sessions: Iterable<Session>, shown: Map<Session, boolean> = new Map()): Promise<void> {
  if (!e.guild_id || !VISIBILITY_EVENTS.test(e.t)) return;
  const guildId = e.guild_id;
  const targets: Session[] = [];
  for (const s of sessions) {
    if (s.dead || !s.isBot || !(s.intents & 1) || !s.guildIds.has(guildId)) continue;
    if (e.t === 'GUILD_MEMBER_UPDATE' && e.d?.user?.id !== s.userId) continue;
    if (e.t === 'VOICE_STATE_UPDATE' && e.d?.user_id !== s.userId) continue;
    if (await obfuscates(ctx, s)) targets.push(s);
  }
  if (!targets.length) return;
  const records = await ctx.repos.channels.nonThreadOfGuild(guildId);
  const handled = OBFUSCATED_EVENTS.has(e.t) ? (e.channel_id ?? null) : null;
  for (const s of targets) {
    const before = views.get(s)?.get(guildId);
    const now = await viewableChannels(ctx, guildId, s.userId, records);
    // The event's channel is remembered as the session was sent it: access may have changed since (a role given right
    // after, already in the store while its own event is still on its way), and that event must still see a change.
    const sent = handled === null ? undefined : shown.get(s);
    if (sent !== undefined) {
      if (sent) now.add(handled!);
      else now.delete(handled!);
    }
    remember(s, guildId, now);
    if (!before) continue; // first look at this guild (e.g. the cutover passed mid-session): nothing to compare
    for (const c of records) {
      if (c.id === handled || before.has(c.id) === now.has(c.id)) continue;
      const wire = channelWire(c);
      s.dispatch('CHANNEL_UPDATE', JSON.stringify(now.has(c.id) ? wire : obfuscateChannel(wire)), true);
    }
  }
}

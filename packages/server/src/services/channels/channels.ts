import type { Actor, Ctx } from '../context.js';
import { announceLostFollowers, type FollowerTarget } from '../guilds/teardown.js';
import { ApiError, Errors, fieldError } from '../../core/errors.js';
import { P } from '@accord/protocol';
import { channel as channelWire, THREAD_TYPES } from '../../wire/channel.js';
import type { ChannelRecord } from '../../store/records.js';
import { toChannel } from '../../store/repos/mappers.js';
import { getUsers } from '../identity/users.js';
import { getChannelRecord, requireGuildRecord } from '../guilds/lookup.js';
import { checkId } from '../../core/ids.js';
import { checkOverwriteGrant, checkParent, checkTypeFields, extraFor, normalizeOverwrites, TEXTLIKE, VOICELIKE, type ChannelInput } from './fields.js';
import { deleteThread, requireVisibleThread } from './threads/threads.js';
import { renderGuild } from '../guilds/guild.js';
import { AuditLogEvent, auditChanges, writeAuditLog } from '../moderation/audit-log.js';
import { channelRemoved } from '../guilds/resources.js';

/** From this date GET /guilds/{id}/channels omits channels the caller cannot view (no early opt-in). */
export const CHANNEL_OMISSION_CUTOVER = Date.UTC(2026, 10, 16);
const MAX_CHANNELS = 500;

/** A channel as its viewer sees it: DMs list the other recipients. */
export async function renderChannel(ctx: Ctx, c: ChannelRecord, viewerId: string) {
  if (c.guild_id !== null) return channelWire(c);
  const others = (c.recipients ?? []).filter((id) => id !== viewerId);
  const users = await getUsers(ctx, others);
  return channelWire(c, others.map((id) => users.get(id)!).filter(Boolean));
}

export async function requireChannelRecord(ctx: Ctx, channelId: string): Promise<ChannelRecord> {
  const ch = await getChannelRecord(ctx, channelId);
  if (!ch) throw Errors.unknownChannel();
  return ch;
}

/** GET /channels/{id}: DMs for their recipients, guild channels for those who can view them. */
export async function viewChannel(ctx: Ctx, actor: Actor, channelId: string) {
  const ch = await requireChannelRecord(ctx, channelId);
  if (ch.guild_id === null) {
    if (!ch.recipients?.includes(actor.user.id)) throw Errors.missingAccess();
  } else if (THREAD_TYPES.has(ch.type)) {
    await requireVisibleThread(ctx, ch.id, actor.user.id); // private threads: members and thread managers only
  } else {
    await ctx.access.requireChannel(ch.guild_id, ch.id, actor.user.id);
  }
  return renderChannel(ctx, ch, actor.user.id);
}

/** GET /guilds/{id}/channels: threads excluded; from the cutover, only channels the caller can view (a category counts if a child does). */
export async function listGuildChannels(ctx: Ctx, actor: Actor, guildId: string) {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id);
  const chans = await ctx.repos.channels.guildChannelsSorted(guildId);
  if (ctx.clock.now() < CHANNEL_OMISSION_CUTOVER) return chans.map((c) => channelWire(c));
  const visible = new Set<string>();
  for (const c of chans) {
    const perms = await ctx.access.channelPerms(guildId, c.id, actor.user.id);
    if (perms !== null && perms & P.VIEW_CHANNEL) visible.add(c.id);
  }
  for (const c of chans) if (c.parent_id && visible.has(c.id)) visible.add(c.parent_id);
  return chans.filter((c) => visible.has(c.id)).map((c) => channelWire(c));
}

/** POST /guilds/{id}/channels: MANAGE_CHANNELS. Without overwrites, a channel in a category takes the category's. */
export async function createChannel(ctx: Ctx, actor: Actor, guildId: string, input: ChannelInput & { name: string }) {
  checkId(guildId, Errors.unknownGuild);
  const perms = await ctx.access.requireGuild(guildId, actor.user.id, P.MANAGE_CHANNELS);
  const guild = await requireGuildRecord(ctx, guildId);
  const type = input.type ?? 0;
  checkTypeFields(guild, type, input);
  const parentId = input.parent_id ?? null;
  if (parentId) await checkParent(ctx, guildId, parentId, type, null);
  let overwrites = input.permission_overwrites ? await normalizeOverwrites(ctx, guildId, input.permission_overwrites) : null;
  if (overwrites) checkOverwriteGrant(perms, [], overwrites, true);
  else overwrites = parentId ? (await requireChannelRecord(ctx, parentId)).permission_overwrites : [];

  const existing = await ctx.repos.channels.guildPositions(guildId);
  if (existing.length >= MAX_CHANNELS) throw Errors.maxChannels();
  const position = input.position ?? existing.reduce((m, p) => Math.max(m, p + 1), 0);
  const voice = VOICELIKE.has(type);
  const text = TEXTLIKE.has(type);
  const row = {
    id: ctx.ids.next(),
    type,
    guild_id: guildId,
    position,
    name: input.name,
    topic: text ? (input.topic ?? null) : null,
    nsfw: input.nsfw ? 1 : 0,
    parent_id: parentId,
    owner_id: null,
    last_message_id: null,
    last_pin_timestamp: null,
    bitrate: voice ? (input.bitrate ?? 64000) : null,
    user_limit: voice ? (input.user_limit ?? 0) : null,
    rate_limit_per_user: text || voice ? (input.rate_limit_per_user ?? 0) : 0,
    rtc_region: voice ? (input.rtc_region ?? null) : null,
    flags: 0,
    permission_overwrites: JSON.stringify(overwrites),
    recipients: null,
    dm_key: null,
    thread_metadata: null,
    message_count: 0,
    member_count: 0,
    total_message_sent: 0,
    extra: JSON.stringify(extraFor(ctx, type, input)),
    created_at: ctx.clock.now(),
  };
  await ctx.repos.channels.insertGuildChannel(row);
  const out = channelWire(toChannel(row));
  ctx.bus.publish({ t: 'CHANNEL_CREATE', d: out, guild_id: guildId, channel_id: row.id });
  await writeAuditLog(ctx, {
    guildId,
    userId: actor.user.id,
    actionType: AuditLogEvent.CHANNEL_CREATE,
    targetId: row.id,
    changes: auditChanges('channel', null, out),
  });
  return out;
}

/** PATCH /channels/{id} for guild channels (threads go to the threads service): MANAGE_CHANNELS, plus MANAGE_ROLES for overwrites. */
export async function updateChannel(ctx: Ctx, actor: Actor, ch: ChannelRecord, input: ChannelInput) {
  if (ch.guild_id === null) throw Errors.cannotDM();
  if (THREAD_TYPES.has(ch.type)) throw Errors.wrongChannelType();
  const guildId = ch.guild_id;
  const perms = await ctx.access.requireChannel(guildId, ch.id, actor.user.id, P.MANAGE_CHANNELS);
  const guild = await requireGuildRecord(ctx, guildId);

  // Only text and announcement channels convert into each other.
  const type = input.type ?? ch.type;
  if (type !== ch.type && !([0, 5].includes(type) && [0, 5].includes(ch.type)))
    throw fieldError('type', 'CHANNEL_TYPE_INVALID', 'Cannot convert this channel to that type.');
  checkTypeFields(guild, type, input);
  if (input.parent_id) await checkParent(ctx, guildId, input.parent_id, type, ch.id);
  let overwrites = ch.permission_overwrites;
  if (input.permission_overwrites != null) {
    if (!ctx.access.hasPerm(perms, P.MANAGE_ROLES)) throw Errors.missingPermissions();
    overwrites = await normalizeOverwrites(ctx, guildId, input.permission_overwrites);
    checkOverwriteGrant(perms | ((await ctx.access.guildPerms(guildId, actor.user.id)) ?? 0n), ch.permission_overwrites, overwrites, true);
  }

  const text = TEXTLIKE.has(type);
  const voice = VOICELIKE.has(type);
  const v: Record<string, unknown> = { type };
  if (input.name !== undefined) v.name = input.name;
  if (input.position != null) v.position = input.position;
  if (input.parent_id !== undefined) v.parent_id = input.parent_id;
  if (input.nsfw != null) v.nsfw = input.nsfw ? 1 : 0;
  if (input.permission_overwrites != null) v.permission_overwrites = JSON.stringify(overwrites);
  if (text && input.topic !== undefined) v.topic = input.topic;
  if ((text || voice) && input.rate_limit_per_user !== undefined) v.rate_limit_per_user = input.rate_limit_per_user ?? 0;
  if (voice && input.bitrate != null) v.bitrate = input.bitrate;
  if (voice && input.user_limit != null) v.user_limit = input.user_limit;
  if (voice && input.rtc_region !== undefined) v.rtc_region = input.rtc_region;
  if (input.flags != null) v.flags = input.flags;
  v.extra = JSON.stringify(extraFor(ctx, type, input, ch.extra));

  await ctx.repos.channels.patch(ch.id, v);
  const out = channelWire(await requireChannelRecord(ctx, ch.id));
  ctx.bus.publish({ t: 'CHANNEL_UPDATE', d: out, guild_id: guildId, channel_id: ch.id });
  await writeAuditLog(ctx, {
    guildId,
    userId: actor.user.id,
    actionType: AuditLogEvent.CHANNEL_UPDATE,
    targetId: ch.id,
    changes: auditChanges('channel', channelWire(ch), out),
  });
  return out;
}

const GUILD_CHANNEL_REFS = ['afk_channel_id', 'system_channel_id', 'rules_channel_id', 'public_updates_channel_id', 'safety_alerts_channel_id'] as const;

/**
 * DELETE /channels/{id}. Guild channels: MANAGE_CHANNELS; its threads, messages, invites and webhooks go too, children
 * of a category move to the top level. Closing a DM just returns it (DM rows are shared by both users).
 */
export async function deleteChannel(ctx: Ctx, actor: Actor, channelId: string) {
  const ch = await requireChannelRecord(ctx, channelId);
  if (ch.guild_id === null) {
    if (!ch.recipients?.includes(actor.user.id)) throw Errors.missingAccess();
    const out = await renderChannel(ctx, ch, actor.user.id);
    ctx.bus.publish({ t: 'CHANNEL_DELETE', d: out, user_ids: [actor.user.id] });
    return out;
  }
  if (THREAD_TYPES.has(ch.type)) return deleteThread(ctx, actor, ch);
  const guildId = ch.guild_id;
  await ctx.access.requireChannel(guildId, ch.id, actor.user.id, P.MANAGE_CHANNELS);
  const guild = await requireGuildRecord(ctx, guildId);
  if (guild.features.includes('COMMUNITY') && (guild.rules_channel_id === ch.id || guild.public_updates_channel_id === ch.id)) {
    throw new ApiError(400, 50074, 'Cannot delete a channel required for Community guilds');
  }

  const moved = await ctx.repos.channels.childrenOf(ch.id);
  const refs = GUILD_CHANNEL_REFS.filter((k) => guild[k] === ch.id);
  // Follow links both ways (and the webhooks it fed), threads and content go in one transaction; children move up.
  const lostFollowers: FollowerTarget[] = await ctx.repos.channels.deleteGuildChannel(ch.id, guildId, refs);

  const out = channelWire(ch);
  ctx.bus.publish({ t: 'CHANNEL_DELETE', d: out, guild_id: guildId, channel_id: ch.id });
  announceLostFollowers(ctx, lostFollowers);
  await channelRemoved(ctx, guildId, ch.id); // a live stage ends with its channel
  await writeAuditLog(ctx, {
    guildId,
    userId: actor.user.id,
    actionType: AuditLogEvent.CHANNEL_DELETE,
    targetId: ch.id,
    changes: auditChanges('channel', out, null),
  });
  for (const c of moved) ctx.bus.publish({ t: 'CHANNEL_UPDATE', d: channelWire({ ...c, parent_id: null }), guild_id: guildId, channel_id: c.id });
  if (refs.length) ctx.bus.publish({ t: 'GUILD_UPDATE', d: await renderGuild(ctx, await requireGuildRecord(ctx, guildId)), guild_id: guildId });
  return out;
}

export interface PositionInput {
  id: string;
  position?: number | null;
  parent_id?: string | null;
  lock_permissions?: boolean | null;
}

/** PATCH /guilds/{id}/channels: moves channels (position, parent, permission sync with the new parent) in one write. */
export async function reorderChannels(ctx: Ctx, actor: Actor, guildId: string, list: PositionInput[]): Promise<void> {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id, P.MANAGE_CHANNELS);
  const rows = await ctx.repos.channels.guildChannelsSorted(guildId);
  const byId = new Map(rows.map((c) => [c.id, c]));
  const next = new Map<string, ChannelRecord>();
  list.forEach((item, i) => {
    const cur = next.get(item.id) ?? byId.get(item.id);
    if (!cur) throw fieldError([i, 'id'], 'CHANNEL_INVALID', 'Unknown channel.');
    const c = { ...cur };
    if (item.position != null) c.position = item.position;
    if (item.parent_id !== undefined) {
      const parent = item.parent_id === null ? null : byId.get(item.parent_id);
      if (item.parent_id !== null && (!parent || parent.type !== 4 || c.type === 4))
        throw fieldError([i, 'parent_id'], 'CHANNEL_PARENT_INVALID', 'Invalid parent channel.');
      c.parent_id = item.parent_id;
    }
    if (item.lock_permissions && c.parent_id) c.permission_overwrites = byId.get(c.parent_id)!.permission_overwrites;
    next.set(c.id, c);
  });
  const changed = [...next.values()].filter((c) => {
    const o = byId.get(c.id)!;
    return o.position !== c.position || o.parent_id !== c.parent_id || JSON.stringify(o.permission_overwrites) !== JSON.stringify(c.permission_overwrites);
  });
  if (!changed.length) return;
  await ctx.repos.channels.saveLayout(
    changed.map((c) => ({ id: c.id, position: c.position, parent_id: c.parent_id, permission_overwrites: c.permission_overwrites })),
  );
  for (const c of changed) ctx.bus.publish({ t: 'CHANNEL_UPDATE', d: channelWire(c), guild_id: guildId, channel_id: c.id });
}

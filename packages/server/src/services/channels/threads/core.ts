import type { Ctx } from '../../context.js';
import { Errors } from '../../../core/errors.js';
import { P, isSnowflake } from '@accord/protocol';
import { toThreadMember as toThreadMemberRecord, type ThreadMemberRecord } from '../../../store/repos/threads.js';
import type { ChannelRecord, ThreadMetadata } from '../../../store/records.js';
import { THREAD_TYPES, threadMember } from '../../../wire/channel.js';
import { member as memberWire } from '../../../wire/member.js';
import { getUsers } from '../../identity/users.js';

/** Thread building blocks shared by the thread services: loading, visibility, audiences, thread member rows. */

export const PUBLIC_THREAD_TYPES = [10, 11] as const;
export const PRIVATE_THREAD = 12;
/** Parents that may hold threads: text, announcement, forum, media. */
export const THREAD_PARENT_TYPES = new Set([0, 5, 15, 16]);
/** The platform stops counting thread members at 50. */
export const MEMBER_COUNT_CAP = 50;

export type ThreadMemberRow = ThreadMemberRecord;

export const isThread = (c: ChannelRecord) => THREAD_TYPES.has(c.type);

export async function loadChannel(ctx: Ctx, channelId: string): Promise<ChannelRecord | null> {
  if (!isSnowflake(channelId)) return null;
  return ctx.repos.channels.byId(channelId);
}

/** A guild channel by id, or 10003. */
export async function requireGuildChannel(ctx: Ctx, channelId: string): Promise<ChannelRecord & { guild_id: string }> {
  const c = await loadChannel(ctx, channelId);
  if (!c || !c.guild_id) throw Errors.unknownChannel();
  return c as ChannelRecord & { guild_id: string };
}

export async function isThreadMember(ctx: Ctx, threadId: string, userId: string): Promise<boolean> {
  return ctx.repos.threads.isMember(threadId, userId);
}

export async function getThreadMember(ctx: Ctx, threadId: string, userId: string): Promise<ThreadMemberRow | null> {
  return ctx.repos.threads.member(threadId, userId);
}

export const toThreadMember = toThreadMemberRecord;

/**
 * Checks that a user may see a thread and returns their permissions in its parent. Public threads follow the parent's
 * VIEW_CHANNEL; private threads also need membership or MANAGE_THREADS (50001 otherwise).
 */
export async function requireThreadAccess(ctx: Ctx, thread: ChannelRecord, userId: string, needed: bigint = 0n): Promise<bigint> {
  if (!thread.guild_id || !thread.parent_id) throw Errors.unknownChannel();
  const perms = await ctx.access.requireChannel(thread.guild_id, thread.parent_id, userId);
  if (thread.type === PRIVATE_THREAD && !ctx.access.hasPerm(perms, P.MANAGE_THREADS) && !(await isThreadMember(ctx, thread.id, userId))) {
    throw Errors.missingAccess();
  }
  if (needed && !ctx.access.hasPerm(perms, needed)) throw Errors.missingPermissions();
  return perms;
}

/** A thread the user can see, by id: 10003 when it does not exist or is not a thread. */
export async function requireVisibleThread(
  ctx: Ctx,
  channelId: string,
  userId: string,
): Promise<{ thread: ChannelRecord & { guild_id: string }; perms: bigint }> {
  const c = await loadChannel(ctx, channelId);
  if (!c || !c.guild_id || !isThread(c)) throw Errors.unknownChannel();
  const perms = await requireThreadAccess(ctx, c, userId);
  return { thread: c as ChannelRecord & { guild_id: string }, perms };
}

/**
 * Users whose sessions may see a thread: guild members with VIEW_CHANNEL on the parent; for private threads only
 * thread members and MANAGE_THREADS holders among them. The gateway skips its own channel check when `user_ids` is
 * set, so the list is exact.
 */
export async function threadViewers(ctx: Ctx, thread: ChannelRecord): Promise<string[]> {
  if (!thread.guild_id || !thread.parent_id) return [];
  const members = await ctx.access.memberIds(thread.guild_id);
  const threadMembers = thread.type === PRIVATE_THREAD ? new Set(await threadMemberIds(ctx, thread.id)) : null;
  const out: string[] = [];
  for (const u of members) {
    const perms = await ctx.access.channelPerms(thread.guild_id, thread.parent_id, u);
    if (perms === null || !(perms & P.VIEW_CHANNEL)) continue;
    if (threadMembers && !threadMembers.has(u) && !ctx.access.hasPerm(perms, P.MANAGE_THREADS)) continue;
    out.push(u);
  }
  return out;
}

export async function threadMemberIds(ctx: Ctx, threadId: string): Promise<string[]> {
  return ctx.repos.threads.memberIds(threadId);
}

/**
 * Publishes a thread event. Public threads go to everyone who can view the parent (the gateway checks); private
 * threads go only to their viewers.
 */
export async function publishThreadEvent(ctx: Ctx, thread: ChannelRecord, t: string, d: unknown, opts: { exclude?: string[] } = {}): Promise<void> {
  if (thread.type === PRIVATE_THREAD || opts.exclude?.length) {
    const exclude = new Set(opts.exclude ?? []);
    const user_ids = (await threadViewers(ctx, thread)).filter((u) => !exclude.has(u));
    if (!user_ids.length) return;
    ctx.bus.publish({ t, d, guild_id: thread.guild_id, channel_id: thread.parent_id, user_ids });
  } else {
    ctx.bus.publish({ t, d, guild_id: thread.guild_id, channel_id: thread.parent_id });
  }
}

/** Thread member objects with their guild member (user included), as THREAD_MEMBERS_UPDATE and `with_member` carry them. */
export async function withGuildMembers(ctx: Ctx, guildId: string, rows: ThreadMemberRow[]) {
  if (!rows.length) return [];
  const userIds = rows.map((r) => r.user_id);
  const [members, users] = await Promise.all([ctx.repos.members.ofUsers(guildId, userIds), getUsers(ctx, userIds)]);
  const byUser = new Map(members.map((m) => [m.user_id, m]));
  return rows.map((r) => {
    const m = byUser.get(r.user_id);
    return { ...threadMember(r), ...(m ? { member: memberWire(m, users.get(r.user_id) ?? null, { now: ctx.clock.now() }) } : {}) };
  });
}

export function newMetadata(nowIso: string, autoArchive: number, invitable: boolean | undefined): ThreadMetadata {
  const meta: ThreadMetadata = { archived: false, auto_archive_duration: autoArchive, archive_timestamp: nowIso, locked: false };
  if (invitable !== undefined) meta.invitable = invitable;
  meta.create_timestamp = nowIso;
  return meta;
}

/** The channels row of a new thread. */
export function threadRow(input: {
  id: string;
  type: number;
  parent: ChannelRecord;
  name: string;
  ownerId: string;
  rateLimit: number;
  meta: ThreadMetadata;
  now: number;
  appliedTags?: string[];
}) {
  return {
    id: input.id,
    type: input.type,
    guild_id: input.parent.guild_id,
    position: 0,
    name: input.name,
    topic: null,
    nsfw: input.parent.nsfw ? 1 : 0,
    parent_id: input.parent.id,
    owner_id: input.ownerId,
    last_message_id: null,
    last_pin_timestamp: null,
    bitrate: null,
    user_limit: null,
    rate_limit_per_user: input.rateLimit,
    rtc_region: null,
    flags: 0,
    permission_overwrites: '[]',
    recipients: null,
    dm_key: null,
    thread_metadata: JSON.stringify(input.meta),
    message_count: 0,
    member_count: 1,
    total_message_sent: 0,
    extra: JSON.stringify(input.appliedTags?.length ? { applied_tags: input.appliedTags } : {}),
    created_at: input.now,
  };
}

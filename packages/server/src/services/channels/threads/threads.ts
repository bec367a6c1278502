import { z } from 'zod';
import type { Actor, Ctx } from '../../context.js';
import { Errors, fieldError } from '../../../core/errors.js';
import { P, isSnowflake } from '@accord/protocol';
import { parseBody, snowflake } from '../../../core/validation.js';
import type { ChannelRecord, MessageRecord, ThreadMetadata } from '../../../store/records.js';
import { channel as channelWire, thread as threadWire, threadMember } from '../../../wire/channel.js';
import {
  MEMBER_COUNT_CAP,
  PRIVATE_THREAD,
  THREAD_PARENT_TYPES,
  getThreadMember,
  isThread,
  loadChannel,
  newMetadata,
  publishThreadEvent,
  requireGuildChannel,
  requireThreadAccess,
  threadRow,
  threadViewers,
  withGuildMembers,
  type ThreadMemberRow,
} from './core.js';
import { publishStarterUpdate } from './starter.js';
import { createForumPost } from './forum.js';
import type { UploadedFile } from '../../../core/uploads.js';
import { AuditLogEvent, auditChanges, threadAudit, writeAuditLog } from '../../moderation/audit-log.js';
import type { APIThreadChannel } from 'discord-api-types/v10';

export { listActiveThreads, listArchivedThreads, listJoinedPrivateArchivedThreads, listThreadMembers, getThreadMemberView } from './list.js';
export { requireVisibleThread, requireThreadAccess, isThreadMember } from './core.js';

/** Threads: creation, the thread patch (called by PATCH /channels/{id}), deletion, and membership. */

const AUTO_ARCHIVE = z.literal([60, 1440, 4320, 10080]);
const HAS_THREAD = 1 << 5;

const FromMessageBody = z.object({
  name: z.string().min(1).max(100),
  auto_archive_duration: AUTO_ARCHIVE.nullable().optional(),
  rate_limit_per_user: z.number().int().min(0).max(21600).nullable().optional(),
});

const ThreadBody = FromMessageBody.extend({
  type: z.literal([10, 11, 12]).nullable().optional(),
  invitable: z.boolean().nullable().optional(),
  applied_tags: z.array(snowflake).max(5).optional(),
  message: z.record(z.string(), z.any()).optional(),
});

/** PATCH of a thread. `null` means "not given" (channels.ts may hand over its parsed body), except slowmode where it is 0. */
const ThreadPatch = z
  .object({
    name: z.string().min(1).max(100).nullish(),
    archived: z.boolean().nullish(),
    auto_archive_duration: AUTO_ARCHIVE.nullish(),
    locked: z.boolean().nullish(),
    invitable: z.boolean().nullish(),
    rate_limit_per_user: z.number().int().min(0).max(21600).nullish(),
    flags: z.number().int().min(0).nullish(),
    applied_tags: z.array(snowflake).max(5).nullish(),
  })
  .transform((b) => ({
    name: b.name ?? undefined,
    archived: b.archived ?? undefined,
    auto_archive_duration: b.auto_archive_duration ?? undefined,
    locked: b.locked ?? undefined,
    invitable: b.invitable ?? undefined,
    rate_limit_per_user: b.rate_limit_per_user === null ? 0 : b.rate_limit_per_user,
    flags: b.flags ?? undefined,
    applied_tags: b.applied_tags ?? undefined,
  }));

const threadCreatePayload = (thread: ChannelRecord, member: ThreadMemberRow | null) => ({
  ...channelWire(thread),
  newly_created: true,
  ...(member ? { member: threadMember(member) } : {}),
});

/** THREAD_CREATE: the creator's sessions get their thread member, everyone else who can see the thread gets the channel. */
async function announceNewThread(ctx: Ctx, thread: ChannelRecord, creator: ThreadMemberRow) {
  await publishThreadEvent(ctx, thread, 'THREAD_CREATE', threadCreatePayload(thread, null), { exclude: [creator.user_id] });
  ctx.bus.publish({
    t: 'THREAD_CREATE',
    d: threadCreatePayload(thread, creator),
    guild_id: thread.guild_id,
    channel_id: thread.parent_id,
    user_ids: [creator.user_id],
  });
  if (thread.guild_id)
    await writeAuditLog(ctx, {
      guildId: thread.guild_id,
      userId: creator.user_id,
      actionType: AuditLogEvent.THREAD_CREATE,
      targetId: thread.id,
      changes: auditChanges('thread', null, threadAudit(channelWire(thread))),
    });
}

function autoArchiveFor(parent: ChannelRecord, requested: number | null | undefined): number {
  return requested ?? parent.extra.default_auto_archive_duration ?? 4320;
}

async function requireParent(ctx: Ctx, channelId: string) {
  const parent = await requireGuildChannel(ctx, channelId);
  if (!THREAD_PARENT_TYPES.has(parent.type)) throw Errors.wrongChannelType();
  return parent;
}

/** POST /channels/{channel_id}/messages/{message_id}/threads: the thread takes the message's id. */
export async function createThreadFromMessage(ctx: Ctx, actor: Actor, channelId: string, messageId: string, body: unknown): Promise<ChannelRecord> {
  const parent = await requireGuildChannel(ctx, channelId);
  if (parent.type !== 0 && parent.type !== 5) throw Errors.wrongChannelType();
  await ctx.access.requireChannel(parent.guild_id, parent.id, actor.user.id, P.CREATE_PUBLIC_THREADS);
  if (!isSnowflake(messageId)) throw Errors.unknownMessage();
  const message = await ctx.repos.messages.inChannel(parent.id, messageId);
  if (!message) throw Errors.unknownMessage();
  const b = parseBody(FromMessageBody, body);
  if (message.extra.thread_id || (await loadChannel(ctx, message.id))) throw Errors.threadAlreadyCreated();

  const now = ctx.clock.now();
  const row = threadRow({
    id: message.id,
    type: parent.type === 5 ? 10 : 11,
    parent,
    name: b.name,
    ownerId: actor.user.id,
    rateLimit: b.rate_limit_per_user ?? 0,
    meta: newMetadata(new Date(now).toISOString(), autoArchiveFor(parent, b.auto_archive_duration), undefined),
    now,
  });
  const creator: ThreadMemberRow = { channel_id: row.id, user_id: actor.user.id, join_timestamp: now, flags: 0 };
  const starter: MessageRecord = { ...message, flags: message.flags | HAS_THREAD, extra: { ...message.extra, thread_id: row.id } };
  try {
    await ctx.repos.threads.createOnMessage(row, creator, { id: message.id, flags: starter.flags, extra: starter.extra });
  } catch (err) {
    // A concurrent request won the primary key.
    if (await loadChannel(ctx, message.id)) throw Errors.threadAlreadyCreated();
    throw err;
  }
  ctx.access.invalidate(parent.guild_id);
  const thread = (await loadChannel(ctx, row.id))!;
  await announceNewThread(ctx, thread, creator);
  await publishStarterUpdate(ctx, starter);
  return thread;
}

/**
 * POST /channels/{channel_id}/threads. Text and announcement parents get a thread without a starter message; forum
 * and media parents need `message` (the first post) and are created through `createForumPost` when available.
 */
export async function createThread(
  ctx: Ctx,
  actor: Actor,
  channelId: string,
  body: unknown,
  files: UploadedFile[] = [],
): Promise<{ thread: ChannelRecord; message?: Record<string, unknown> }> {
  const parent = await requireParent(ctx, channelId);
  const b = parseBody(ThreadBody, body);
  if (parent.type === 15 || parent.type === 16) return createForumPost(ctx, actor, parent, b, files);
  let type = b.type ?? PRIVATE_THREAD;
  if (parent.type === 5) {
    if (type === PRIVATE_THREAD) throw Errors.wrongChannelType();
    type = 10;
  } else if (type === 10) {
    throw fieldError('type', 'BASE_TYPE_CHOICES', 'Value must be one of (11, 12).');
  }
  await ctx.access.requireChannel(parent.guild_id, parent.id, actor.user.id, type === PRIVATE_THREAD ? P.CREATE_PRIVATE_THREADS : P.CREATE_PUBLIC_THREADS);

  const now = ctx.clock.now();
  const invitable = type === PRIVATE_THREAD ? (b.invitable ?? true) : undefined;
  const row = threadRow({
    id: ctx.ids.next(),
    type,
    parent,
    name: b.name,
    ownerId: actor.user.id,
    rateLimit: b.rate_limit_per_user ?? 0,
    meta: newMetadata(new Date(now).toISOString(), autoArchiveFor(parent, b.auto_archive_duration), invitable),
    now,
  });
  const creator: ThreadMemberRow = { channel_id: row.id, user_id: actor.user.id, join_timestamp: now, flags: 0 };
  await ctx.repos.threads.create(row, creator);
  ctx.access.invalidate(parent.guild_id);
  const thread = (await loadChannel(ctx, row.id))!;
  await announceNewThread(ctx, thread, creator);
  return { thread };
}

/**
 * Applies a thread patch (PATCH /channels/{id} on types 10, 11, 12) and publishes THREAD_UPDATE; returns the wire
 * channel. The owner may rename, re-time and archive their own thread; unarchiving an unlocked thread needs
 * SEND_MESSAGES_IN_THREADS; everything else (lock, invitable, slowmode, flags) needs MANAGE_THREADS.
 */
export async function updateThread(ctx: Ctx, actor: Actor, thread: ChannelRecord, body: unknown): Promise<APIThreadChannel> {
  if (!isThread(thread) || !thread.guild_id) throw Errors.wrongChannelType();
  const perms = await requireThreadAccess(ctx, thread, actor.user.id);
  const b = parseBody(ThreadPatch, body);
  const mod = ctx.access.hasPerm(perms, P.MANAGE_THREADS);
  const owner = thread.owner_id === actor.user.id;
  const meta: ThreadMetadata = { ...(thread.thread_metadata ?? newMetadata(new Date(thread.created_at).toISOString(), 4320, undefined)) };
  const deny = () => {
    throw Errors.missingPermissions();
  };

  // Only real changes are judged: clients echo unchanged fields back.
  if (b.locked !== undefined && b.locked !== meta.locked && !mod) deny();
  if (b.invitable !== undefined) {
    if (thread.type !== PRIVATE_THREAD) throw fieldError('invitable', 'BASE_TYPE_INVALID', 'Only private threads can be invitable.');
    if (b.invitable !== (meta.invitable ?? true) && !mod) deny();
  }
  if (b.rate_limit_per_user !== undefined && b.rate_limit_per_user !== thread.rate_limit_per_user && !mod && !ctx.access.hasPerm(perms, P.MANAGE_CHANNELS))
    deny();
  if (b.flags !== undefined && b.flags !== thread.flags && !mod) deny();
  const renames =
    (b.name !== undefined && b.name !== thread.name) ||
    (b.auto_archive_duration !== undefined && b.auto_archive_duration !== meta.auto_archive_duration) ||
    b.applied_tags !== undefined;
  if (renames && !mod && !owner) deny();
  if (b.archived === true && !meta.archived && !mod && !owner) deny();
  if (b.archived === false && meta.archived) {
    const lockedAfter = b.locked ?? meta.locked;
    if (lockedAfter && !mod) deny();
    if (!ctx.access.hasPerm(perms, P.SEND_MESSAGES_IN_THREADS) && !mod) deny();
  }
  // An archived thread only takes un-archiving (and moderators' lock changes) until it is reopened.
  const editsContent =
    renames ||
    (b.rate_limit_per_user !== undefined && b.rate_limit_per_user !== thread.rate_limit_per_user) ||
    (b.invitable !== undefined && b.invitable !== (meta.invitable ?? true)) ||
    (b.flags !== undefined && b.flags !== thread.flags);
  if (meta.archived && b.archived !== false && editsContent) throw Errors.archivedThread();

  const now = new Date(ctx.clock.now()).toISOString();
  if (b.archived !== undefined && b.archived !== meta.archived) {
    meta.archived = b.archived;
    meta.archive_timestamp = now;
  }
  if (b.locked !== undefined) meta.locked = b.locked;
  if (b.auto_archive_duration !== undefined) meta.auto_archive_duration = b.auto_archive_duration;
  if (b.invitable !== undefined) meta.invitable = b.invitable;
  const extra = b.applied_tags !== undefined ? { ...thread.extra, applied_tags: b.applied_tags } : thread.extra;
  const patch = {
    name: b.name ?? thread.name,
    rate_limit_per_user: b.rate_limit_per_user ?? thread.rate_limit_per_user,
    flags: b.flags ?? thread.flags,
    thread_metadata: JSON.stringify(meta),
    extra: JSON.stringify(extra),
  };
  await ctx.repos.channels.patch(thread.id, patch);
  const updated = (await loadChannel(ctx, thread.id))!;
  const wire = threadWire(updated);
  await publishThreadEvent(ctx, updated, 'THREAD_UPDATE', wire);
  await writeAuditLog(ctx, {
    guildId: thread.guild_id,
    userId: actor.user.id,
    actionType: AuditLogEvent.THREAD_UPDATE,
    targetId: thread.id,
    changes: auditChanges('thread', threadAudit(threadWire(thread)), threadAudit(wire)),
  });
  return wire;
}

/**
 * Deletes a thread (DELETE /channels/{id} on a thread): MANAGE_THREADS. Removes its members and messages, detaches
 * the starter message, and publishes THREAD_DELETE.
 */
export async function deleteThread(ctx: Ctx, actor: Actor, thread: ChannelRecord): Promise<APIThreadChannel> {
  if (!isThread(thread) || !thread.guild_id) throw Errors.wrongChannelType();
  await requireThreadAccess(ctx, thread, actor.user.id, P.MANAGE_THREADS);
  const audience = await threadViewers(ctx, thread);
  const starter = thread.parent_id ? await ctx.repos.messages.inChannel(thread.parent_id, thread.id) : null;
  const detached =
    starter && starter.extra.thread_id === thread.id
      ? { ...starter, extra: Object.fromEntries(Object.entries(starter.extra).filter(([k]) => k !== 'thread_id')) }
      : null;
  await ctx.repos.threads.deleteWithContent(thread.id, detached ? { id: detached.id, extra: detached.extra } : null);
  ctx.access.invalidate(thread.guild_id);
  const d = { id: thread.id, guild_id: thread.guild_id, parent_id: thread.parent_id, type: thread.type };
  if (audience.length) ctx.bus.publish({ t: 'THREAD_DELETE', d, guild_id: thread.guild_id, channel_id: thread.parent_id, user_ids: audience });
  await writeAuditLog(ctx, {
    guildId: thread.guild_id,
    userId: actor.user.id,
    actionType: AuditLogEvent.THREAD_DELETE,
    targetId: thread.id,
    changes: auditChanges('thread', threadAudit(threadWire(thread)), null),
  });
  if (detached) await publishStarterUpdate(ctx, detached);
  return threadWire(thread);
}

// ---------------------------------------------------------------------------------------------------------------
// Membership

/**
 * Adds a user to a thread without permission checks (for the messages service: posting in a thread joins it).
 * Returns the new member row, or null when the user already was one. Publishes the membership events.
 */
export async function ensureThreadMember(
  ctx: Ctx,
  thread: ChannelRecord,
  userId: string,
  opts: { announceThread?: boolean } = {},
): Promise<ThreadMemberRow | null> {
  if (await getThreadMember(ctx, thread.id, userId)) return null;
  const row: ThreadMemberRow = { channel_id: thread.id, user_id: userId, join_timestamp: ctx.clock.now(), flags: 0 };
  let count = 0;
  try {
    count = await ctx.repos.threads.addMember(row, MEMBER_COUNT_CAP);
  } catch (err) {
    // Lost a race with a concurrent join: the user is a member either way.
    if (await getThreadMember(ctx, thread.id, userId)) return null;
    throw err;
  }
  const updated = { ...thread, member_count: Math.min(count, MEMBER_COUNT_CAP) };
  const [added] = await withGuildMembers(ctx, thread.guild_id!, [row]);
  // The new member learns of a private thread (and of their membership) through THREAD_CREATE.
  if (thread.type === PRIVATE_THREAD || opts.announceThread) {
    ctx.bus.publish({
      t: 'THREAD_CREATE',
      d: { ...channelWire(updated), member: threadMember(row) },
      guild_id: thread.guild_id,
      channel_id: thread.parent_id,
      user_ids: [userId],
    });
  }
  ctx.bus.publish({
    t: 'THREAD_MEMBER_UPDATE',
    d: { ...threadMember(row), guild_id: thread.guild_id },
    guild_id: thread.guild_id,
    channel_id: thread.parent_id,
    user_ids: [userId],
  });
  await publishThreadEvent(ctx, updated, 'THREAD_MEMBERS_UPDATE', {
    id: thread.id,
    guild_id: thread.guild_id,
    member_count: updated.member_count,
    added_members: [added],
  });
  return row;
}

async function dropThreadMember(ctx: Ctx, thread: ChannelRecord, userId: string): Promise<boolean> {
  // Computed before the delete so a private thread's leaver still hears that they left.
  const before = thread.type === PRIVATE_THREAD ? await threadViewers(ctx, thread) : null;
  const removed = await ctx.repos.threads.removeMember(thread.id, userId, MEMBER_COUNT_CAP);
  if (removed === null) return false;
  const d = { id: thread.id, guild_id: thread.guild_id, member_count: removed, removed_member_ids: [userId] };
  if (before) {
    if (before.length) ctx.bus.publish({ t: 'THREAD_MEMBERS_UPDATE', d, guild_id: thread.guild_id, channel_id: thread.parent_id, user_ids: before });
  } else {
    await publishThreadEvent(ctx, { ...thread, member_count: removed }, 'THREAD_MEMBERS_UPDATE', d);
  }
  return true;
}

function requireOpen(thread: ChannelRecord) {
  if (thread.thread_metadata?.archived) throw Errors.archivedThread();
}

async function requireThreadForMembers(ctx: Ctx, channelId: string, userId: string) {
  const c = await loadChannel(ctx, channelId);
  if (!c || !c.guild_id || !isThread(c)) throw Errors.unknownChannel();
  const perms = await requireThreadAccess(ctx, c, userId);
  return { thread: c as ChannelRecord & { guild_id: string }, perms };
}

/** PUT /channels/{id}/thread-members/@me. */
export async function joinThread(ctx: Ctx, actor: Actor, channelId: string): Promise<void> {
  const { thread } = await requireThreadForMembers(ctx, channelId, actor.user.id);
  requireOpen(thread);
  await ensureThreadMember(ctx, thread, actor.user.id, { announceThread: true });
}

/** DELETE /channels/{id}/thread-members/@me. */
export async function leaveThread(ctx: Ctx, actor: Actor, channelId: string): Promise<void> {
  const { thread } = await requireThreadForMembers(ctx, channelId, actor.user.id);
  requireOpen(thread);
  await dropThreadMember(ctx, thread, actor.user.id);
}

/**
 * PUT /channels/{id}/thread-members/{user_id}: SEND_MESSAGES_IN_THREADS; on a private thread that is not invitable,
 * MANAGE_THREADS. The target must be a guild member who can view the parent.
 */
export async function addThreadMember(ctx: Ctx, actor: Actor, channelId: string, userId: string): Promise<void> {
  if (userId === '@me' || userId === actor.user.id) return joinThread(ctx, actor, channelId);
  const { thread, perms } = await requireThreadForMembers(ctx, channelId, actor.user.id);
  if (!ctx.access.hasPerm(perms, P.SEND_MESSAGES_IN_THREADS)) throw Errors.missingPermissions();
  const mod = ctx.access.hasPerm(perms, P.MANAGE_THREADS);
  if (thread.type === PRIVATE_THREAD && thread.thread_metadata?.invitable === false && !mod) throw Errors.missingPermissions();
  requireOpen(thread);
  if (!isSnowflake(userId)) throw Errors.unknownUser();
  if (!(await ctx.access.isMember(thread.guild_id, userId))) {
    const exists = await ctx.repos.users.byId(userId);
    throw exists ? Errors.unknownMember() : Errors.unknownUser();
  }
  const targetPerms = await ctx.access.channelPerms(thread.guild_id, thread.parent_id!, userId);
  if (!targetPerms || !(targetPerms & P.VIEW_CHANNEL)) throw Errors.missingAccess();
  await ensureThreadMember(ctx, thread, userId);
}

/** DELETE /channels/{id}/thread-members/{user_id}: MANAGE_THREADS, or the creator of a private thread. */
export async function removeThreadMember(ctx: Ctx, actor: Actor, channelId: string, userId: string): Promise<void> {
  if (userId === '@me' || userId === actor.user.id) return leaveThread(ctx, actor, channelId);
  const { thread, perms } = await requireThreadForMembers(ctx, channelId, actor.user.id);
  const mod = ctx.access.hasPerm(perms, P.MANAGE_THREADS);
  if (!mod && !(thread.type === PRIVATE_THREAD && thread.owner_id === actor.user.id)) throw Errors.missingPermissions();
  requireOpen(thread);
  if (!isSnowflake(userId) || !(await dropThreadMember(ctx, thread, userId))) throw Errors.unknownMember();
}

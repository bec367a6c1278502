import type { Actor, Ctx } from '../../context.js';
import { ApiError, fieldError } from '../../../core/errors.js';
import { P } from '@accord/protocol';
import type { UploadedFile } from '../../../core/uploads.js';
import { parseBody } from '../../../core/validation.js';
import type { ChannelRecord } from '../../../store/records.js';
import { channel as channelWire, threadMember } from '../../../wire/channel.js';
import { createMessage } from '../../messages/create.js';
import { MessageCreateBody } from '../../messages/schema.js';
import { messageWire } from '../../messages/view.js';
import { loadChannel, newMetadata, publishThreadEvent, threadRow, type ThreadMemberRow } from './core.js';
import { AuditLogEvent, auditChanges, threadAudit, writeAuditLog } from '../../moderation/audit-log.js';

/** Forum and media posts: a public thread whose first message is given with it. */

const REQUIRE_TAG = 1 << 4;
const tagRequired = () => new ApiError(400, 40067, 'A tag is required to create a forum post in this channel');

export interface ForumPostInput {
  name: string;
  auto_archive_duration?: number | null;
  rate_limit_per_user?: number | null;
  applied_tags?: string[];
  message?: Record<string, unknown>;
}

/**
 * POST /channels/{forum}/threads: SEND_MESSAGES on the forum. Returns the thread with its `message`. The thread row is
 * written and announced before the message (clients drop messages of unknown channels); if the message is refused
 * the thread is removed again. The starter message takes the thread's id, as on the real platform (libraries fetch it so).
 */
export async function createForumPost(ctx: Ctx, actor: Actor, parent: ChannelRecord & { guild_id: string }, b: ForumPostInput, files: UploadedFile[]) {
  await ctx.access.requireChannel(parent.guild_id, parent.id, actor.user.id, P.SEND_MESSAGES);
  if (!b.message) throw fieldError('message', 'BASE_TYPE_REQUIRED', 'This field is required');
  const body = parseBody(MessageCreateBody, b.message);
  const known = new Set<string>((parent.extra.available_tags ?? []).map((t: { id: string }) => String(t.id)));
  const tags = [...new Set(b.applied_tags ?? [])];
  tags.forEach((t, i) => {
    if (!known.has(t)) throw fieldError(['applied_tags', i], 'BASE_TYPE_CHOICES', 'Unknown tag.');
  });
  if (parent.flags & REQUIRE_TAG && !tags.length) throw tagRequired();
  // The message itself is sent on the strength of SEND_MESSAGES in the forum; uploads still need ATTACH_FILES.
  if (files.length) await ctx.access.requireChannel(parent.guild_id, parent.id, actor.user.id, P.ATTACH_FILES);

  const now = ctx.clock.now();
  const row = threadRow({
    id: ctx.ids.next(),
    type: 11,
    parent,
    name: b.name,
    ownerId: actor.user.id,
    rateLimit: b.rate_limit_per_user ?? parent.extra.default_thread_rate_limit_per_user ?? 0,
    meta: newMetadata(new Date(now).toISOString(), b.auto_archive_duration ?? parent.extra.default_auto_archive_duration ?? 4320, undefined),
    now,
    appliedTags: tags,
  });
  const creator: ThreadMemberRow = { channel_id: row.id, user_id: actor.user.id, join_timestamp: now, flags: 0 };
  await ctx.repos.threads.create(row, creator);
  ctx.access.invalidate(parent.guild_id);
  let thread = (await loadChannel(ctx, row.id))!;
  const created = { ...channelWire(thread), newly_created: true };
  await publishThreadEvent(ctx, thread, 'THREAD_CREATE', created, { exclude: [actor.user.id] });
  ctx.bus.publish({
    t: 'THREAD_CREATE',
    d: { ...created, member: threadMember(creator) },
    guild_id: parent.guild_id,
    channel_id: parent.id,
    user_ids: [actor.user.id],
  });
  await writeAuditLog(ctx, {
    guildId: parent.guild_id,
    userId: actor.user.id,
    actionType: AuditLogEvent.THREAD_CREATE,
    targetId: thread.id,
    changes: auditChanges('thread', null, threadAudit(created)),
  });

  let message;
  try {
    message = await createMessage(ctx, { channel: thread, author: actor.user, body, files, skipPermissionChecks: true, id: row.id });
  } catch (err) {
    await ctx.repos.threads.deleteEmpty(row.id);
    ctx.access.invalidate(parent.guild_id);
    await publishThreadEvent(ctx, thread, 'THREAD_DELETE', { id: thread.id, guild_id: thread.guild_id, parent_id: thread.parent_id, type: thread.type });
    throw err;
  }
  thread = (await loadChannel(ctx, row.id)) ?? thread;
  return { thread, message: await messageWire(ctx, message, actor.user.id) };
}

import { z } from 'zod';
import type { Actor, Ctx } from '../../context.js';
import { Errors, fieldError } from '../../../core/errors.js';
import { P, isSnowflake, snowflakeTime } from '@accord/protocol';
import { parseBody, qBool, qInt, snowflake } from '../../../core/validation.js';
import type { ChannelRecord } from '../../../store/records.js';
import { channel as channelWire, threadMember } from '../../../wire/channel.js';
import { PRIVATE_THREAD, THREAD_PARENT_TYPES, getThreadMember, requireGuildChannel, requireVisibleThread, withGuildMembers } from './core.js';

/** Thread listings: active threads of a guild, archived threads of a channel, and thread members. */

const ArchivedQuery = z.object({ before: z.string().optional(), limit: qInt(2, 100) });
const JoinedQuery = z.object({ before: snowflake.optional(), limit: qInt(2, 100) });
const MembersQuery = z.object({ with_member: qBool, after: snowflake.optional(), limit: qInt(1, 100) });
const MemberQuery = z.object({ with_member: qBool });

const archiveTime = (c: ChannelRecord) => Date.parse(c.thread_metadata?.archive_timestamp ?? '') || c.created_at;

/** The caller's thread member objects for a set of threads. */
async function myMembers(ctx: Ctx, userId: string, threadIds: string[]) {
  return (await ctx.repos.threads.membershipsOf(userId, threadIds)).map((r) => threadMember(r));
}

/** Threads of a guild (or of one parent) with their parents' ids. */
async function threadsWhere(ctx: Ctx, filter: { guildId?: string; parentId?: string; types: number[] }): Promise<ChannelRecord[]> {
  return ctx.repos.threads.listWhere(filter);
}

/** GET /guilds/{guild_id}/threads/active: every unarchived thread the caller can see, and the caller's memberships. */
export async function listActiveThreads(ctx: Ctx, actor: Actor, guildId: string) {
  if (!isSnowflake(guildId)) throw Errors.unknownGuild();
  await ctx.access.requireGuild(guildId, actor.user.id);
  const all = (await threadsWhere(ctx, { guildId, types: [10, 11, 12] })).filter((t) => !t.thread_metadata?.archived);
  const mine = new Set(
    all.length
      ? (
          await ctx.repos.threads.membershipsOf(
            actor.user.id,
            all.map((t) => t.id),
          )
        ).map((r) => r.channel_id)
      : [],
  );
  const visible: ChannelRecord[] = [];
  for (const t of all) {
    if (!t.parent_id) continue;
    const perms = await ctx.access.channelPerms(guildId, t.parent_id, actor.user.id);
    if (!perms || !(perms & P.VIEW_CHANNEL)) continue;
    if (t.type === PRIVATE_THREAD && !mine.has(t.id) && !ctx.access.hasPerm(perms, P.MANAGE_THREADS)) continue;
    visible.push(t);
  }
  visible.sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
  // has_more is always false here (every active thread is listed) but the spec's ThreadsResponse requires it.
  return {
    threads: visible.map((t) => channelWire(t)),
    members: await myMembers(
      ctx,
      actor.user.id,
      visible.filter((t) => mine.has(t.id)).map((t) => t.id),
    ),
    has_more: false,
  };
}

async function requireThreadParent(ctx: Ctx, actor: Actor, channelId: string, needed: bigint) {
  const parent = await requireGuildChannel(ctx, channelId);
  if (!THREAD_PARENT_TYPES.has(parent.type)) throw Errors.wrongChannelType();
  await ctx.access.requireChannel(parent.guild_id, parent.id, actor.user.id, needed);
  return parent;
}

function parseBefore(v: string | undefined): number | null {
  if (v === undefined || v === '') return null;
  const text: string = v;
  if (/^\d{1,20}$/.test(text)) return snowflakeTime(text);
  const t = Date.parse(text);
  if (Number.isNaN(t)) throw fieldError('before', 'DATE_TYPE_PARSE', `Could not parse ${text.slice(0, 50)}. Should be ISO8601.`);
  return t;
}

/**
 * GET /channels/{id}/threads/archived/public|private: archived threads newest-archived first. Public needs
 * READ_MESSAGE_HISTORY; private also MANAGE_THREADS.
 */
export async function listArchivedThreads(ctx: Ctx, actor: Actor, channelId: string, kind: 'public' | 'private', query: unknown) {
  const parent = await requireThreadParent(ctx, actor, channelId, kind === 'private' ? P.READ_MESSAGE_HISTORY | P.MANAGE_THREADS : P.READ_MESSAGE_HISTORY);
  const q = parseBody(ArchivedQuery, query);
  const before = parseBefore(q.before);
  const limit = q.limit ?? 50;
  const archived = (await threadsWhere(ctx, { parentId: parent.id, types: kind === 'private' ? [12] : [10, 11] }))
    .filter((t) => t.thread_metadata?.archived && (before === null || archiveTime(t) < before))
    .sort((a, b) => archiveTime(b) - archiveTime(a) || (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
  const page = archived.slice(0, limit);
  return {
    threads: page.map((t) => channelWire(t)),
    members: await myMembers(
      ctx,
      actor.user.id,
      page.map((t) => t.id),
    ),
    has_more: archived.length > limit,
  };
}

/** GET /channels/{id}/users/@me/threads/archived/private: archived private threads the caller joined, by id descending. */
export async function listJoinedPrivateArchivedThreads(ctx: Ctx, actor: Actor, channelId: string, query: unknown) {
  const parent = await requireThreadParent(ctx, actor, channelId, P.READ_MESSAGE_HISTORY);
  const q = parseBody(JoinedQuery, query);
  const limit = q.limit ?? 50;
  const joined = await ctx.repos.threads.joinedPrivateOf(actor.user.id, parent.id);
  const before = q.before ? BigInt(q.before) : null;
  const archived = joined
    .filter((t) => t.thread_metadata?.archived && (before === null || BigInt(t.id) < before))
    .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
  const page = archived.slice(0, limit);
  return {
    threads: page.map((t) => channelWire(t)),
    members: await myMembers(
      ctx,
      actor.user.id,
      page.map((t) => t.id),
    ),
    has_more: archived.length > limit,
  };
}

/** GET /channels/{id}/thread-members: all members, or pages of `limit` after `after` when `with_member` is set. */
export async function listThreadMembers(ctx: Ctx, actor: Actor, channelId: string, query: unknown) {
  const { thread } = await requireVisibleThread(ctx, channelId, actor.user.id);
  const q = parseBody(MembersQuery, query);
  const rows = await ctx.repos.threads.membersPage(thread.id, q.after, q.with_member || q.limit !== undefined ? (q.limit ?? 100) : undefined);
  return q.with_member ? withGuildMembers(ctx, thread.guild_id, rows) : rows.map(threadMember);
}

/** GET /channels/{id}/thread-members/{user_id}: 10007 when the user is not in the thread. */
export async function getThreadMemberView(ctx: Ctx, actor: Actor, channelId: string, userId: string, query: unknown) {
  const { thread } = await requireVisibleThread(ctx, channelId, actor.user.id);
  const q = parseBody(MemberQuery, query);
  const id = userId === '@me' ? actor.user.id : userId;
  if (!isSnowflake(id)) throw Errors.unknownMember();
  const row = await getThreadMember(ctx, thread.id, id);
  if (!row) throw Errors.unknownMember();
  return q.with_member ? (await withGuildMembers(ctx, thread.guild_id, [row]))[0] : threadMember(row);
}

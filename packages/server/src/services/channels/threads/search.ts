import { z } from 'zod';
import type { Actor, Ctx } from '../../context.js';
import { Errors } from '../../../core/errors.js';
import { P, snowflakeTime } from '@accord/protocol';
import { parseBody, qBool, qInt, snowflake } from '../../../core/validation.js';
import type { ChannelRecord } from '../../../store/records.js';
import { channel as channelWire, threadMember } from '../../../wire/channel.js';
import { PRIVATE_THREAD, THREAD_PARENT_TYPES, requireGuildChannel } from './core.js';

/**
 * GET /channels/{id}/threads/search (thread_search): the threads of a text, announcement, forum or media channel the
 * caller can see, filtered by name words, tags, archived state and id range, sorted and paged by offset. Needs
 * VIEW_CHANNEL and READ_MESSAGE_HISTORY on the parent; private threads only when joined or with MANAGE_THREADS.
 * Thread names are searched directly, so the index is always ready (never the 202 "not indexed" answer).
 */

const tagList = z.preprocess(
  (v) => (v === undefined ? undefined : Array.isArray(v) ? v : String(v).split(',').filter(Boolean)),
  z.array(snowflake).max(20).optional(),
);
const SearchQuery = z.object({
  name: z.string().max(100).optional(),
  slop: qInt(0, 100),
  min_id: snowflake.optional(),
  max_id: snowflake.optional(),
  tag: tagList,
  tag_setting: z.enum(['match_all', 'match_some']).optional(),
  archived: qBool,
  sort_by: z.enum(['relevance', 'creation_time', 'last_message_time', 'archive_time']).optional(),
  sort_order: z.enum(['asc', 'desc']).optional(),
  limit: qInt(1, 25),
  offset: qInt(0, 9975),
});

const words = (s: string) => s.toLowerCase().split(/\s+/).filter(Boolean);
const lastActivity = (t: ChannelRecord) => (t.last_message_id ? snowflakeTime(t.last_message_id) : t.created_at);
const archiveTime = (t: ChannelRecord) => Date.parse(t.thread_metadata?.archive_timestamp ?? '') || t.created_at;

export async function searchThreads(ctx: Ctx, actor: Actor, channelId: string, query: unknown) {
  const parent = await requireGuildChannel(ctx, channelId);
  if (!THREAD_PARENT_TYPES.has(parent.type)) throw Errors.wrongChannelType();
  const perms = await ctx.access.requireChannel(parent.guild_id, parent.id, actor.user.id, P.VIEW_CHANNEL | P.READ_MESSAGE_HISTORY);
  const q = parseBody(SearchQuery, query);

  const rows = await ctx.repos.threads.listWhere({ parentId: parent.id, types: [10, 11, 12] });
  const ids = rows.map((t) => t.id);
  const mine = new Map(ids.length ? (await ctx.repos.threads.membershipsOf(actor.user.id, ids)).map((r) => [r.channel_id, r]) : []);
  const seesPrivate = ctx.access.hasPerm(perms, P.MANAGE_THREADS);
  const terms = q.name ? words(q.name) : [];
  const min = q.min_id ? BigInt(q.min_id) : null;
  const max = q.max_id ? BigInt(q.max_id) : null;
  const matched = rows.filter((t) => {
    if (t.type === PRIVATE_THREAD && !mine.has(t.id) && !seesPrivate) return false;
    if (q.archived !== undefined && !!t.thread_metadata?.archived !== q.archived) return false;
    if (min !== null && BigInt(t.id) < min) return false;
    if (max !== null && BigInt(t.id) > max) return false;
    if (terms.length) {
      const name = words(t.name ?? '');
      if (!terms.every((w) => name.some((n) => n.includes(w)))) return false;
    }
    if (q.tag?.length) {
      const applied = new Set<string>(t.extra.applied_tags ?? []);
      const hits = q.tag.filter((id) => applied.has(id)).length;
      if ((q.tag_setting ?? 'match_some') === 'match_all' ? hits !== q.tag.length : hits === 0) return false;
    }
    return true;
  });

  const relevance = (t: ChannelRecord) => {
    const name = words(t.name ?? '');
    return terms.filter((w) => name.includes(w)).length;
  };
  const sortBy = q.sort_by ?? (terms.length ? 'relevance' : 'last_message_time');
  const key = (t: ChannelRecord): number =>
    sortBy === 'creation_time' ? snowflakeTime(t.id) : sortBy === 'archive_time' ? archiveTime(t) : sortBy === 'relevance' ? relevance(t) : lastActivity(t);
  const dir = (q.sort_order ?? 'desc') === 'asc' ? 1 : -1;
  matched.sort((a, b) => dir * (key(a) - key(b)) || (BigInt(b.id) > BigInt(a.id) ? 1 : -1));

  const offset = q.offset ?? 0;
  const limit = q.limit ?? 25;
  const page = matched.slice(offset, offset + limit);
  return {
    threads: page.map((t) => channelWire(t)),
    members: page.filter((t) => mine.has(t.id)).map((t) => threadMember(mine.get(t.id)!)),
    has_more: matched.length > offset + limit,
    total_results: matched.length,
  };
}

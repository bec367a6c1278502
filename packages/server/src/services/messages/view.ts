import type { Ctx } from '../context.js';
import type { ChannelRecord, MemberRecord, MessageRecord, UserRecord } from '../../store/records.js';
import { message, type ReactionCount } from '../../wire/message.js';
import { member as memberWire } from '../../wire/member.js';
import type { AccordMessage } from '../../wire/extensions.js';
import { getUsers } from '../identity/users.js';

export interface ViewOptions {
  /** Whose `me` flags reactions carry; null for a viewer-independent payload. */
  viewerId: string | null;
  /** Include reaction counts (API reads do; events leave reactions to the reaction events). */
  reactions?: boolean;
  /**
   * The gateway's extra fields for guild messages: the author's `member` and `member` on each mentioned user. REST
   * message objects carry neither (MESSAGE_CREATE / MESSAGE_UPDATE only).
   */
  eventExtras?: boolean;
  /** Users the caller already holds (the author, usually): not fetched again. */
  knownUsers?: UserRecord[];
}

const referenceId = (m: MessageRecord) => (m.message_reference && m.message_reference.type !== 1 ? (m.message_reference.message_id ?? null) : null);

/** Members of the given users in the given guild, keyed by user id (kept ones from memory: ctx.access.rows). */
function loadMembers(ctx: Ctx, guildId: string, userIds: string[]): Promise<Map<string, MemberRecord>> {
  return ctx.access.rows.memberRows(guildId, [...new Set(userIds)], (ids) => ctx.repos.members.byUserIds(guildId, ids));
}

/** Reaction counts per message, in the order each emoji first appeared, with the viewer's own flags. */
async function loadReactions(ctx: Ctx, messageIds: string[], viewerId: string | null): Promise<Map<string, ReactionCount[]>> {
  const out = new Map<string, ReactionCount[]>();
  if (!messageIds.length) return out;
  const rows = await ctx.repos.reactions.groupsOf(messageIds);
  const mine = viewerId ? await ctx.repos.reactions.ofUserOn(messageIds, viewerId) : [];
  const mineKeys = new Set(mine.map((r) => `${r.message_id}|${r.emoji_key}|${r.burst ? 1 : 0}`));
  const acc = new Map<string, Map<string, ReactionCount & { first: number }>>();
  for (const r of rows) {
    const mid = r.message_id;
    let byKey = acc.get(mid);
    if (!byKey) acc.set(mid, (byKey = new Map()));
    let rc = byKey.get(r.emoji_key);
    if (!rc) byKey.set(r.emoji_key, (rc = { emoji_key: r.emoji_key, normal: 0, burst: 0, me: false, me_burst: false, first: r.first }));
    const burst = r.burst;
    if (burst) rc.burst += r.count;
    else rc.normal += r.count;
    rc.first = Math.min(rc.first, r.first);
    if (mineKeys.has(`${mid}|${r.emoji_key}|${burst ? 1 : 0}`)) {
      if (burst) rc.me_burst = true;
      else rc.me = true;
    }
  }
  for (const [mid, byKey] of acc)
    out.set(
      mid,
      [...byKey.values()].sort((a, b) => a.first - b.first).map(({ first: _f, ...rc }) => rc),
    );
  return out;
}

/** A member of a guild, kept in memory like the ones of MESSAGE_CREATE (typing and reaction events carry it), or null. */
export async function cachedMember(ctx: Ctx, guildId: string, userId: string): Promise<MemberRecord | null> {
  return (await loadMembers(ctx, guildId, [userId])).get(userId) ?? null;
}

/**
 * Wire objects for messages, hydrated in bulk: users (authors, mentions), reactions, replied-to messages, started
 * threads and, for events, members. Order is preserved.
 */
export async function messagesWire(ctx: Ctx, records: MessageRecord[], opts: ViewOptions): Promise<AccordMessage[]> {
  if (!records.length) return [];
  const refIds = [...new Set(records.map(referenceId).filter((id): id is string => !!id))];
  const refRows = refIds.length ? await ctx.repos.messages.byIds(refIds) : [];
  const refs = new Map(refRows.map((m) => [m.id, m] as const));

  const all = [...records, ...refs.values()];
  const known = new Map((opts.knownUsers ?? []).map((u) => [u.id, u]));
  const users: Map<string, UserRecord> = await getUsers(
    ctx,
    all.flatMap((m) => [m.author_id, ...m.mentions]).filter((id) => !known.has(id)),
  );
  for (const [id, u] of known) users.set(id, u);

  const membersByGuild = new Map<string, Map<string, MemberRecord>>();
  if (opts.eventExtras) {
    for (const gid of new Set(records.map((m) => m.guild_id).filter((g): g is string => !!g))) {
      const ids = records.filter((m) => m.guild_id === gid).flatMap((m) => [m.author_id, ...m.mentions]);
      membersByGuild.set(gid, await loadMembers(ctx, gid, ids));
    }
  }

  const reactions = opts.reactions
    ? await loadReactions(
        ctx,
        records.map((m) => m.id),
        opts.viewerId,
      )
    : new Map<string, ReactionCount[]>();

  const threadIds = records.map((m) => m.extra.thread_id).filter((id): id is string => typeof id === 'string');
  const threads: Map<string, ChannelRecord> = threadIds.length ? await ctx.repos.channels.byIds(threadIds) : new Map();

  return records.map((m) => {
    const members = m.guild_id ? membersByGuild.get(m.guild_id) : undefined;
    const ref = referenceId(m);
    const refRecord = ref ? refs.get(ref) : undefined;
    const out = message(m, {
      users,
      authorMember: members?.get(m.author_id) ?? null,
      reactions: reactions.get(m.id),
      referenced: refRecord ? message(refRecord, { users }) : null,
      thread: typeof m.extra.thread_id === 'string' ? (threads.get(m.extra.thread_id) ?? null) : null,
    });
    if (members) {
      out.mentions = out.mentions.map((u) => {
        const mem = members.get(u.id);
        return mem ? { ...u, member: memberWire(mem, null) } : u;
      });
    }
    return opts.eventExtras ? out : restShape(out);
  });
}

/**
 * A message as REST answers carry it: without the fields only the gateway's MESSAGE_CREATE / MESSAGE_UPDATE payloads
 * have: `guild_id` (REST messages never carry it: discord-api-docs#912, #2846), the author's and mentions' `member`,
 * and the legacy `interaction.member` (discord-api-types: "only sent in MESSAGE_CREATE events").
 */
function restShape(event: AccordMessage): AccordMessage {
  const { member: _member, guild_id: _guild, ...rest } = event;
  rest.mentions = rest.mentions.map(({ member: _m, ...u }) => u);
  if (rest.interaction && typeof rest.interaction === 'object') {
    const { member: _im, ...interaction } = rest.interaction;
    rest.interaction = interaction;
  }
  if (rest.referenced_message && typeof rest.referenced_message === 'object') rest.referenced_message = restShape(rest.referenced_message);
  return rest;
}

/** One message as the API returns it to `viewerId`. */
export async function messageWire(ctx: Ctx, record: MessageRecord, viewerId: string | null): Promise<AccordMessage> {
  return (await messagesWire(ctx, [record], { viewerId, reactions: true }))[0];
}

/** The viewer-independent payload of MESSAGE_CREATE / MESSAGE_UPDATE: full message, author member, mention members. */
export async function messageEventWire(ctx: Ctx, record: MessageRecord, knownUsers?: UserRecord[]): Promise<AccordMessage> {
  return (await messagesWire(ctx, [record], { viewerId: null, eventExtras: true, knownUsers }))[0];
}

/**
 * The REST object of a message that has just been created, from its event payload: the same fields without the
 * gateway-only ones (restShape). A new message has no reactions, so nothing else differs.
 */
export function restFromEvent(event: AccordMessage): AccordMessage {
  return restShape(event);
}

import type { Actor, Ctx } from '../context.js';
import { ApiError, Errors, fieldError } from '../../core/errors.js';
import { P } from '@accord/protocol';
import { toMessage } from '../../store/repos/mappers.js';
import type { MessageRecord } from '../../store/records.js';
import { publicUser } from '../../wire/user.js';
import { channelAccess, guildField, loadChannel, loadMessage, routeFor } from './channel.js';
import { messageEventWire } from './view.js';
import { getUsers } from '../identity/users.js';
import { isId } from '../../core/ids.js';
import type { BusEvent } from '../../bus/bus.js';

/**
 * Polls: the message service stores a poll in `extra.poll` at create time; this module adds votes (the official
 * client's `PUT /channels/{c}/polls/{m}/answers/@me {answer_ids}`; bots cannot vote), the voters list, early expiry by
 * the author, and finalization when the server clock passes the expiry (results, MESSAGE_UPDATE, a POLL_RESULT
 * message of type 46).
 */

export const pollExpired = () => new ApiError(400, 520001, 'Poll expired');
const notAPoll = () => new ApiError(400, 520006, 'Cannot expire a non-poll message');

interface Poll {
  question: { text: string };
  answers: { answer_id: number; poll_media: { text?: string; emoji?: { id: string | null; name: string | null } } }[];
  expiry: string | null;
  allow_multiselect: boolean;
  layout_type: number;
  results: { is_finalized: boolean; answer_counts: { id: number; count: number; me_voted: boolean }[] };
}

const pollOf = (m: MessageRecord): Poll | null => (m.extra.poll && typeof m.extra.poll === 'object' ? (m.extra.poll as Poll) : null);
const expiryOf = (p: Poll) => (p.expiry ? Date.parse(p.expiry) : Number.POSITIVE_INFINITY);

async function pollMessage(ctx: Ctx, actor: Actor, channelId: string, messageId: string, needed: bigint) {
  const ch = await loadChannel(ctx, channelId);
  await channelAccess(ctx, ch, actor.user.id, needed);
  const m = await loadMessage(ctx, ch.id, messageId);
  return { ch, m };
}

/** Vote counts per answer, from the votes table. */
async function counts(ctx: Ctx, messageId: string): Promise<Map<number, number>> {
  return ctx.repos.polls.counts(messageId);
}

/** Writes the current counts into the stored poll (they are what message reads return). */
async function storeResults(ctx: Ctx, messageId: string, finalize: boolean): Promise<MessageRecord | null> {
  const c = await counts(ctx, messageId);
  const m = await ctx.repos.messages.byId(messageId);
  if (!m) return null;
  const poll = pollOf(m);
  if (!poll) return null;
  const results = {
    is_finalized: poll.results?.is_finalized || finalize,
    answer_counts: poll.answers.filter((a) => c.get(a.answer_id)).map((a) => ({ id: a.answer_id, count: c.get(a.answer_id)!, me_voted: false })),
  };
  const extra = { ...m.extra, poll: { ...poll, results } };
  if (finalize && !poll.results?.is_finalized) {
    if (!(await ctx.repos.messages.endPoll(messageId, extra))) return null; // another process ended it
  } else await ctx.repos.messages.setExtra(messageId, extra);
  return { ...m, extra };
}

/**
 * PUT /channels/{c}/polls/{m}/answers/@me `{answer_ids}`: replaces the caller's votes (an empty list retracts them).
 * People only; needs VIEW_CHANNEL; 520001 once the poll has ended. Emits MESSAGE_POLL_VOTE_ADD / _REMOVE per answer.
 */
export async function vote(ctx: Ctx, actor: Actor, channelId: string, messageId: string, answerIds: string[]): Promise<void> {
  if (actor.kind !== 'user' || actor.user.bot) throw Errors.botsCannotUse();
  const { ch, m } = await pollMessage(ctx, actor, channelId, messageId, P.READ_MESSAGE_HISTORY);
  const poll = pollOf(m);
  if (!poll) throw Errors.unknownMessage();
  if (poll.results?.is_finalized || expiryOf(poll) <= ctx.clock.now()) {
    await finalizePoll(ctx, m.id);
    throw pollExpired();
  }
  const wanted = [...new Set(answerIds.map(Number))];
  const known = new Set(poll.answers.map((a) => a.answer_id));
  wanted.forEach((a, i) => {
    if (!known.has(a)) throw fieldError(['answer_ids', i], 'POLL_ANSWER_INVALID', 'Invalid poll answer.');
  });
  if (!poll.allow_multiselect && wanted.length > 1) throw fieldError('answer_ids', 'BASE_TYPE_MAX_LENGTH', 'Must be 1 or fewer in length.');
  const mine = await ctx.repos.polls.votesOf(m.id, actor.user.id);
  const added = wanted.filter((a) => !mine.includes(a));
  const removed = mine.filter((a) => !wanted.includes(a));
  if (!added.length && !removed.length) return;
  await ctx.repos.polls.changeVotes(m.id, actor.user.id, removed, added, ctx.clock.now());
  await storeResults(ctx, m.id, false);
  const base = { user_id: actor.user.id, channel_id: ch.id, message_id: m.id, ...guildField(ch) };
  for (const a of removed) ctx.bus.publish({ t: 'MESSAGE_POLL_VOTE_REMOVE', d: { ...base, answer_id: a }, ...routeFor(ch) });
  for (const a of added) ctx.bus.publish({ t: 'MESSAGE_POLL_VOTE_ADD', d: { ...base, answer_id: a }, ...routeFor(ch) });
}

/** GET /channels/{c}/polls/{m}/answers/{answer_id}: the voters of one answer, by user id, `after` and `limit` (1–100, 25). */
export async function answerVoters(ctx: Ctx, actor: Actor, channelId: string, messageId: string, answerId: string, q: { after?: string; limit?: number }) {
  const { m } = await pollMessage(ctx, actor, channelId, messageId, P.READ_MESSAGE_HISTORY);
  const poll = pollOf(m);
  if (!poll) throw Errors.unknownMessage();
  const answer = Number(answerId);
  if (!/^\d{1,3}$/.test(answerId) || !poll.answers.some((a) => a.answer_id === answer)) throw new ApiError(404, 10108, 'Unknown answer');
  if (q.after && !isId(q.after)) return { users: [] };
  const ids = await ctx.repos.polls.voterIds(m.id, answer, { after: q.after, limit: q.limit ?? 25 });
  const users = await getUsers(ctx, ids);
  return {
    users: ids
      .map((id) => users.get(id))
      .filter((u) => !!u)
      .map((u) => publicUser(u!)),
  };
}

/** POST /channels/{c}/polls/{m}/expire: the poll's author ends it now (others: 50005; no poll: 520006; ended: 520001). */
export async function expirePoll(ctx: Ctx, actor: Actor, channelId: string, messageId: string): Promise<MessageRecord> {
  const { m } = await pollMessage(ctx, actor, channelId, messageId, 0n);
  const poll = pollOf(m);
  if (!poll) throw notAPoll();
  if (m.author_id !== actor.user.id || m.webhook_id) throw Errors.cannotEditOthers();
  if (poll.results?.is_finalized) throw pollExpired();
  const extra = { ...m.extra, poll: { ...poll, expiry: new Date(ctx.clock.now()).toISOString() } };
  await ctx.repos.messages.setExtra(m.id, extra);
  return (await finalizePoll(ctx, m.id)) ?? m;
}

/** Serializes finalization per message, so the clock sweep and an explicit expiry finalize once. */
const finalizing = new Map<string, Promise<MessageRecord | null>>();

/**
 * Ends a poll: final counts, `is_finalized`, MESSAGE_UPDATE, and a POLL_RESULT message (type 46) replying to the poll
 * with the `poll_result` embed the platform posts. Idempotent.
 */
export function finalizePoll(ctx: Ctx, messageId: string): Promise<MessageRecord | null> {
  let p = finalizing.get(messageId);
  if (!p) {
    p = doFinalize(ctx, messageId).finally(() => finalizing.delete(messageId));
    finalizing.set(messageId, p);
  }
  return p;
}

async function doFinalize(ctx: Ctx, messageId: string): Promise<MessageRecord | null> {
  const before = await ctx.repos.messages.byId(messageId);
  if (!before) return null;
  const poll = pollOf(before);
  if (!poll || poll.results?.is_finalized) return before;
  const m = await storeResults(ctx, messageId, true);
  if (!m) return ctx.repos.messages.byId(messageId); // gone, or ended by another process: nothing more to send
  const ch = await loadChannel(ctx, m.channel_id).catch(() => null);
  if (!ch) return m;
  ctx.bus.publish({ t: 'MESSAGE_UPDATE', d: await messageEventWire(ctx, m), ...routeFor(ch) });

  const final = pollOf(m)!;
  const total = final.results.answer_counts.reduce((n, a) => n + a.count, 0);
  const top = [...final.results.answer_counts].sort((a, b) => b.count - a.count || a.id - b.id)[0];
  const tie = top && final.results.answer_counts.filter((a) => a.count === top.count).length > 1;
  const victor = top && !tie ? final.answers.find((a) => a.answer_id === top.id) : undefined;
  const fields: { name: string; value: string; inline: boolean }[] = [
    { name: 'poll_question_text', value: final.question.text, inline: false },
    { name: 'victor_answer_votes', value: String(victor ? top!.count : 0), inline: false },
    { name: 'total_votes', value: String(total), inline: false },
  ];
  if (victor) {
    fields.push({ name: 'victor_answer_id', value: String(victor.answer_id), inline: false });
    if (victor.poll_media.text) fields.push({ name: 'victor_answer_text', value: victor.poll_media.text, inline: false });
    if (victor.poll_media.emoji?.id) fields.push({ name: 'victor_answer_emoji_id', value: victor.poll_media.emoji.id, inline: false });
    if (victor.poll_media.emoji?.name) fields.push({ name: 'victor_answer_emoji_name', value: victor.poll_media.emoji.name, inline: false });
  }
  const id = ctx.ids.next();
  const result = {
    id,
    channel_id: ch.id,
    guild_id: ch.guild_id,
    author_id: m.author_id,
    webhook_id: m.webhook_id,
    application_id: m.application_id,
    type: 46,
    content: '',
    tts: 0,
    mention_everyone: 0,
    mentions: '[]',
    mention_roles: '[]',
    attachments: '[]',
    embeds: JSON.stringify([{ type: 'poll_result', fields }]),
    components: '[]',
    sticker_items: null,
    flags: 0,
    nonce: null,
    pinned_at: null,
    edited_at: null,
    message_reference: JSON.stringify({ type: 0, message_id: m.id, channel_id: ch.id, ...guildField(ch) }),
    extra: JSON.stringify(m.webhook_id ? { username: m.extra.username, avatar: m.extra.avatar } : {}),
    created_at: ctx.clock.now(),
  };
  await ctx.repos.messages.insertPlain(result);
  ctx.bus.publish({ t: 'MESSAGE_CREATE', d: await messageEventWire(ctx, toMessage(result)), ...routeFor(ch) });
  return m;
}

/** Polls still open, by message id, with their expiry: what the clock sweep watches. */
const schedules = new WeakMap<Ctx, Map<string, number>>();

/** Finalizes every open poll whose expiry the server clock has passed. */
export async function sweepPolls(ctx: Ctx): Promise<void> {
  const open = schedules.get(ctx);
  if (!open) return;
  const now = ctx.clock.now();
  for (const [id, at] of [...open]) {
    if (at > now) continue;
    open.delete(id);
    await finalizePoll(ctx, id).catch(() => undefined);
  }
}

/**
 * Starts finalization by the clock: loads open polls once, watches MESSAGE_CREATE for new ones, and sweeps every second
 * and whenever the dev clock moves. Returns the function that stops it.
 */
export function startPollClock(ctx: Ctx, everyMs = 1000): () => void {
  const open = new Map<string, number>();
  schedules.set(ctx, open);
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const sweep = () => {
    if (stopped) return;
    running = running.then(() => sweepPolls(ctx)).catch(() => undefined);
  };
  const track = (id: string, expiry: string | null | undefined) => open.set(id, expiry ? Date.parse(expiry) : Number.POSITIVE_INFINITY);
  const unsubscribe = ctx.bus.subscribe((e) => {
    if (e.t === '__CLOCK_MOVED') sweep();
    else if (isOpenPoll(e)) track(String(e.d.id), e.d.poll.expiry);
  });
  // Polls posted on API nodes, when this clock runs on a worker node (announcePolls).
  const unsubscribeRemote = ctx.bus.subscribe(
    (e) => {
      if (e.t === '__POLL_OPENED' && typeof e.d?.id === 'string') track(e.d.id, e.d.expiry);
    },
    { remote: true },
  );
  void (async () => {
    try {
      const rows = await ctx.repos.messages.withOpenPolls();
      for (const r of rows) {
        const poll = JSON.parse(r.extra).poll as Poll | undefined;
        if (poll && !poll.results?.is_finalized && !open.has(r.id)) open.set(r.id, expiryOf(poll));
      }
      sweep();
    } catch {
      // The store may close before this first load finishes (short-lived test servers).
    }
  })();
  const timer = setInterval(sweep, everyMs);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
    unsubscribe();
    unsubscribeRemote();
  };
}

const isOpenPoll = (e: BusEvent) => e.t === 'MESSAGE_CREATE' && !!e.d?.poll && !e.d.poll.results?.is_finalized;

/**
 * On a node that posts messages but runs no poll clock (`--role api`): tells the clocks of the worker nodes about each
 * new poll. A MESSAGE_CREATE leaves this process only on its guild's topic, which a worker does not watch; control
 * events (`__…`) reach every process.
 */
export function announcePolls(ctx: Ctx): () => void {
  return ctx.bus.subscribe((e) => {
    if (isOpenPoll(e)) ctx.bus.publish({ t: '__POLL_OPENED', d: { id: String(e.d.id), expiry: e.d.poll.expiry ?? null } });
  });
}

import type { APIReaction, Message, Snowflake } from '../api/types.js';
import { rememberUsers, patchGuild } from './guild-events.js';
import { compareIds } from './snowflake.js';
import type { ChannelMessages, LocalMessage, Store } from './store.js';

/** Messages, reactions, polls and typing, for channels whose history the client has loaded. */

export const emptyChannel = (): ChannelMessages => ({ items: [], hasMore: true, loading: false, error: null });

function patchMessages(store: Store, channelId: Snowflake, fn: (c: ChannelMessages) => ChannelMessages | undefined): void {
  const prev = store.state.messages.get(channelId);
  if (!prev) return;
  store.update<'messages', ChannelMessages>('messages', channelId, () => fn(prev) ?? prev);
}

/** Inserts or replaces by id, keeping the list sorted (new messages land at the end almost always). */
export function upsert(items: Message[], m: Message): Message[] {
  const at = findIndex(items, m.id);
  if (at >= 0) {
    const next = items.slice();
    next[at] = m;
    return next;
  }
  if (!items.length || compareIds(items[items.length - 1].id, m.id) < 0) return [...items, m];
  const next = [...items, m];
  next.sort((a, b) => compareIds(a.id, b.id));
  return next;
}

function findIndex(items: Message[], id: Snowflake): number {
  for (let i = items.length - 1; i >= 0; i--) if (items[i].id === id) return i;
  return -1;
}

function patchOne(store: Store, channelId: Snowflake, messageId: Snowflake, fn: (m: Message) => Message): void {
  patchMessages(store, channelId, (c) => {
    const at = findIndex(c.items, messageId);
    if (at < 0) return undefined;
    const items = c.items.slice();
    items[at] = fn(items[at]);
    return { ...c, items };
  });
}

export function onMessageCreate(store: Store, m: Message & { nonce?: string | number }): void {
  rememberUsers(store, [m.author, ...(m.mentions ?? [])]);
  if (m.nonce != null) dropLocal(store, m.channel_id, String(m.nonce));
  patchMessages(store, m.channel_id, (c) => ({ ...c, items: upsert(c.items, m) }));
  clearTyping(store, m.channel_id, m.author.id);
  bumpLastMessage(store, m);
}

function bumpLastMessage(store: Store, m: Message): void {
  if (m.guild_id) {
    patchGuild(store, m.guild_id, (g) => {
      const ch = g.channels.get(m.channel_id);
      if (!ch) return {};
      const channels = new Map(g.channels);
      channels.set(ch.id, { ...ch, last_message_id: m.id, message_count: (ch.message_count ?? 0) + (ch.type >= 10 && ch.type <= 12 ? 1 : 0) });
      return { channels };
    });
  } else {
    const ch = store.state.privateChannels.get(m.channel_id);
    if (ch) store.update('privateChannels', ch.id, () => ({ ...ch, last_message_id: m.id }));
  }
}

export function onMessageUpdate(store: Store, m: Partial<Message> & { id: Snowflake; channel_id: Snowflake }): void {
  patchOne(store, m.channel_id, m.id, (prev) => ({ ...prev, ...m }) as Message);
}

export function onMessageDelete(store: Store, d: { id?: Snowflake; ids?: Snowflake[]; channel_id: Snowflake }): void {
  const ids = new Set(d.ids ?? (d.id ? [d.id] : []));
  patchMessages(store, d.channel_id, (c) => ({ ...c, items: c.items.filter((m) => !ids.has(m.id)) }));
}

/** Ephemeral messages are dismissed locally: the server keeps no copy for anyone else. */
export function dismissMessage(store: Store, channelId: Snowflake, id: Snowflake): void {
  onMessageDelete(store, { id, channel_id: channelId });
}

const emojiKey = (e: { id?: string | null; name?: string | null }) => e.id ?? e.name ?? '';

export function onReaction(
  store: Store,
  t: string,
  d: {
    channel_id: Snowflake;
    message_id: Snowflake;
    user_id?: Snowflake;
    emoji?: { id: string | null; name: string | null; animated?: boolean };
    burst?: boolean;
  },
): void {
  const mine = d.user_id === store.state.me?.id;
  patchOne(store, d.channel_id, d.message_id, (m) => {
    if (t === 'MESSAGE_REACTION_REMOVE_ALL') return { ...m, reactions: [] };
    if (!d.emoji) return m;
    const key = emojiKey(d.emoji);
    let reactions: APIReaction[] = [...(m.reactions ?? [])];
    if (t === 'MESSAGE_REACTION_REMOVE_EMOJI') return { ...m, reactions: reactions.filter((r) => emojiKey(r.emoji) !== key) };
    const at = reactions.findIndex((r) => emojiKey(r.emoji) === key);
    if (t === 'MESSAGE_REACTION_ADD') {
      if (at < 0) {
        reactions.push({
          emoji: d.emoji as APIReaction['emoji'],
          count: 1,
          me: mine,
          me_burst: false,
          burst_colors: [],
          count_details: { normal: 1, burst: 0 },
        });
      } else {
        const r = reactions[at];
        if (mine && r.me) return m; // already counted (a repeated event)
        reactions[at] = { ...r, count: r.count + 1, me: r.me || mine };
      }
    } else if (at >= 0) {
      const r = reactions[at];
      const count = r.count - 1;
      if (count <= 0) reactions = reactions.filter((_, i) => i !== at);
      else reactions[at] = { ...r, count, me: mine ? false : r.me };
    }
    return { ...m, reactions };
  });
}

export function onPollVote(store: Store, t: string, d: { channel_id: Snowflake; message_id: Snowflake; user_id: Snowflake; answer_id: number }): void {
  const mine = d.user_id === store.state.me?.id;
  patchOne(store, d.channel_id, d.message_id, (m) => {
    if (!m.poll) return m;
    const counts = [...(m.poll.results?.answer_counts ?? [])];
    const at = counts.findIndex((c) => c.id === d.answer_id);
    const delta = t === 'MESSAGE_POLL_VOTE_ADD' ? 1 : -1;
    if (at < 0) {
      if (delta > 0) counts.push({ id: d.answer_id, count: 1, me_voted: mine });
    } else {
      counts[at] = { ...counts[at], count: Math.max(0, counts[at].count + delta), me_voted: mine ? delta > 0 : counts[at].me_voted };
    }
    return { ...m, poll: { ...m.poll, results: { is_finalized: m.poll.results?.is_finalized ?? false, answer_counts: counts } } };
  });
}

export function onTyping(store: Store, d: { channel_id: Snowflake; user_id: Snowflake; member?: { user?: any } }): void {
  if (d.user_id === store.state.me?.id) return;
  if (d.member?.user) rememberUsers(store, [d.member.user]);
  const typing = new Map(store.state.typing);
  const inChannel = new Map(typing.get(d.channel_id) ?? []);
  inChannel.set(d.user_id, Date.now() + 10_000);
  typing.set(d.channel_id, inChannel);
  store.set({ typing });
}

export function clearTyping(store: Store, channelId: Snowflake, userId: Snowflake): void {
  const inChannel = store.state.typing.get(channelId);
  if (!inChannel?.has(userId)) return;
  const typing = new Map(store.state.typing);
  const next = new Map(inChannel);
  next.delete(userId);
  typing.set(channelId, next);
  store.set({ typing });
}

/** Drops expired typing entries; called on a timer. */
export function expireTyping(store: Store): void {
  const now = Date.now();
  let changed = false;
  const typing = new Map<Snowflake, Map<Snowflake, number>>();
  for (const [ch, users] of store.state.typing) {
    const kept = new Map([...users].filter(([, until]) => until > now));
    if (kept.size !== users.size) changed = true;
    if (kept.size) typing.set(ch, kept);
  }
  if (changed) store.set({ typing });
}

export function addLocal(store: Store, m: LocalMessage): void {
  store.update<'local', LocalMessage[]>('local', m.channelId, (prev) => [...(prev ?? []), m]);
}

export function patchLocal(store: Store, channelId: Snowflake, nonce: string, patch: Partial<LocalMessage>): void {
  store.update<'local', LocalMessage[]>('local', channelId, (prev) => prev?.map((m) => (m.nonce === nonce ? { ...m, ...patch } : m)));
}

export function dropLocal(store: Store, channelId: Snowflake, nonce: string): void {
  const list = store.state.local.get(channelId);
  if (!list?.some((m) => m.nonce === nonce)) return;
  store.update<'local', LocalMessage[]>('local', channelId, (prev) => {
    const next = prev?.filter((m) => m.nonce !== nonce);
    return next?.length ? next : undefined;
  });
}

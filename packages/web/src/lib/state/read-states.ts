import type { Api } from '../api/routes.js';
import type { Channel, Message, Snowflake } from '../api/types.js';
import { compareIds } from './snowflake.js';
import type { GuildState, ReadState, State, Store } from './store.js';

/**
 * Read states as the official client keeps them: READY's `read_state` says how far the person read in each channel
 * and how many mentions came since; new messages move channels to unread and count mentions (every message in a
 * DM); an ack (this tab's or, by MESSAGE_ACK, another's) marks a channel read. A channel without a read state is
 * read until a message arrives while the client runs.
 */

/** Channels whose last_message_id is not a message of theirs: categories, forums and media channels (their posts). */
const NO_MESSAGES = new Set([4, 15, 16]);

export function onReadyReadStates(store: Store, d: any): void {
  const readStates = new Map<Snowflake, ReadState>();
  for (const e of d.read_state?.entries ?? []) readStates.set(e.id, { lastMessageId: e.last_message_id ?? null, mentionCount: e.mention_count ?? 0 });
  store.set({ readStates });
}

/** Whether a message counts as a mention for me: DMs always, else my user, a role I hold, or @everyone/@here. */
export function mentionsMe(state: State, m: Message): boolean {
  const me = state.me?.id;
  if (!me || m.author.id === me) return false;
  if (!m.guild_id) return true;
  if (m.mention_everyone || m.mentions?.some((u) => u.id === me)) return true;
  const roles = state.guilds.get(m.guild_id)?.members.get(me)?.roles ?? [];
  return (m.mention_roles ?? []).some((r) => roles.includes(r));
}

/** Runs before the message store sees the message, while the channel's last_message_id is still the previous one. */
export function onMessageCreateRead(store: Store, m: Message): void {
  const s = store.state;
  if (m.author.id === s.me?.id) return;
  const prev = s.readStates.get(m.channel_id);
  const channel = m.guild_id ? s.guilds.get(m.guild_id)?.channels.get(m.channel_id) : s.privateChannels.get(m.channel_id);
  const base = prev ?? { lastMessageId: channel?.last_message_id ?? null, mentionCount: 0 };
  if (!prev || mentionsMe(s, m))
    store.update<'readStates', ReadState>('readStates', m.channel_id, () => ({ ...base, mentionCount: base.mentionCount + (mentionsMe(s, m) ? 1 : 0) }));
}

/** MESSAGE_ACK: this person read a channel somewhere (this tab or another). */
export function onMessageAck(store: Store, d: { channel_id: Snowflake; message_id: Snowflake; mention_count?: number; manual?: boolean }): void {
  store.update<'readStates', ReadState>('readStates', d.channel_id, (prev) => {
    if (!d.manual && prev?.lastMessageId && compareIds(prev.lastMessageId, d.message_id) > 0) return prev;
    return { lastMessageId: d.message_id, mentionCount: d.mention_count ?? 0 };
  });
}

export function isUnread(c: Channel | undefined, rs: ReadState | undefined): boolean {
  if (!c?.last_message_id || !rs || NO_MESSAGES.has(c.type)) return false;
  return rs.lastMessageId === null || compareIds(c.last_message_id, rs.lastMessageId) > 0;
}

/** What the unread summaries read: the read states with the channels they compare against. */
export type ReadView = Pick<State, 'readStates' | 'guilds' | 'privateChannels'>;

export const mentionCountOf = (state: ReadView, channelId: Snowflake): number => state.readStates.get(channelId)?.mentionCount ?? 0;

/** A guild's unread and mention summary for its icon in the rail. */
export function guildSummary(state: ReadView, g: GuildState): { unread: boolean; mentions: number } {
  let unread = false;
  let mentions = 0;
  for (const c of g.channels.values()) {
    const rs = state.readStates.get(c.id);
    if (isUnread(c, rs)) {
      unread = true;
      mentions += rs?.mentionCount ?? 0;
    }
  }
  return { unread, mentions };
}

/** Every unread mention (and unread DM message) the person has: the count in the title. */
export function totalMentions(state: ReadView): number {
  let n = 0;
  for (const g of state.guilds.values()) n += guildSummary(state, g).mentions;
  for (const c of state.privateChannels.values()) if (isUnread(c, state.readStates.get(c.id))) n += mentionCountOf(state, c.id);
  return n;
}

/** Unread DM messages (at least one per unread DM): the badge on the rail's home button. */
export function unreadDmCount(state: ReadView): number {
  let n = 0;
  for (const c of state.privateChannels.values()) if (isUnread(c, state.readStates.get(c.id))) n += Math.max(1, mentionCountOf(state, c.id));
  return n;
}

/** Marks a channel read up to its last message, here at once and on the server (which tells the other tabs). */
export async function ackChannel(api: Api, store: Store, c: Channel): Promise<void> {
  if (!c.last_message_id) return;
  onMessageAck(store, { channel_id: c.id, message_id: c.last_message_id, mention_count: 0 });
  await api.channels.ack(c.id, c.last_message_id);
}

/** "Mark As Read" on a server: every unread channel of it. */
export async function ackGuild(api: Api, store: Store, guildId: Snowflake): Promise<void> {
  const g = store.state.guilds.get(guildId);
  if (!g) return;
  const unread = [...g.channels.values()].filter((c) => isUnread(c, store.state.readStates.get(c.id)));
  for (const c of unread) await ackChannel(api, store, c);
}

import type { APIUser, Channel } from '../../lib/api/types.js';
import type { EmojiEntry } from '../../lib/emoji/data.js';
import { searchEmoji } from '../../lib/emoji/data.js';
import { channelPermissions, has, Perm } from '../../lib/state/permissions.js';
import type { GuildState } from '../../lib/state/guild-state.js';

/** The word being completed: `@bo`, `#gen` or `:smi` just before the caret. */
export interface Trigger {
  kind: '@' | '#' | ':';
  query: string;
  /** Where the trigger character is; the word runs to the caret. */
  start: number;
  end: number;
}

/** One row of the popup and the text that replaces the word when it is picked (the real mention syntax). */
export interface Suggestion {
  key: string;
  kind: 'member' | 'role' | 'everyone' | 'channel' | 'emoji' | 'custom';
  label: string;
  detail?: string;
  insert: string;
  user?: APIUser;
  color?: number;
  unicode?: string;
  custom?: { id: string; animated?: boolean };
}

const MENTION_EVERYONE = 1n << 17n;
const LIMIT = 10;
/** Emoji completion starts after two characters, as the official client's does (":D" and "a:b" stay text). */
const EMOJI_MIN = 2;

export function findTrigger(text: string, caret: number): Trigger | null {
  const before = text.slice(0, caret);
  const m = /(^|[\s(])([@#:])([^\s@#:<>`]*)$/.exec(before);
  if (!m) return null;
  const kind = m[2] as Trigger['kind'];
  const query = m[3];
  if (kind === ':' && query.length < EMOJI_MIN) return null;
  return { kind, query, start: caret - query.length - 1, end: caret };
}

/** The text with the word replaced and where the caret goes after it. */
export function applySuggestion(text: string, t: Trigger, s: Suggestion): { text: string; caret: number } {
  const insert = `${s.insert} `;
  const rest = text.slice(t.end).replace(/^ /, '');
  return { text: text.slice(0, t.start) + insert + rest, caret: t.start + insert.length };
}

/** Starts-with matches first, then contains; case-insensitive. */
function rank<T>(items: T[], names: (t: T) => (string | null | undefined)[], query: string): T[] {
  const q = query.toLowerCase();
  if (!q) return items;
  const starts: T[] = [];
  const contains: T[] = [];
  for (const it of items) {
    const ns = names(it)
      .filter((n): n is string => !!n)
      .map((n) => n.toLowerCase());
    if (ns.some((n) => n.startsWith(q))) starts.push(it);
    else if (ns.some((n) => n.includes(q))) contains.push(it);
  }
  return [...starts, ...contains];
}

export interface CompletionSource {
  me: APIUser;
  channel: Channel;
  guild?: GuildState;
  /** A DM's or group's people when there is no guild. */
  recipients: APIUser[];
  emoji: EmojiEntry[] | null;
}

export function suggest(t: Trigger, src: CompletionSource): Suggestion[] {
  if (t.kind === '@') return mentions(t.query, src);
  if (t.kind === '#') return channels(t.query, src);
  return emoji(t.query, src);
}

function mentions(query: string, { me, guild, channel, recipients }: CompletionSource): Suggestion[] {
  const people: { user: APIUser; nick?: string | null }[] = guild
    ? [...guild.members.values()].filter((m) => m.user).map((m) => ({ user: m.user!, nick: m.nick }))
    : [me, ...recipients].map((user) => ({ user }));
  const out: Suggestion[] = rank(people, (p) => [p.nick, p.user.global_name, p.user.username], query).map((p) => ({
    key: `u${p.user.id}`,
    kind: 'member',
    label: p.nick || p.user.global_name || p.user.username,
    detail: p.user.username,
    insert: `<@${p.user.id}>`,
    user: p.user,
  }));
  if (guild) {
    const perms = channelPermissions(guild, me.id, channel);
    const everyone = has(perms, MENTION_EVERYONE);
    const roles = [...guild.roles.values()].filter((r) => r.id !== guild.id && (r.mentionable || everyone));
    for (const r of rank(roles, (r) => [r.name], query))
      out.push({ key: `r${r.id}`, kind: 'role', label: r.name, detail: 'Role', insert: `<@&${r.id}>`, color: r.color });
    if (everyone)
      for (const name of rank(['everyone', 'here'], (n) => [n], query))
        out.push({
          key: name,
          kind: 'everyone',
          label: `@${name}`,
          detail: name === 'everyone' ? 'Notify everyone who can see this channel.' : 'Notify everyone online who can see this channel.',
          insert: `@${name}`,
        });
  }
  return out.slice(0, LIMIT);
}

/** Channel types a `#` mention is useful for: text, announcement, voice, stage, forum, media. */
const MENTIONABLE_CHANNELS = new Set([0, 2, 5, 13, 15, 16]);

function channels(query: string, { me, guild }: CompletionSource): Suggestion[] {
  if (!guild) return [];
  const visible = [...guild.channels.values()]
    .filter((c) => MENTIONABLE_CHANNELS.has(c.type) && has(channelPermissions(guild, me.id, c), Perm.VIEW_CHANNEL))
    .sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
  return rank(visible, (c) => [c.name], query)
    .slice(0, LIMIT)
    .map((c) => {
      const parent = c.parent_id ? guild.channels.get(c.parent_id)?.name : undefined;
      return { key: `c${c.id}`, kind: 'channel', label: c.name ?? '', detail: parent ?? undefined, insert: `<#${c.id}>` };
    });
}

function emoji(query: string, { guild, emoji: list }: CompletionSource): Suggestion[] {
  const own: Suggestion[] = rank(guild?.emojis ?? [], (e) => [e.name], query).map((e) => ({
    key: `e${e.id}`,
    kind: 'custom',
    label: `:${e.name}:`,
    insert: `<${e.animated ? 'a' : ''}:${e.name}:${e.id}>`,
    custom: { id: e.id, animated: e.animated },
  }));
  const unicode: Suggestion[] = list
    ? searchEmoji(list, query, LIMIT).map((e) => ({ key: e.unicode, kind: 'emoji', label: `:${e.shortcodes[0]}:`, insert: e.unicode, unicode: e.unicode }))
    : [];
  return [...own, ...unicode].slice(0, LIMIT);
}

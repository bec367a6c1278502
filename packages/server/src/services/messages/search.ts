import type { Actor, Ctx } from '../context.js';
import { ApiError, Errors } from '../../core/errors.js';
import { P } from '@accord/protocol';
import type { MessageRecord } from '../../store/records.js';
import { APP_FLAGS, applicationOfBot } from '../identity/applications.js';
import { checkId, isId } from '../../core/ids.js';
import { getSetting, putSetting } from '../guilds/settings.js';
import { messagesWire } from './view.js';

/**
 * Search Guild Messages (`GET /guilds/{id}/messages/search`): the spec's filters and sorts over the channels the caller
 * may read (VIEW_CHANNEL and READ_MESSAGE_HISTORY); bots need the MESSAGE_CONTENT privileged intent enabled on their
 * app. Indexing is asynchronous: a guild becomes searchable `searchIndexDelayMs` (server clock) after its first search;
 * until then the answer is 202 `{message, code: 110000, documents_indexed, retry_after}`.
 */

export const DEFAULT_INDEX_DELAY_MS = 2000;
const SCAN_LIMIT = 10_000;

export interface SearchQuery {
  content?: string;
  author_id?: string[];
  author_type?: string[];
  mentions?: string[];
  mentions_role_id?: string[];
  mention_everyone?: boolean;
  replied_to_user_id?: string[];
  replied_to_message_id?: string[];
  has?: string[];
  channel_id?: string[];
  pinned?: boolean;
  min_id?: string;
  max_id?: string;
  link_hostname?: string[];
  embed_type?: string[];
  embed_provider?: string[];
  attachment_extension?: string[];
  attachment_filename?: string[];
  include_nsfw?: boolean;
  sort_by?: 'timestamp' | 'relevance';
  sort_order?: 'asc' | 'desc';
  limit?: number;
  offset?: number;
}

/** 202 while the guild is being indexed. */
export class IndexNotReady extends ApiError {
  constructor(
    readonly documentsIndexed: number,
    readonly retryAfter: number,
  ) {
    super(202, 110000, 'Index not yet available. Try again later', undefined, { documents_indexed: documentsIndexed, retry_after: retryAfter });
  }
}

/** Throws IndexNotReady until the guild's index is built (the first search starts it). */
async function requireIndexed(ctx: Ctx, guildId: string): Promise<void> {
  const delay = ctx.config.searchIndexDelayMs ?? DEFAULT_INDEX_DELAY_MS;
  const now = ctx.clock.now();
  let started = await getSetting(ctx, guildId, 'search_index_started_at');
  if (started === undefined) {
    started = now;
    await putSetting(ctx, guildId, 'search_index_started_at', now);
  }
  const left = started + delay - now;
  if (left <= 0) return;
  const total = await ctx.repos.messages.countInGuild(guildId);
  const done = delay > 0 ? Math.floor(total * Math.min(1, (now - started) / delay)) : 0;
  throw new IndexNotReady(done, Math.max(0.001, Number((left / 1000).toFixed(3))));
}

const URL_RE = /https?:\/\/([^\s/<>"')]+)/gi;
const words = (s: string) => s.toLowerCase().split(/\s+/).filter(Boolean);

function hostnames(m: MessageRecord): string[] {
  return [...m.content.matchAll(URL_RE)].map((x) => x[1].toLowerCase().replace(/:\d+$/, ''));
}

function hasKind(m: MessageRecord, kind: string): boolean {
  const types = (prefix: string) => m.attachments.some((a) => a.content_type?.startsWith(prefix));
  const embedWith = (k: 'image' | 'video') => m.embeds.some((e) => e?.[k] || e?.type === k);
  switch (kind) {
    case 'link':
      return hostnames(m).length > 0;
    case 'embed':
      return m.embeds.length > 0;
    case 'file':
      return m.attachments.length > 0;
    case 'image':
      return types('image/') || embedWith('image') || m.embeds.some((e) => e?.thumbnail);
    case 'video':
      return types('video/') || embedWith('video');
    case 'sound':
      return types('audio/');
    case 'sticker':
      return !!m.sticker_items?.length;
    case 'poll':
      return !!m.extra.poll;
    case 'snapshot':
      return Array.isArray(m.extra.message_snapshots) && m.extra.message_snapshots.length > 0;
    default:
      return false;
  }
}

function authorKind(m: MessageRecord, bots: Set<string>): 'user' | 'bot' | 'webhook' {
  if (m.webhook_id) return 'webhook';
  return bots.has(m.author_id) ? 'bot' : 'user';
}

/** Positive and negated (`-x`) values of a list filter: a message passes if it has some positive one (when any are given) and no negated one. */
function listFilter(values: string[] | undefined, test: (v: string) => boolean): boolean {
  if (!values?.length) return true;
  const pos = values.filter((v) => !v.startsWith('-'));
  const neg = values.filter((v) => v.startsWith('-')).map((v) => v.slice(1));
  if (neg.some(test)) return false;
  return !pos.length || pos.some(test);
}

function relevance(m: MessageRecord, terms: string[]): number {
  const text = m.content.toLowerCase();
  let score = 0;
  for (const t of terms) for (let i = text.indexOf(t); i >= 0; i = text.indexOf(t, i + t.length)) score++;
  return score;
}

export async function searchGuildMessages(ctx: Ctx, actor: Actor, guildId: string, q: SearchQuery) {
  checkId(guildId, Errors.unknownGuild);
  await ctx.access.requireGuild(guildId, actor.user.id);
  if (actor.kind === 'bot') {
    const app = await applicationOfBot(ctx, actor.user.id);
    if (!app || !(app.flags & (APP_FLAGS.GATEWAY_MESSAGE_CONTENT | APP_FLAGS.GATEWAY_MESSAGE_CONTENT_LIMITED))) throw Errors.missingAccess();
  }

  // The channels the caller may read; an explicitly requested one they cannot read is refused.
  const channels = await ctx.repos.channels.allOfGuild(guildId);
  const readable = new Set<string>();
  for (const c of channels) {
    if (c.type === 4) continue;
    if (c.nsfw && !q.include_nsfw) continue;
    const perms = await ctx.access.channelPerms(guildId, c.id, actor.user.id);
    if (perms !== null && perms & P.VIEW_CHANNEL && ctx.access.hasPerm(perms, P.READ_MESSAGE_HISTORY)) readable.add(c.id);
  }
  if (q.channel_id?.length) {
    for (const id of q.channel_id) {
      const c = channels.find((x) => x.id === id);
      if (!c) throw Errors.unknownChannel();
      const perms = await ctx.access.channelPerms(guildId, id, actor.user.id);
      if (perms === null || !(perms & P.VIEW_CHANNEL)) throw Errors.missingAccess();
      if (!ctx.access.hasPerm(perms, P.READ_MESSAGE_HISTORY)) throw Errors.missingPermissions();
    }
  } else if (!readable.size) {
    throw Errors.missingPermissions();
  }
  await requireIndexed(ctx, guildId);

  const scope = q.channel_id?.length ? q.channel_id.filter((id) => readable.has(id) || channels.find((c) => c.id === id && c.nsfw)) : [...readable];
  const empty = { messages: [], total_results: 0, doing_deep_historical_index: false, threads: [], members: [] };
  if (!scope.length) return empty;
  const terms = q.content ? words(q.content) : [];

  // Ids past the BIGINT range match nothing (a min_id there leaves nothing; a max_id there excludes nothing).
  if (q.min_id && !isId(q.min_id)) return empty;
  const authors = q.author_id?.filter((a) => !a.startsWith('-'));
  const validAuthors = authors?.length ? authors.filter(isId) : undefined;
  if (validAuthors && !validAuthors.length) return empty;
  const rows = await ctx.repos.messages.search(guildId, {
    channelIds: scope,
    minId: q.min_id,
    maxId: q.max_id && isId(q.max_id) ? q.max_id : undefined,
    pinned: q.pinned,
    authorIds: validAuthors,
    mentionEveryone: q.mention_everyone,
    terms,
    limit: SCAN_LIMIT,
  });

  const needKinds = !!q.author_type?.length;
  const bots = needKinds ? await ctx.repos.users.botIds(rows.map((m) => m.author_id)) : new Set<string>();
  const replied = new Map<string, string>();
  if (q.replied_to_user_id?.length) {
    const ids = [
      ...new Set(rows.map((m) => ((m.message_reference?.type ?? 0) === 0 ? m.message_reference?.message_id : undefined)).filter((x): x is string => !!x)),
    ];
    for (const [id, author] of await ctx.repos.messages.authorsOf(ids)) replied.set(id, author);
  }
  const negAuthors = q.author_id?.filter((a) => a.startsWith('-')).map((a) => a.slice(1)) ?? [];

  const hits = rows.filter((m) => {
    if (negAuthors.includes(m.author_id)) return false;
    if (!listFilter(q.author_type, (k) => authorKind(m, bots) === k)) return false;
    if (q.mentions?.length && !q.mentions.some((u) => m.mentions.includes(u))) return false;
    if (q.mentions_role_id?.length && !q.mentions_role_id.some((r) => m.mention_roles.includes(r))) return false;
    const ref = m.message_reference && (m.message_reference.type ?? 0) === 0 ? (m.message_reference.message_id ?? null) : null;
    if (q.replied_to_message_id?.length && (!ref || !q.replied_to_message_id.includes(ref))) return false;
    if (q.replied_to_user_id?.length && (!ref || !q.replied_to_user_id.includes(replied.get(ref) ?? ''))) return false;
    if (!listFilter(q.has, (k) => hasKind(m, k))) return false;
    if (q.link_hostname?.length && !hostnames(m).some((h) => q.link_hostname!.some((x) => h === x.toLowerCase() || h.endsWith('.' + x.toLowerCase()))))
      return false;
    if (q.embed_type?.length && !m.embeds.some((e) => q.embed_type!.includes(e?.type === 'gifv' ? 'gif' : (e?.type ?? '')))) return false;
    if (
      q.embed_provider?.length &&
      !m.embeds.some((e) => {
        const name = e?.provider?.name;
        return !!name && q.embed_provider!.some((p) => p.toLowerCase() === String(name).toLowerCase());
      })
    )
      return false;
    const files = m.attachments.map((a) => a.filename.toLowerCase());
    if (q.attachment_extension?.length && !files.some((f) => q.attachment_extension!.some((x) => f.endsWith('.' + x.toLowerCase().replace(/^\./, '')))))
      return false;
    if (q.attachment_filename?.length && !files.some((f) => q.attachment_filename!.some((x) => f.includes(x.toLowerCase())))) return false;
    return true;
  });

  const asc = q.sort_order === 'asc';
  const byTime = (a: MessageRecord, b: MessageRecord) => (BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0) * (asc ? 1 : -1);
  if (q.sort_by === 'relevance' && terms.length) {
    const score = new Map(hits.map((m) => [m.id, relevance(m, terms)]));
    hits.sort((a, b) => (score.get(b.id)! - score.get(a.id)!) * (asc ? -1 : 1) || byTime(a, b));
  } else hits.sort(byTime);

  const offset = q.offset ?? 0;
  const page = hits.slice(offset, offset + (q.limit ?? 25));
  const wire = await messagesWire(ctx, page, { viewerId: actor.user.id, reactions: true });
  // Each result is a one-message group; `hit` marks the matching message (SearchMessageResponse requires it).
  return { ...empty, messages: wire.map((m) => [{ ...m, hit: true }]), total_results: hits.length };
}

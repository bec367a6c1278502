import type { Ctx } from '../services/context.js';
import { I } from '@accord/protocol';
import { member as memberWire } from '../wire/member.js';
import { getUsers } from '../services/identity/users.js';
import type { Session } from './session.js';
import type { GatewayHub } from './hub.js';
import { isId } from '../core/ids.js';
import { subscribePresences } from './presence-fanout.js';

const CHUNK = 1000;
const ALL_MEMBERS_WINDOW_MS = 30_000;

/**
 * Request Guild Members (op 8): GUILD_MEMBERS_CHUNK replies, or RATE_LIMITED for an excess "all" request (one per guild
 * per bot per 30 s, counted in `ctx.limits`: for the whole deployment in distributed mode, whichever node the bot's
 * sessions are on).
 */
export async function handleRequestMembers(ctx: Ctx, hub: GatewayHub, s: Session, d: any): Promise<void> {
  if (!d || typeof d !== 'object') return;
  const guildId = String(Array.isArray(d.guild_id) ? d.guild_id[0] : (d.guild_id ?? ''));
  if (!s.guildIds.has(guildId)) return;
  const nonce = typeof d.nonce === 'string' && Buffer.byteLength(d.nonce) <= 32 ? d.nonce : undefined;
  const userIds: string[] | null = Array.isArray(d.user_ids) ? d.user_ids.slice(0, 100).map(String) : d.user_ids != null ? [String(d.user_ids)] : null;
  const query = typeof d.query === 'string' ? d.query.toLowerCase() : '';
  const limit = Number.isInteger(d.limit) ? Math.max(0, d.limit) : 0;
  const wantsAll = !userIds && query === '' && limit === 0;

  if (wantsAll && s.isBot) {
    if (!(s.intents & I.GUILD_MEMBERS)) return;
    const t = await ctx.limits.take(`members-all:${s.userId}:${guildId}`, 1, ALL_MEMBERS_WINDOW_MS);
    if (!t.allowed) {
      const retry = Math.max(0, t.resetAtMs - ctx.clock.now()) / 1000;
      s.dispatch(
        'RATE_LIMITED',
        JSON.stringify({ opcode: 8, retry_after: Number(retry.toFixed(3)), meta: { guild_id: guildId, ...(nonce ? { nonce } : {}) } }),
      );
      return;
    }
  }

  const rows = await ctx.repos.members.listByUserId(guildId, userIds ? userIds.filter(isId) : undefined);
  const users = await getUsers(
    ctx,
    rows.map((m) => m.user_id),
  );
  let matched = rows;
  if (!userIds && query) {
    matched = rows.filter((m) => {
      const u = users.get(m.user_id);
      return [m.nick, u?.username, u?.global_name].some((n) => n?.toLowerCase().startsWith(query));
    });
  }
  if (!wantsAll && !userIds) matched = matched.slice(0, Math.min(limit || 100, 100));
  const notFound = userIds ? userIds.filter((id) => !rows.some((m) => m.user_id === id)) : [];
  const withPresences = d.presences === true && (!s.isBot || (s.intents & I.GUILD_PRESENCES) !== 0);
  // A person asking for presences follows them from now on, also in large guilds (gateway/presence-fanout.ts).
  const follows = withPresences && !s.isBot ? { guildId, users: wantsAll ? ('all' as const) : matched.map((m) => m.user_id) } : undefined;
  if (follows) subscribePresences(s, guildId, follows.users);

  const count = Math.max(1, Math.ceil(matched.length / CHUNK));
  for (let i = 0; i < count; i++) {
    const part = matched.slice(i * CHUNK, (i + 1) * CHUNK);
    const payload: Record<string, unknown> = {
      guild_id: guildId,
      members: part.map((m) => memberWire(m, users.get(m.user_id) ?? null)),
      chunk_index: i,
      chunk_count: count,
    };
    if (i === 0 && notFound.length) payload.not_found = notFound;
    if (withPresences) {
      payload.presences = part.map((m) => ({ user: { id: m.user_id }, ...hub.presences.visible(m.user_id) })).filter((p) => p.status !== 'offline');
    }
    if (nonce) payload.nonce = nonce;
    s.dispatch('GUILD_MEMBERS_CHUNK', JSON.stringify(payload), false, i === 0 ? { follows } : undefined); // a resume elsewhere follows them again
  }
}

import type { Actor, Ctx } from '../context.js';
import { fieldError } from '../../core/errors.js';
import { bool, num } from '../../store/json.js';
import { requireUser } from './users.js';
import type { UserConnectionRow as ConnectionRow } from '../../store/repos/users.js';

/**
 * User connections (third-party accounts linked to a user): stored per user, listed by `GET /users/@me/connections`,
 * added through the dev API (the OAuth dances with the providers are out of scope).
 *
 * Dated rule (docs change log 2026-07-07, seed spec Endpoints): the new Riot Games connection lives in the Social SDK,
 * so Riot Games connections created from 2026-07-07 are never listed; from 2026-07-10 (server clock) legacy Riot Games
 * and League of Legends connections are not listed either. There is no replacement.
 */
export const PROVIDERS = new Set([
  'battlenet',
  'bluesky',
  'bungie',
  'ebay',
  'epicgames',
  'facebook',
  'github',
  'instagram',
  'mastodon',
  'leagueoflegends',
  'paypal',
  'playstation',
  'reddit',
  'riotgames',
  'roblox',
  'skype',
  'spotify',
  'steam',
  'tiktok',
  'twitch',
  'twitter',
  'xbox',
  'youtube',
  'domain',
]);
/** Riot Games connections created from this date are the new, SDK-backed kind: never listed. */
export const RIOT_NEW_CONNECTIONS_CUTOVER = Date.UTC(2026, 6, 7);
/** From this date legacy Riot Games and League of Legends connections are not listed either. */
export const RIOT_LEGACY_CUTOVER = Date.UTC(2026, 6, 10);
const RIOT_TYPES = new Set(['riotgames', 'leagueoflegends']);

/** Whether the connections endpoint still returns this connection at `now`. */
export function isListed(c: { type: string; created_at: number }, now: number): boolean {
  if (c.type === 'riotgames' && c.created_at >= RIOT_NEW_CONNECTIONS_CUTOVER) return false;
  if (RIOT_TYPES.has(c.type) && now >= RIOT_LEGACY_CUTOVER) return false;
  return true;
}

const connectionWire = (r: ConnectionRow) => ({
  id: r.account_id,
  name: r.name,
  type: r.type,
  friend_sync: bool(r.friend_sync),
  integrations: [],
  show_activity: bool(r.show_activity),
  two_way_link: bool(r.two_way_link),
  verified: bool(r.verified),
  visibility: num(r.visibility),
  revoked: bool(r.revoked),
});

/** GET /users/@me/connections (bearer tokens need `connections`, checked by the scope guard). */
export async function listConnections(ctx: Ctx, actor: Actor) {
  const rows = await ctx.repos.users.connectionsOf(actor.user.id);
  const now = ctx.clock.now();
  return rows.filter((r) => isListed({ type: r.type, created_at: num(r.created_at) }, now)).map(connectionWire);
}

export interface ConnectionInput {
  type: string;
  id: string;
  name?: string | null;
  verified?: boolean;
  visibility?: 0 | 1;
  friend_sync?: boolean;
  show_activity?: boolean;
  two_way_link?: boolean;
  revoked?: boolean;
  /** When the connection was made (defaults to now on the server clock). */
  created_at?: number;
}

/** Adds or replaces a connection of a user (dev API). */
export async function addConnection(ctx: Ctx, userId: string, input: ConnectionInput) {
  await requireUser(ctx, userId);
  if (!PROVIDERS.has(input.type)) throw fieldError('type', 'BASE_TYPE_CHOICES', `Value must be one of (${[...PROVIDERS].join(', ')}).`);
  const row: ConnectionRow = {
    user_id: userId,
    type: input.type,
    account_id: input.id,
    name: input.name ?? input.id,
    verified: input.verified === false ? 0 : 1,
    revoked: input.revoked ? 1 : 0,
    visibility: input.visibility ?? 0,
    friend_sync: input.friend_sync ? 1 : 0,
    show_activity: input.show_activity === false ? 0 : 1,
    two_way_link: input.two_way_link ? 1 : 0,
    created_at: input.created_at ?? ctx.clock.now(),
  };
  await ctx.repos.users.replaceConnection(row);
  return connectionWire(row);
}

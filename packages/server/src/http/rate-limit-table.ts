/**
 * The real platform's rate limits, as its answers show them (X-RateLimit-Limit / Reset-After) and as its docs and the
 * discord-api-docs issues describe them. Limits are per bucket (route + major resource: channel, guild or webhook) and
 * per caller, except `shared` ones, which every caller of one resource shares (answered with X-RateLimit-Scope: shared).
 *
 * Sources, facts only:
 * - global: 50 requests per second per bot token (docs, "Global Rate Limit"); interaction callbacks and interaction
 *   follow-ups are not bound by it (docs, "Global Rate Limit": "Interaction endpoints are not bound to the bot's Global
 *   Rate Limit").
 * - invalid requests: 10,000 answers of 401, 403 or 429 (429 of scope shared excepted) per 10 minutes per IP, then a
 *   temporary restriction by the edge (docs, "Invalid Request Limit").
 * - messages: 5 per 5 s per channel (recorded headers: limit 5, reset-after 5); edits share that figure; deletes 5 per 1 s.
 * - reactions: 1 per 0.25 s (recorded headers: limit 1, reset-after 0.25) for adding and removing.
 * - channel edits: name or topic 2 per 10 minutes per channel, any other edit 10 per 15 s (discord-api-docs #2208, #2760).
 * - nickname of the current member: 1 per 1 s; member edits and role adds/removes: 10 per 10 s (recorded headers).
 * - typing: 5 per 5 s; pins: 5 per 5 s (recorded headers).
 * Routes without an entry get the default bucket (50 per 1 s), under the global limit.
 */
export interface Limit {
  count: number;
  windowMs: number;
  /** `shared`: one counter per resource for every caller. */
  scope?: 'user' | 'shared';
  /** A name for the bucket hash when several routes share one bucket. */
  bucket?: string;
}

import { type RateLimitMode } from '../core/rate-limit-mode.js';
export { rateLimitMode, type RateLimitMode } from '../core/rate-limit-mode.js';

export const GLOBAL_LIMIT: Limit = { count: 50, windowMs: 1000 };
export const DEFAULT_LIMIT: Limit = { count: 50, windowMs: 1000 };
export const INVALID_LIMIT = { count: 10_000, windowMs: 10 * 60_000 };
/** How long the edge refuses an IP that went over the invalid-request limit. */
export const INVALID_BAN_MS = 60 * 60_000;

const MESSAGES: Limit = { count: 5, windowMs: 5000, bucket: 'messages' };
const REACTIONS: Limit = { count: 1, windowMs: 250, bucket: 'reactions' };
const PINS: Limit = { count: 5, windowMs: 5000, bucket: 'pins' };
const ROLES: Limit = { count: 10, windowMs: 10_000, bucket: 'member-roles' };

const TABLE: [string, RegExp, Limit][] = [
  ['POST', /^\/channels\/\{channel_id\}\/messages$/, MESSAGES],
  ['PATCH', /^\/channels\/\{channel_id\}\/messages\/\{message_id\}$/, MESSAGES],
  ['DELETE', /^\/channels\/\{channel_id\}\/messages\/\{message_id\}$/, { count: 5, windowMs: 1000 }],
  ['POST', /^\/channels\/\{channel_id\}\/messages\/bulk-delete$/, { count: 1, windowMs: 1000 }],
  ['PUT', /^\/channels\/\{channel_id\}\/messages\/\{message_id\}\/reactions\//, REACTIONS],
  ['DELETE', /^\/channels\/\{channel_id\}\/messages\/\{message_id\}\/reactions/, REACTIONS],
  ['PATCH', /^\/channels\/\{channel_id\}$/, { count: 10, windowMs: 15_000 }],
  ['POST', /^\/channels\/\{channel_id\}\/typing$/, { count: 5, windowMs: 5000 }],
  ['PUT', /^\/channels\/\{channel_id\}\/(messages\/)?pins\/\{message_id\}$/, PINS],
  ['DELETE', /^\/channels\/\{channel_id\}\/(messages\/)?pins\/\{message_id\}$/, PINS],
  ['PATCH', /^\/guilds\/\{guild_id\}\/members\/@me(\/nick)?$/, { count: 1, windowMs: 1000 }],
  ['PATCH', /^\/guilds\/\{guild_id\}\/members\/\{user_id\}$/, { count: 10, windowMs: 10_000 }],
  ['PUT', /^\/guilds\/\{guild_id\}\/members\/\{user_id\}\/roles\/\{role_id\}$/, ROLES],
  ['DELETE', /^\/guilds\/\{guild_id\}\/members\/\{user_id\}\/roles\/\{role_id\}$/, ROLES],
];

/** Channel name and topic edits: a shared per-channel limit on top of the route's own. */
const CHANNEL_RENAME: Limit = { count: 2, windowMs: 10 * 60_000, scope: 'shared', bucket: 'channel-name-topic' };

/** The limits a request meets, the route's first; `body` decides sub-limits such as channel renames. */
export function limitsFor(method: string, path: string, body: unknown, override?: Limit): Limit[] {
  const route = TABLE.find(([m, re]) => m === method && re.test(path))?.[2] ?? override ?? DEFAULT_LIMIT;
  const out = [route];
  if (method === 'PATCH' && path === '/channels/{channel_id}' && body && typeof body === 'object' && ('name' in body || 'topic' in body))
    out.push(CHANNEL_RENAME);
  return out;
}

/** Interaction callbacks and follow-ups (webhooks of an application id with an interaction token) skip the global limit. */
export const exemptFromGlobal = (path: string, params: Record<string, string>) =>
  path.startsWith('/interactions/') ||
  (path.startsWith('/webhooks/{webhook_id}/{webhook_token}') && (params.webhook_token ?? '').startsWith(INTERACTION_TOKEN_PREFIX));

export const scaled = (l: Limit, mode: RateLimitMode): Limit => (mode === 'relaxed' ? { ...l, count: l.count * 10 } : l);

/** Interaction tokens are base64url of `interaction:<id>:<random>`. */
const INTERACTION_TOKEN_PREFIX = Buffer.from('interaction:').toString('base64url');

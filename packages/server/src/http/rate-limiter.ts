import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor, Ctx } from '../services/context.js';
import { bucketFor, type Hit, type RateLimitStore, type Take } from './rate-limit.js';
import { GLOBAL_LIMIT, INVALID_BAN_MS, INVALID_LIMIT, exemptFromGlobal, limitsFor, rateLimitMode, scaled, type Limit } from './rate-limit-table.js';
import type { RouteDef } from './router.js';

/** Marks a request whose 429 is of scope shared: it does not count toward the invalid-request limit. */
const SHARED_429 = Symbol('shared429');

/**
 * Applies the route's limits, the global limit and the invalid-request restriction to one request. Sets the
 * X-RateLimit-* headers of the route's bucket, and answers the 429 itself (returning true) when a limit is reached.
 */
export async function enforceRateLimits(
  ctx: Ctx,
  store: RateLimitStore,
  def: RouteDef,
  req: FastifyRequest,
  reply: FastifyReply,
  actor: Actor | null,
  params: Record<string, string>,
): Promise<boolean> {
  const mode = rateLimitMode(ctx.config.rateLimits);
  if (mode === 'off') return false;
  // The ban, the global limit and the route's limits in one step (one round trip with the Redis store).
  const who = actor?.user.id ?? req.ip;
  const global = !exemptFromGlobal(def.path, params) && (!actor || actor.kind !== 'user');
  const limits = limitsFor(def.method, def.path, req.body, def.limit);
  const hits: Hit[] = [];
  if (global) {
    const g = scaled(GLOBAL_LIMIT, mode);
    hits.push({ key: `global:${who}`, limit: g.count, windowMs: g.windowMs });
  }
  const buckets = limits.map((raw) => {
    const lim = scaled(raw, mode);
    const { bucket, key } = bucketFor(def.method, def.path, params, raw.bucket);
    hits.push({ key: raw.scope === 'shared' ? `shared:${key}` : `${who}:${key}`, limit: lim.count, windowMs: lim.windowMs });
    return bucket;
  });
  const { ban: banned, takes } = await store.takeAll(`ban:${req.ip}`, hits);
  if (banned && !banned.allowed) {
    // The edge's answer: an HTML page without Via, which clients such as discord.py read as a ban.
    (req as any).accordEdgeBan = true;
    reply
      .code(429)
      .header('content-type', 'text/html')
      .header('retry-after', String(Math.ceil((banned.resetAtMs - ctx.clock.now()) / 1000)))
      .send('error code: 1015');
    return true;
  }
  if (global) {
    const t = takes.shift()!;
    if (!t.allowed) return (rateLimited(reply, ctx, t, 'global', null), true);
  }
  for (const [i, raw] of limits.entries()) {
    const t = takes[i];
    const bucket = buckets[i];
    if (i === 0) setHeaders(reply, ctx, t, bucket);
    if (!t.allowed) {
      if (raw.scope === 'shared') (req as any)[SHARED_429] = true;
      return (rateLimited(reply, ctx, t, raw.scope ?? 'user', bucket), true);
    }
  }
  return false;
}

/** Counts 401, 403 and 429 (not shared) answers per IP; past 10,000 in 10 minutes the IP is refused for a while. */
export async function countInvalid(ctx: Ctx, store: RateLimitStore, req: FastifyRequest, status: number): Promise<void> {
  if (rateLimitMode(ctx.config.rateLimits) === 'off' || (req as any).accordEdgeBan) return;
  if (status !== 401 && status !== 403 && !(status === 429 && !(req as any)[SHARED_429])) return;
  const t = await store.take(`invalid:${req.ip}`, INVALID_LIMIT.count, INVALID_LIMIT.windowMs);
  if (!t.allowed) await store.take(`ban:${req.ip}`, 0, INVALID_BAN_MS);
}

function setHeaders(reply: FastifyReply, ctx: Ctx, t: Take, bucket: string) {
  reply.header('X-RateLimit-Limit', String(t.limit));
  reply.header('X-RateLimit-Remaining', String(t.remaining));
  reply.header('X-RateLimit-Reset', (t.resetAtMs / 1000).toFixed(3));
  reply.header('X-RateLimit-Reset-After', (Math.max(0, t.resetAtMs - ctx.clock.now()) / 1000).toFixed(3));
  reply.header('X-RateLimit-Bucket', bucket);
}

function rateLimited(reply: FastifyReply, ctx: Ctx, t: Take, scope: RateLimitScope, bucket: string | null) {
  writeRateLimited(reply, Math.max(0.001, (t.resetAtMs - ctx.clock.now()) / 1000), scope, bucket);
}

export type RateLimitScope = 'global' | 'user' | 'shared';

/** The platform's 429: Retry-After (whole seconds), the scope, the bucket's headers unless global, and the JSON body. */
export function writeRateLimited(reply: FastifyReply, retryAfter: number, scope: RateLimitScope, bucket: string | null) {
  reply.code(429);
  reply.header('Retry-After', String(Math.ceil(retryAfter)));
  reply.header('X-RateLimit-Scope', scope);
  if (scope === 'global') reply.header('X-RateLimit-Global', 'true');
  else if (bucket) {
    reply.header('X-RateLimit-Remaining', '0');
    reply.header('X-RateLimit-Reset-After', retryAfter.toFixed(3));
    reply.header('X-RateLimit-Bucket', bucket);
  }
  reply
    .header('content-type', 'application/json')
    .send(Buffer.from(JSON.stringify({ message: 'You are being rate limited.', retry_after: Number(retryAfter.toFixed(3)), global: scope === 'global' })));
}

export type { Limit };

import { STATUS_CODES } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor, Ctx } from '../../services/context.js';
import type { RouteDef } from '../../http/router.js';
import { bucketFor } from '../../http/rate-limit.js';
import { limitsFor } from '../../http/rate-limit-table.js';
import { writeRateLimited } from '../../http/rate-limiter.js';
import { ApiError } from '../../core/errors.js';
import type { DevFaults } from '../../core/dev-faults.js';
import type { HttpParams } from './rules.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A route as a rule names it, in the form routes are declared: `POST /channels/{channel_id}/messages`. Fastify's
 * `:param` spelling and an /api or /api/v10 prefix are accepted; no method means any.
 */
export function normalizeRoute(route: string): { method: string | null; path: string } {
  const m = /^\s*([A-Za-z]+)\s+(\S+)\s*$/.exec(route);
  const method = m ? m[1].toUpperCase() : null;
  const path = (m ? m[2] : route.trim())
    .replace(/^\/api(\/v\d+)?(?=\/)/, '')
    .replace(/:(\w+)/g, '{$1}')
    .replace(/\/+$/, '');
  return { method, path };
}

/**
 * The `http` rules of the caller's application, before rate limits: a matching request (by route, or by the bucket
 * the X-RateLimit-Bucket header names) waits `latency_ms`, then answers the rule's status — a 429 exactly as the
 * rate limiter writes one, or a 5xx with the platform's JSON envelope — or, with latency only, goes on as usual.
 * Answers true when it wrote the reply.
 */
export async function httpFault(
  ctx: Ctx,
  book: DevFaults,
  def: RouteDef,
  req: FastifyRequest,
  reply: FastifyReply,
  actor: Actor,
  params: Record<string, string>,
): Promise<boolean> {
  const appId = actor.applicationId;
  if (actor.kind === 'user' || !appId || !book.has('http', appId)) return false;
  const limit = limitsFor(def.method, def.path, req.body, def.limit)[0];
  let bucket: { bucket: string } | null = null;
  const bucketOf = () => (bucket ??= bucketFor(def.method, def.path, params, limit.bucket));
  const rule = book.take('http', appId, (p: HttpParams) => {
    if (p.route) {
      const r = normalizeRoute(p.route);
      if (r.path !== def.path || (r.method && r.method !== def.method)) return false;
    }
    return !p.bucket || p.bucket === bucketOf().bucket || p.bucket === limit.bucket;
  });
  if (!rule) return false;
  const p = rule.params as HttpParams;
  if (p.latency_ms) await sleep(p.latency_ms);
  if (p.status === undefined) return false;
  if (p.status === 429) {
    const retryAfter = Math.max(0.001, p.retry_after ?? 1);
    if (!p.global) reply.header('X-RateLimit-Limit', String(limit.count)).header('X-RateLimit-Reset', (ctx.clock.now() / 1000 + retryAfter).toFixed(3));
    writeRateLimited(reply, retryAfter, p.global ? 'global' : 'user', p.global ? null : bucketOf().bucket);
    return true;
  }
  const e = new ApiError(p.status, 0, `${p.status}: ${STATUS_CODES[p.status]}`);
  if (p.status === 503) reply.header('retry-after', '1');
  reply
    .code(e.status)
    .header('content-type', 'application/json')
    .send(Buffer.from(JSON.stringify(e.toBody())));
  return true;
}

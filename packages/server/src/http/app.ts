import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { Ctx } from '../context.js';
import { ApiError, Errors } from '../core/errors.js';
import { Authenticator } from './auth.js';
import { bucketFor, DEFAULT_LIMIT, GLOBAL_LIMIT, MemoryRateLimits, type RateLimitStore } from './rate-limit.js';
import { Reply, type RouteDef, type UploadedFile } from './router.js';
import { guardBearer } from './scope-guard.js';
import { allRoutes } from './routes/index.js';
import { assertNoNul } from './validation.js';
import { withAuditReason } from '../services/audit-log.js';

const MAX_FILE = 10 * 1024 * 1024;
/** /api/v10/x and /api/v9/x are /api/x: routes are registered once and versioned paths are rewritten onto them. */
const VERSIONED = /^\/api\/v(?:9|10)(?=\/|$)/;

export interface HttpApp {
  app: FastifyInstance;
  auth: Authenticator;
  limits: RateLimitStore;
}

export function buildHttp(ctx: Ctx): HttpApp {
  const app = Fastify({
    logger: false,
    bodyLimit: 26 * 1024 * 1024,
    routerOptions: { maxParamLength: 200, caseSensitive: true },
    rewriteUrl: (req) => (req.url ?? '/').replace(VERSIONED, '/api'),
  });
  const auth = new Authenticator(ctx);
  const limits = new MemoryRateLimits(ctx.clock);
  ctx.bus.subscribe((e) => {
    if (e.t === '__TOKENS_CHANGED') auth.clear();
  });

  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser(['application/json', 'text/plain'], { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(Errors.invalidJson() as any, undefined);
    }
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
  app.register(multipart, { limits: { fileSize: MAX_FILE + 1, files: 10, fieldSize: 4 * 1024 * 1024 } });
  // Any other content type with a body is refused, as the platform does.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, _body, done) => done(contentTypeInvalid() as any, undefined));

  const log = ctx.config.logLevel !== 'silent';
  app.setErrorHandler((err: any, _req, reply) => sendError(reply, err, log));
  app.setNotFoundHandler((req, reply) => {
    const v = /^\/api\/v(\d+)\//.exec(req.originalUrl);
    if (v && !['9', '10'].includes(v[1])) return sendError(reply, Errors.invalidApiVersion());
    sendError(reply, Errors.notFound());
  });

  app.register(async (scope) => {
    const routes = allRoutes();
    for (const def of routes) registerRoute(scope, ctx, auth, limits, '/api', def);
  });

  return { app, auth, limits };
}

function registerRoute(app: FastifyInstance, ctx: Ctx, auth: Authenticator, limits: RateLimitStore, prefix: string, def: RouteDef) {
  const url = prefix + def.path.replace(/\{(\w+)\}/g, ':$1');
  app.route({
    method: def.method,
    url,
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      const params = req.params as Record<string, string>;
      let actor = def.auth === 'none' ? null : await auth.resolve(req.headers.authorization);
      if (!actor && (def.auth === 'any' || def.auth === 'user' || def.auth === 'bot')) throw Errors.unauthorized();
      if (actor && def.auth === 'user' && actor.kind === 'bot') throw Errors.botsCannotUse();
      if (actor && def.auth === 'bot' && actor.kind !== 'bot') throw Errors.onlyBots();
      if (actor?.kind === 'bearer') actor = guardBearer(def, actor); // OAuth2 scopes decide which routes a bearer token reaches

      if (ctx.config.rateLimits) {
        const who = actor?.user.id ?? req.ip;
        const exempt = def.path.startsWith('/interactions/'); // interaction callbacks skip the global limit
        if (!exempt && (!actor || actor.kind !== 'user')) {
          const g = limits.take(`global:${who}`, GLOBAL_LIMIT.count, GLOBAL_LIMIT.windowMs);
          if (!g.allowed) return rateLimited(reply, ctx, g.resetAtMs, true, null);
        }
        const { bucket, key } = bucketFor(def.method, def.path, params);
        const lim = def.limit ?? DEFAULT_LIMIT;
        const t = limits.take(`${who}:${key}`, lim.count, lim.windowMs);
        const resetAfter = Math.max(0, t.resetAtMs - ctx.clock.now()) / 1000;
        reply.header('X-RateLimit-Limit', String(t.limit));
        reply.header('X-RateLimit-Remaining', String(t.remaining));
        reply.header('X-RateLimit-Reset', (t.resetAtMs / 1000).toFixed(3));
        reply.header('X-RateLimit-Reset-After', resetAfter.toFixed(3));
        reply.header('X-RateLimit-Bucket', bucket);
        if (!t.allowed) return rateLimited(reply, ctx, t.resetAtMs, false, bucket);
      }

      let body: any = req.body;
      let files: UploadedFile[] = [];
      if (req.isMultipart()) ({ body, files } = await readMultipart(req));
      assertNoNul(body);
      assertNoNul(req.query);
      for (const v of Object.values(params)) if (v.includes('\u0000')) throw Errors.notFound();
      const rawReason = req.headers['x-audit-log-reason'];
      let reason: string | null = null;
      if (typeof rawReason === 'string' && rawReason) {
        try { reason = decodeURIComponent(rawReason).slice(0, 512); } catch { reason = rawReason.slice(0, 512); }
      }
      const result = await withAuditReason(reason, () => def.handler({ ctx, actor, params, query: req.query as any, body: body ?? {}, files, req, reply, reason }));
      if (result instanceof Reply) {
        reply.code(result.status);
        if (result.headers) for (const [k, v] of Object.entries(result.headers)) reply.header(k, v);
        if (result.body === undefined) return reply.send();
        if (result.contentType) return reply.header('content-type', result.contentType).send(result.body);
        return sendJson(reply, result.status, result.body);
      }
      return sendJson(reply, 200, result ?? null);
    },
  });
}

function rateLimited(reply: FastifyReply, ctx: Ctx, resetAtMs: number, global: boolean, bucket: string | null) {
  const retryAfter = Math.max(0.001, (resetAtMs - ctx.clock.now()) / 1000);
  reply.code(429);
  reply.header('Retry-After', String(Math.ceil(retryAfter)));
  reply.header('X-RateLimit-Scope', global ? 'global' : 'user');
  if (global) reply.header('X-RateLimit-Global', 'true');
  else if (bucket) {
    reply.header('X-RateLimit-Remaining', '0');
    reply.header('X-RateLimit-Reset-After', retryAfter.toFixed(3));
    reply.header('X-RateLimit-Bucket', bucket);
  }
  return sendJson(reply, 429, { message: 'You are being rate limited.', retry_after: Number(retryAfter.toFixed(3)), global });
}

async function readMultipart(req: FastifyRequest): Promise<{ body: any; files: UploadedFile[] }> {
  let body: any = {};
  const files: UploadedFile[] = [];
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (data.length > MAX_FILE || (part.file as any).truncated) throw Errors.fileTooLarge();
        files.push({ field: part.fieldname, filename: part.filename || 'file', contentType: part.mimetype, data });
      } else if (part.fieldname === 'payload_json') {
        try { body = JSON.parse(String(part.value)); } catch { throw Errors.invalidJson(); }
      } else {
        body[part.fieldname] = part.value;
      }
    }
  } catch (err: any) {
    if (err instanceof ApiError) throw err;
    if (err?.code === 'FST_REQ_FILE_TOO_LARGE') throw Errors.fileTooLarge();
    if (err?.code === 'FST_FILES_LIMIT') throw Errors.maxAttachments();
    throw new ApiError(400, 50035, 'Invalid Form Body', { _errors: [{ code: 'CONTENT_TYPE_INVALID', message: 'Invalid multipart body.' }] });
  }
  return { body, files };
}

/** JSON with the bare `application/json` type the platform sends (oceanic.js accepts nothing else). */
export function sendJson(reply: FastifyReply, status: number, body: unknown) {
  // A Buffer payload keeps the header as set (fastify appends a charset to JSON strings).
  return reply.code(status).header('content-type', 'application/json').send(Buffer.from(JSON.stringify(body)));
}

const contentTypeInvalid = () =>
  new ApiError(400, 50035, 'Invalid Form Body', { _errors: [{ code: 'CONTENT_TYPE_INVALID', message: 'Expected "Content-Type" header to be one of {\'application/json\', \'application/x-www-form-urlencoded\', \'multipart/form-data\'}.' }] });

export function sendError(reply: FastifyReply, err: any, log = true) {
  let e: ApiError;
  if (err instanceof ApiError) e = err;
  else if (err?.code === 'FST_ERR_CTP_BODY_TOO_LARGE') e = Errors.tooLarge();
  else if (err?.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err?.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') e = contentTypeInvalid();
  else if (err?.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError) e = Errors.invalidJson();
  else if (typeof err?.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) e = new ApiError(err.statusCode, 0, `${err.statusCode}: ${err.message ?? 'Bad Request'}`);
  else {
    if (log) console.error('[http] unexpected error', err);
    e = new ApiError(500, 0, '500: Internal Server Error');
  }
  sendJson(reply, e.status, e.toBody());
}

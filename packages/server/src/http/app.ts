import { STATUS_CODES } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { Ctx } from '../services/context.js';
import { ApiError, DependencyUnavailable, Errors, isDiskFull, isUnavailable } from '../core/errors.js';
import { Authenticator } from '../services/identity/authenticate.js';
import { noteRequest } from './request-info.js';
import { MemoryRateLimits, type RateLimitStore } from './rate-limit.js';
import { countInvalid, enforceRateLimits } from './rate-limiter.js';
import { Reply, type RouteDef } from './router.js';
import type { UploadedFile } from '../core/uploads.js';
import { guardBearer } from './scope-guard.js';
import { registerCors } from './cors.js';
import { clientErrorHandler } from './client-errors.js';
import { allRoutes } from './routes/index.js';
import { assertNoNul } from '../core/validation.js';
import { parseJson } from '../core/json.js';
import { withAuditReason } from '../services/moderation/audit-log.js';
import { assertSupportedSdk } from '../services/social/sdk/versions.js';
import { SOCIAL_SDK_VERSION_HEADER } from '@accord/protocol';
import type { LocalTls } from '../core/local-tls.js';
import { listenerOptions } from './listener.js';
import { httpFault } from '../dev/faults/http.js';

const MAX_FILE = 10 * 1024 * 1024;
/** /api/v10/x and /api/v9/x are /api/x: routes are registered once and versioned paths are rewritten onto them. */
const VERSIONED = /^\/api\/v(?:9|10)(?=\/|$)/;
/** '@' is a plain path character, so /users/%40me is /users/@me (discord-api-types' Routes percent-encode it). */
const ENCODED_AT = /%40/gi;

/** The path routes match: unversioned, with `%40` read as '@'; the query string is left as sent. */
function routedUrl(url: string): string {
  const q = url.indexOf('?');
  const path = (q < 0 ? url : url.slice(0, q)).replace(VERSIONED, '/api').replace(ENCODED_AT, '@');
  return q < 0 ? path : path + url.slice(q);
}

export interface HttpApp {
  app: FastifyInstance;
  auth: Authenticator;
  limits: RateLimitStore;
}

/** A hop count trusts that many proxies nearest the server (Fastify's own reading of a number). */
function trustProxyOption(v: boolean | number | string): boolean | string | ((address: string, hop: number) => boolean) {
  return typeof v === 'number' ? (_address, hop) => hop < v : v;
}

/** `limits`: the rate-limit store (Redis in distributed mode); the embedded one when omitted. `tls`: serve HTTPS. */
export function buildHttp(ctx: Ctx, limits: RateLimitStore = new MemoryRateLimits(ctx.clock), tls: LocalTls | null = null): HttpApp {
  const log = ctx.config.logLevel !== 'silent';
  const app = Fastify({
    ...listenerOptions(tls),
    logger: false,
    // Errors the framework raises before any route (a path with bad percent-encoding) get the platform's envelope too.
    frameworkErrors: (err, _req, reply) => sendError(reply, err, log),
    clientErrorHandler,
    // Off by default: X-Forwarded-For is a client's word unless the operator names the proxy (--trust-proxy).
    trustProxy: trustProxyOption(ctx.config.trustProxy),
    bodyLimit: 26 * 1024 * 1024,
    routerOptions: { maxParamLength: 200, caseSensitive: true },
    rewriteUrl: (req) => routedUrl(req.url ?? '/'),
  });
  const auth = new Authenticator(ctx);
  ctx.bus.subscribe(
    (e) => {
      if (e.t === '__TOKENS_CHANGED') auth.clear();
      // A profile change (a provisional account renamed through its bearer token): the cached actor's user is stale.
      else if (e.t === 'USER_UPDATE') auth.forgetUser((e.d as { user_id: string }).user_id);
    },
    { remote: true },
  ); // tokens revoked, profiles changed, on any node

  // Bodies are parsed only as what they say they are: JSON, form fields or multipart. A text/plain body is not JSON.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, {});
    try {
      done(null, parseJson(text));
    } catch {
      done(Errors.invalidJson() as any, undefined);
    }
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
  app.register(multipart, { limits: { fileSize: MAX_FILE + 1, files: 10, fieldSize: 4 * 1024 * 1024 } });
  // Any other content type with a body is refused, as the platform does; an empty body is no body, whatever its type
  // (aiohttp sends `application/octet-stream` with length 0 for a PUT or POST without data).
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body: Buffer, done) =>
    body.length === 0 ? done(null, {}) : done(contentTypeInvalid() as any, undefined),
  );
  registerCors(app); // browsers on other origins (games on the Social SDK's browser build) may call the API
  app.addHook('onSend', async (req, reply) => {
    // Counted before the answer leaves, so the request after the 10,000th invalid one already meets the ban.
    await countInvalid(ctx, limits, req, reply.statusCode).catch(() => undefined);
    if (!req.url.startsWith('/api') || (req as any).accordEdgeBan) return;
    // The platform's edge adds Via to every answer; discord.py treats a 429 without it as a Cloudflare ban.
    reply.header('via', '1.1 google');
    // Bare JSON type, whatever produced the body (clients such as discord.py compare the type exactly).
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('application/json;')) reply.header('content-type', 'application/json');
  });

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
      // Distributed mode without Redis: a change would reach no other node's sessions, so none is made (reads go on).
      if (ctx.health.anyDown && def.method !== 'GET' && ctx.health.isDown('redis')) throw new DependencyUnavailable('redis');
      assertSupportedSdk(req.headers[SOCIAL_SDK_VERSION_HEADER]); // end-of-life Social SDK releases are refused
      const params = req.params as Record<string, string>;
      // An id has one spelling: the store reads `0<id>` as <id>, so it must also be <id> for rate-limit buckets, caches
      // and comparisons (a leading zero must not open a fresh bucket).
      for (const [k, v] of Object.entries(params)) if (k.endsWith('_id') && /^0+\d/.test(v) && /^\d+$/.test(v)) params[k] = v.replace(/^0+(?=\d)/, '');
      let actor = def.auth === 'none' ? null : await auth.resolve(req.headers.authorization);
      if (!actor && (def.auth === 'any' || def.auth === 'user' || def.auth === 'bot')) throw Errors.unauthorized();
      if (actor && def.auth === 'user' && actor.kind === 'bot') throw Errors.botsCannotUse();
      if (actor && def.auth === 'bot' && actor.kind !== 'bot') throw Errors.onlyBots();
      if (actor?.kind === 'bearer') actor = guardBearer(def, actor); // OAuth2 scopes decide which routes a bearer token reaches
      noteRequest(req, { route: def.path, actor }); // for observers after the handler (the dev inspector)

      // Dev faults (--dev): the caller's application may have asked this route to fail or be slow.
      if (ctx.faults && actor && (await httpFault(ctx, ctx.faults, def, req, reply, actor, params))) return reply;
      if (await enforceRateLimits(ctx, limits, def, req, reply, actor, params)) return reply;

      let body: any = req.body;
      let files: UploadedFile[] = [];
      if (req.isMultipart() && req.headers['content-length'] !== '0') ({ body, files } = await readMultipart(req));
      assertNoNul(body);
      assertNoNul(req.query);
      for (const v of Object.values(params)) if (v.includes('\u0000')) throw Errors.notFound();
      const rawReason = req.headers['x-audit-log-reason'];
      let reason: string | null = null;
      if (typeof rawReason === 'string' && rawReason) {
        try {
          reason = decodeURIComponent(rawReason).slice(0, 512);
        } catch {
          reason = rawReason.slice(0, 512);
        }
      }
      const mark = ctx.bus.mark();
      const result = await withAuditReason(reason, () =>
        def.handler({ ctx, actor, params, query: req.query as any, body: body ?? {}, files, req, reply, reason }),
      );
      // Acknowledged means delivered: a change's events have reached the other processes before the answer leaves.
      if (def.method !== 'GET') await ctx.bus.settled(mark);
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
        try {
          body = parseJson(fieldText(part.value));
        } catch {
          throw Errors.invalidJson();
        }
      } else {
        body[part.fieldname] = part.value;
      }
    }
  } catch (err: any) {
    if (err instanceof ApiError) throw err;
    if (err?.code === 'FST_REQ_FILE_TOO_LARGE') throw Errors.fileTooLarge();
    if (err?.code === 'FST_FILES_LIMIT') throw Errors.maxAttachments();
    if (err?.code === 'FST_INVALID_JSON_FIELD_ERROR') throw Errors.invalidJson();
    throw new ApiError(400, 50035, 'Invalid Form Body', { _errors: [{ code: 'CONTENT_TYPE_INVALID', message: 'Invalid multipart body.' }] });
  }
  return { body, files };
}

/**
 * A text part's JSON as text. The multipart parser already parses a part typed `application/json` (Discord's upload
 * example and Eris type payload_json so), so that value is written back and read again through the depth checks.
 */
function fieldText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

/** JSON with the bare `application/json` type the platform sends (oceanic.js accepts nothing else). */
export function sendJson(reply: FastifyReply, status: number, body: unknown) {
  // A Buffer payload keeps the header as set (fastify appends a charset to JSON strings).
  return reply
    .code(status)
    .header('content-type', 'application/json')
    .send(Buffer.from(JSON.stringify(body)));
}

const contentTypeInvalid = () =>
  new ApiError(400, 50035, 'Invalid Form Body', {
    _errors: [
      {
        code: 'CONTENT_TYPE_INVALID',
        message: "Expected \"Content-Type\" header to be one of {'application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'}.",
      },
    ],
  });

let lastDiskFullLog = 0;

export function sendError(reply: FastifyReply, err: any, log = true) {
  let e: ApiError;
  if (err instanceof ApiError) e = err;
  else if (isUnavailable(err))
    e = Errors.unavailable(); // the database or Redis is away (store/health.ts)
  else if (isDiskFull(err)) {
    e = Errors.insufficientStorage();
    if (log && Date.now() - lastDiskFullLog > 10_000) {
      lastDiskFullLog = Date.now(); // one line per 10 s, not one per refused request
      console.error(`[http] disk full, writes answer 507 until there is room: ${String(err?.message).slice(0, 120)}`);
    }
  } else if (err?.code === 'FST_ERR_CTP_BODY_TOO_LARGE') e = Errors.tooLarge();
  else if (err?.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err?.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') e = contentTypeInvalid();
  else if (err?.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err instanceof SyntaxError) e = Errors.invalidJson();
  else if (typeof err?.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
    // The framework's own 4xx (a bad URL, a bad Content-Length…): its status in the platform's words, never its name.
    e = new ApiError(err.statusCode, 0, `${err.statusCode}: ${STATUS_CODES[err.statusCode] ?? 'Bad Request'}`);
    if (log) console.warn(`[http] ${err.statusCode} ${typeof err.code === 'string' ? err.code.slice(0, 40) : 'client error'}`); // one line, no stack
  } else {
    if (log) console.error('[http] unexpected error', err);
    e = new ApiError(500, 0, '500: Internal Server Error');
  }
  // A 429 from a rule (slowmode, the daily command creates) says when to come back, as the rate limiter's do.
  if (e.status === 429 && typeof e.extra?.retry_after === 'number') reply.header('retry-after', String(Math.ceil(e.extra.retry_after)));
  if (e.status === 503) reply.header('retry-after', '1');
  sendJson(reply, e.status, e.toBody());
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import type { Ctx } from '../services/context.js';
import type { Session } from '../gateway/session.js';
import { requestInfo } from '../http/request-info.js';
import { bucketFor } from '../http/rate-limit.js';
import { limitsFor } from '../http/rate-limit-table.js';
import { parseBody, qInt, snowflake } from '../core/validation.js';
import { getApplication } from '../services/identity/applications.js';
import { loadInteraction } from '../services/apps/interactions/store.js';

/**
 * The dev inspector (--dev only): per application, every HTTP request the app made (route, status, rate-limit bucket,
 * timing) and every Gateway dispatch it was sent, kept in a ring buffer and streamed as server-sent events.
 *
 * Nothing secret is kept: paths are rebuilt from the route template with token parameters left as `{name}`, query
 * strings and bodies are not recorded, and dispatch payloads have every token, secret and password field redacted.
 */

export interface HttpEntry {
  kind: 'http';
  id: number;
  at: string;
  method: string;
  route: string;
  path: string;
  status: number;
  bucket: string;
  duration_ms: number;
  /** How the app authenticated: its bot token, an OAuth2 bearer token, or an interaction / webhook token in the path. */
  via: 'bot' | 'bearer' | 'interaction' | 'webhook';
}

export interface GatewayEntry {
  kind: 'gateway';
  id: number;
  at: string;
  t: string;
  seq: number;
  bytes: number;
  shard: [number, number];
  guild_id: string | null;
  /** The payload with secrets redacted; null when it was too large to keep (see `bytes`). */
  d: unknown;
}

export type InspectorEntry = HttpEntry | GatewayEntry;
type Listener = (e: InspectorEntry) => void;

/** Entries kept per application, and the largest payload kept whole. */
const KEEP = 1000;
const MAX_PAYLOAD = 16 * 1024;
const SECRET_KEY = /token|secret|password|authorization|session_id/i;

/** A copy of a JSON value with every secret-looking field replaced. */
export function redact(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(redact);
  if (!v || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = SECRET_KEY.test(k) && x != null ? '[redacted]' : redact(x);
  return out;
}

/** `/channels/{channel_id}/messages` with its ids filled in; token parameters stay as `{name}`. */
export function concretePath(route: string, params: Record<string, string>): string {
  return route.replace(/\{(\w+)\}/g, (m, name: string) => (/token/i.test(name) || params[name] === undefined ? m : encodeURIComponent(params[name])));
}

export class Inspector {
  private readonly logs = new Map<string, InspectorEntry[]>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private next = 1;

  constructor(private readonly ctx: Ctx) {}

  record(applicationId: string, entry: Omit<HttpEntry, 'id' | 'at'> | Omit<GatewayEntry, 'id' | 'at'>): void {
    const full = { ...entry, id: this.next++, at: this.ctx.clock.nowIso() } as InspectorEntry;
    let log = this.logs.get(applicationId);
    if (!log) this.logs.set(applicationId, (log = []));
    log.push(full);
    if (log.length > KEEP) log.splice(0, log.length - KEEP);
    for (const l of this.listeners.get(applicationId) ?? []) l(full);
  }

  entries(applicationId: string, limit = KEEP): InspectorEntry[] {
    return (this.logs.get(applicationId) ?? []).slice(-limit);
  }

  counts(applicationId: string): { http: number; gateway: number } {
    const log = this.logs.get(applicationId) ?? [];
    const http = log.filter((e) => e.kind === 'http').length;
    return { http, gateway: log.length - http };
  }

  subscribe(applicationId: string, l: Listener): () => void {
    let set = this.listeners.get(applicationId);
    if (!set) this.listeners.set(applicationId, (set = new Set()));
    set.add(l);
    return () => set!.delete(l);
  }

  /** fastify onResponse: an API request made by an application. */
  readonly onResponse = async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const info = requestInfo(req);
    if (!info) return;
    const params = (req.params ?? {}) as Record<string, string>;
    const status = reply.statusCode;
    let app: string | null = info.actor?.applicationId ?? null;
    let via: HttpEntry['via'] = info.actor?.kind === 'bearer' ? 'bearer' : 'bot';
    if (!info.actor && status < 400) [app, via] = await this.appOfTokenRoute(info.route, params);
    if (!app) return;
    const header = reply.getHeader('x-ratelimit-bucket');
    this.record(app, {
      kind: 'http',
      method: req.method,
      route: info.route,
      path: concretePath(info.route, params),
      status,
      // With rate limits off there is no header: the bucket the limiter would use.
      bucket: typeof header === 'string' ? header : bucketFor(req.method, info.route, params, limitsFor(req.method, info.route, req.body)[0]?.bucket).bucket,
      duration_ms: Math.round(reply.elapsedTime * 10) / 10,
      via,
    });
  };

  /** Interaction callbacks and webhook executions carry no Authorization header: the path names the app. */
  private async appOfTokenRoute(route: string, params: Record<string, string>): Promise<[string | null, HttpEntry['via']]> {
    if (route.startsWith('/interactions/') && params.interaction_id) {
      return [(await loadInteraction(this.ctx, params.interaction_id))?.application_id ?? null, 'interaction'];
    }
    if (route.startsWith('/webhooks/') && params.webhook_id && params.webhook_token && /^\d{1,20}$/.test(params.webhook_id)) {
      return [(await getApplication(this.ctx, params.webhook_id)) ? params.webhook_id : null, 'webhook'];
    }
    return [null, 'bot'];
  }

  /** Gateway tap: a dispatch sent to an application's session (bots, and bearer sessions of an app). */
  readonly onDispatch = (s: Session, t: string, seq: number, dJson: string): void => {
    const app = s.actor.applicationId;
    if (!app) return;
    let d: unknown = null;
    let guildId: string | null = null;
    if (dJson.length <= MAX_PAYLOAD) {
      d = redact(JSON.parse(dJson));
      guildId = typeof (d as any)?.guild_id === 'string' ? (d as any).guild_id : t === 'GUILD_CREATE' ? ((d as any)?.id ?? null) : null;
    }
    this.record(app, { kind: 'gateway', t, seq, bytes: Buffer.byteLength(dJson), shard: s.shard, guild_id: guildId, d });
  };
}

const StreamQuery = z.object({ application_id: snowflake, backlog: qInt(0, KEEP) });

/**
 * `GET /__dev/inspector/applications`: every application with its counts. `GET /__dev/inspector/stream?application_id=`
 * : server-sent events, first the backlog (`backlog`, default 200), then each new entry as it happens.
 */
export function registerInspectorRoutes(scope: FastifyInstance, ctx: Ctx, inspector: Inspector, root: FastifyInstance): void {
  const open = new Set<ServerResponse>();
  // Streams never end on their own: end them when the server closes, or close would wait for them.
  root.addHook('preClose', async () => {
    for (const res of open) res.end();
  });

  scope.get('/__dev/inspector/applications', async () => {
    const rows = await ctx.repos.applications.devList();
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      icon: r.icon,
      bot_id: r.bot_user_id,
      owner_id: r.owner_id,
      counts: inspector.counts(r.id),
    }));
  });

  scope.get('/__dev/inspector/stream', async (req, reply) => {
    const q = parseBody(StreamQuery, req.query ?? {});
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
    const send = (e: InspectorEntry) => res.write(`id: ${e.id}\nevent: entry\ndata: ${JSON.stringify(e)}\n\n`);
    for (const e of inspector.entries(q.application_id, q.backlog ?? 200)) send(e);
    res.write('event: ready\ndata: {}\n\n');
    const unsubscribe = inspector.subscribe(q.application_id, send);
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
    open.add(res);
    res.on('close', () => {
      clearInterval(keepAlive);
      unsubscribe();
      open.delete(res);
    });
  });
}

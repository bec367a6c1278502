import Fastify, { type FastifyInstance } from 'fastify';
import type { Role } from '../core/roles.js';
import { Errors } from '../core/errors.js';
import { clientErrorHandler } from './client-errors.js';
import { sendError, sendJson } from './app.js';
import type { DependencyHealth } from '../store/health.js';
import type { LocalTls } from '../core/local-tls.js';
import { listenerOptions } from './listener.js';

/** A dependency /readyz asks: the store, Redis. `check` rejects (or outlasts the timeout) when it cannot answer. */
export interface Probe {
  name: 'store' | 'redis';
  check(): Promise<unknown>;
}

const PROBE_TIMEOUT_MS = 2000;

/**
 * Liveness and readiness for orchestrators and load balancers, on every role:
 * - `GET /healthz`: the process answers (200 `{status: "ok", role}`);
 * - `GET /readyz`: 200 when every dependency answers a trivial request, else 503 naming the one that failed. Only
 *   `ok`, `failed`, `timeout` or `down` per dependency: error texts can carry addresses or user names, so they stay
 *   out. `down`: the process knows it is away (store/health.ts) and answers without asking it.
 */
export function registerHealth(app: FastifyInstance, role: Role, probes: Probe[], health?: DependencyHealth): void {
  app.get('/healthz', async (_req, reply) => sendJson(reply.header('cache-control', 'no-store'), 200, { status: 'ok', role }));
  app.get('/readyz', async (_req, reply) => {
    const results = await Promise.all(probes.map(async (p) => [p.name, health?.isDown(p.name) ? ('down' as const) : await outcome(p)] as const));
    const ready = results.every(([, r]) => r === 'ok');
    return sendJson(reply.header('cache-control', 'no-store'), ready ? 200 : 503, {
      status: ready ? 'ready' : 'unavailable',
      role,
      checks: Object.fromEntries(results),
    });
  });
}

async function outcome(p: Probe): Promise<'ok' | 'failed' | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), PROBE_TIMEOUT_MS)));
  try {
    return await Promise.race([
      p.check().then(
        () => 'ok' as const,
        () => 'failed' as const,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The HTTP listener of a node without the API (gateway, voice, worker): the probes, and the platform's 404 otherwise. */
export function buildProbeHttp(tls: LocalTls | null = null): FastifyInstance {
  const app = Fastify({ ...listenerOptions(tls), logger: false, clientErrorHandler, frameworkErrors: (err, _req, reply) => sendError(reply, err, false) });
  app.setErrorHandler((err, _req, reply) => sendError(reply, err));
  app.setNotFoundHandler((_req, reply) => sendError(reply, Errors.notFound()));
  return app;
}

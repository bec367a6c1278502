import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dropSchema } from '../../src/store/postgres.js';
import { connectRedis, deleteKeys } from '../../src/store/redis.js';
import { startServer, type RunningServer } from '../../src/server.js';
import type { Config } from '../../src/config.js';
import { seedWorld, type SeedWorld } from '../../src/dev/seed.js';

export interface ApiOptions {
  method?: string;
  /** A user token, or a bot token with `bot: true`. */
  token?: string;
  bot?: boolean;
  /** Plain values are sent as JSON; FormData, strings and buffers as they are. */
  body?: unknown;
  headers?: Record<string, string>;
  /** API prefix; defaults to /api/v10. */
  prefix?: string;
}

export interface ApiResponse<T = any> {
  status: number;
  /** Parsed JSON (the raw text when it is not JSON, null when empty). */
  body: T;
  text: string;
  headers: Headers;
}

export interface TestServer {
  server: RunningServer;
  world: SeedWorld;
  /** Calls `${server.url}${prefix}${path}` and parses the JSON answer. */
  api<T = any>(path: string, opts?: ApiOptions): Promise<ApiResponse<T>>;
  /** Stops the server and removes its data (the temp dir, or the PostgreSQL schema). */
  close(): Promise<void>;
}

/** The header of the dev routes (`/__dev/…`): the server's dev token (servers started with dev: true). */
export function devHeaders(t: { server: RunningServer }): Record<string, string> {
  return { 'x-accord-dev-token': t.server.ctx.config.devToken ?? '' };
}

/**
 * Config overrides, given directly (`{ rateLimits: true }`) or under `overrides`. `join`: start a second node of
 * that server's deployment (same PostgreSQL schema and Redis prefix, its world, no seeding); close it first.
 */
export type TestServerOptions = Partial<Config> & { overrides?: Partial<Config>; join?: TestServer };

/**
 * A real server on a random port with a seeded world: SQLite in a fresh temp dir by default, or a fresh schema of
 * the PostgreSQL database in DATABASE_URL when that is set. With REDIS_URL too, it runs in distributed mode under
 * a Redis prefix of its own, whose keys are deleted on close.
 */
export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  const { overrides, join, ...direct } = opts;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'accord-test-'));
  const databaseUrl = join?.server.ctx.config.databaseUrl ?? (process.env.DATABASE_URL || undefined);
  const databaseSchema = join ? join.server.ctx.config.databaseSchema : databaseUrl ? `t_${Date.now()}_${crypto.randomBytes(4).toString('hex')}` : undefined;
  const redisUrl = join ? join.server.ctx.config.redisUrl : databaseUrl ? process.env.REDIS_URL || undefined : undefined;
  const redisPrefix = join ? join.server.ctx.config.redisPrefix : `${databaseSchema}:`;
  const server = await startServer({
    // Every test client connects from 127.0.0.1: the per-address Gateway cap is raised unless a test sets it. A joined
    // node shares the deployment's dev token, as nodes started with one ACCORD_DEV_TOKEN do.
    port: 0,
    host: '127.0.0.1',
    dataDir,
    rateLimits: false,
    logLevel: 'silent',
    databaseUrl,
    databaseSchema,
    redisUrl,
    redisPrefix,
    gatewayConnectionsPerIp: 10_000,
    // The cheapest scrypt the server allows: tests register and log in hundreds of people (the default, 14, costs 16x).
    passwordHashCost: 10,
    ...(join?.server.ctx.config.devToken ? { devToken: join.server.ctx.config.devToken } : {}),
    ...direct,
    ...overrides,
  });
  const world = join ? join.world : await seedWorld(server.ctx);

  async function api<T = any>(p: string, opts: ApiOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = opts.bot ? `Bot ${opts.token}` : opts.token;
    let body: NonNullable<Parameters<typeof fetch>[1]>['body'];
    if (opts.body instanceof FormData || typeof opts.body === 'string' || Buffer.isBuffer(opts.body)) {
      body = opts.body as typeof body;
    } else if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    const res = await fetch(`${server.url}${opts.prefix ?? '/api/v10'}${p}`, { method: opts.method ?? 'GET', headers, body });
    const text = await res.text();
    let parsed: any = null;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status: res.status, body: parsed as T, text, headers: res.headers };
  }

  async function close() {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (join) return; // the first node owns the schema and the keys
    if (databaseUrl && databaseSchema) {
      await dropSchema(databaseUrl, databaseSchema);
    }
    if (redisUrl) {
      const r = await connectRedis(redisUrl, 'accord-test-cleanup');
      await deleteKeys(r, redisPrefix).finally(() => r.quit());
    }
  }

  return { server, world, api, close };
}

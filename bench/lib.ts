/** Shared helpers for the benchmarks: the forked server child, an HTTP client, gateway clients, statistics. */
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import type { ChildReply, ChildRequest, StartOptions } from './server-child.js';
import { RawAgent } from './raw-http.js';

export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
export const REPO_DIR = path.resolve(BENCH_DIR, '..');
export const SERVER_DIR = path.join(REPO_DIR, 'packages', 'server');
export const RESULTS_DIR = path.join(BENCH_DIR, 'results');

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
export const now = () => performance.now();

const tmpDirs: string[] = [];

export function tmpDataDir(label: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `accord-bench-${label}-`));
  tmpDirs.push(dir);
  return dir;
}

/** Removes every directory tmpDataDir() made. */
export function removeTmpDirs(): void {
  for (const d of tmpDirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
}

/** Percentile (nearest rank) of an array of numbers; sorts a copy. */
export function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export function summary(values: number[]) {
  return {
    count: values.length,
    p50: round(percentile(values, 50)),
    p90: round(percentile(values, 90)),
    p99: round(percentile(values, 99)),
    max: round(values.reduce((a, b) => Math.max(a, b), -Infinity)),
    mean: round(values.reduce((a, b) => a + b, 0) / (values.length || 1)),
  };
}

export const round = (n: number, digits = 2) => (Number.isFinite(n) ? Number(n.toFixed(digits)) : n);

// ---------------------------------------------------------------------------------------------------------------
// The server child: `startServer()` in its own process, driven over IPC.

export interface ServerChild {
  proc: ChildProcess;
  info: Extract<ChildReply, { type: 'started' }>;
  call<T = any>(req: ChildRequest): Promise<T>;
  stop(): Promise<void>;
}

export interface ForkOptions extends StartOptions {
  /** Extra node flags for the child (e.g. --cpu-prof). */
  nodeFlags?: string[];
}

/** Drops a benchmark run's PostgreSQL schema (a failure is printed, not thrown: the run's figures stand). */
export async function dropPg(url: string, schema: string): Promise<void> {
  const { dropSchema } = await import('../packages/server/src/store/postgres.js');
  await dropSchema(url, schema).catch((e) => console.log(`(could not drop schema ${schema}: ${e.message})`));
}

/**
 * Has PostgreSQL write its dirty pages now, before a measured run: a checkpoint that the previous runs' WAL asked for
 * would otherwise land inside this run's window and slow it (whichever server it measures). No PostgreSQL: nothing.
 */
export async function pgCheckpoint(url: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('CHECKPOINT');
  } catch {
    // no PostgreSQL here, or no right to checkpoint: the run goes on as before
  } finally {
    await client.end().catch(() => {});
  }
}

/** Forks bench/server-child.ts (node --import tsx --expose-gc) and starts the server in it. */
export async function forkServer(opts: ForkOptions): Promise<ServerChild> {
  const proc = fork(path.join(BENCH_DIR, 'server-child.ts'), [], {
    cwd: SERVER_DIR,
    execArgv: ['--import', 'tsx', '--expose-gc', ...(opts.nodeFlags ?? [])],
    env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', ACCORD_LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    serialization: 'advanced',
  });
  let nextId = 1;
  const pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  let exited = false;
  const exitPromise = new Promise<void>((resolve) =>
    proc.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  proc.on('message', (m: any) => {
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.type === 'error') p.reject(new Error(`server child: ${m.message}`));
    else p.resolve(m);
  });
  proc.once('exit', (code) => {
    for (const p of pending.values()) p.reject(new Error(`server child exited with code ${code}`));
    pending.clear();
  });
  const call = <T>(req: ChildRequest): Promise<T> =>
    new Promise((resolve, reject) => {
      if (exited) return reject(new Error('server child has exited'));
      const id = nextId++;
      pending.set(id, { resolve, reject });
      proc.send({ ...req, id });
    });
  const { nodeFlags: _f, ...start } = opts;
  const info = await call<Extract<ChildReply, { type: 'started' }>>({ cmd: 'start', options: start });
  return {
    proc,
    info,
    call,
    async stop() {
      if (exited) return;
      call({ cmd: 'stop' }).catch(() => {});
      const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
      await exitPromise;
      clearTimeout(timer);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// HTTP: raw http.request over a keep-alive agent (the cheapest client Node offers).

export function makeAgent(maxSockets: number) {
  return new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
}

export interface HttpResult {
  status: number;
  body: string;
}

export function request(agent: http.Agent, port: number, method: string, urlPath: string, auth: string | null, body?: unknown): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers: Record<string, string | number> = {};
    if (auth) headers.authorization = auth;
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = payload.length;
    }
    const req = http.request({ host: '127.0.0.1', port, method, path: urlPath, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** The closed loops' HTTP client: node:http's keep-alive Agent, or the lean one of raw-http.ts (`--client raw`). */
export interface LoadClient {
  request(port: number, method: string, urlPath: string, auth: string | null, body?: unknown): Promise<HttpResult>;
  destroy(): void;
}

export type ClientKind = 'node' | 'raw';

/** `maxSockets` caps node:http's Agent; the raw client opens what its callers keep in flight. */
export function makeClient(kind: ClientKind, maxSockets: number): LoadClient {
  if (kind === 'raw') return new RawAgent();
  const agent = makeAgent(maxSockets);
  return { request: (...args) => request(agent, ...args), destroy: () => agent.destroy() };
}

/** `--client`'s value, or `fallback` when it is not given. */
export function clientKind(value: unknown, fallback: ClientKind): ClientKind {
  if (value === undefined) return fallback;
  if (value === 'node' || value === 'raw') return value;
  throw new Error(`--client ${String(value)}: node or raw`);
}

// ---------------------------------------------------------------------------------------------------------------
// Gateway clients: raw ws, identify, then hand every frame (as a Buffer) to a callback without parsing it.

export interface GatewayClient {
  ws: WebSocket;
  ready: Promise<void>;
  /** Resolves after READY and, when `waitGuildCreate`, the GUILD_CREATE that follows. */
  settled: Promise<void>;
  lastSeq: number;
  seqGaps: number;
  /** Heartbeat ACKs (op 11) received. */
  acks: number;
  /** Bytes of frames received, and the largest frame. */
  bytes: number;
  largest: number;
  /** Sends one heartbeat (op 1) acknowledging the last seq received. */
  heartbeat(): void;
  close(): void;
}

const MC = Buffer.from('"t":"MESSAGE_CREATE"');
const READY = Buffer.from('"t":"READY"');
const GC = Buffer.from('"t":"GUILD_CREATE"');

/** Dispatch frames open with `{"t":"NAME","s":N,"op":0,` (the platform's key order): every field but d is in the head. */
const HEAD = 64;

export function isMessageCreate(frame: Buffer): boolean {
  const i = frame.indexOf(MC);
  return i >= 0 && i < HEAD;
}

export { seqOf } from './frames.mjs';
import { opOf, seqOf } from './frames.mjs';

/** `compress`: ask for zlib-stream transport compression; frames are inflated (one context per connection) before use. */
export function connectGateway(
  port: number,
  token: string,
  intents: number,
  onDispatch: (frame: Buffer, at: number) => void,
  waitGuildCreate: boolean,
  compress = false,
): GatewayClient {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/?v=10&encoding=json${compress ? '&compress=zlib-stream' : ''}`, { perMessageDeflate: false });
  let resolveReady!: () => void;
  let resolveSettled!: () => void;
  let rejectAll!: (e: Error) => void;
  const ready = new Promise<void>((res, rej) => {
    resolveReady = res;
    rejectAll = rej;
  });
  const settled = new Promise<void>((res, rej) => {
    resolveSettled = res;
    ready.catch(rej);
  });
  settled.catch(() => {});
  const client: GatewayClient = {
    ws,
    ready,
    settled,
    lastSeq: 0,
    seqGaps: 0,
    acks: 0,
    bytes: 0,
    largest: 0,
    heartbeat: () => ws.send(JSON.stringify({ op: 1, d: client.lastSeq || null })),
    close: () => ws.close(1000),
  };
  let gotReady = false;
  const inflate = compress ? zlib.createInflate() : null;
  let inflated: Buffer[] = [];
  inflate?.on('data', (c: Buffer) => inflated.push(c));
  inflate?.on('error', (err) => rejectAll(err));
  ws.on('message', (data: Buffer) => {
    if (!inflate) return onFrame(data);
    // zlib-stream: bytes on the wire are counted as received; a message ends with the Z_SYNC_FLUSH suffix 00 00 ff ff.
    client.bytes += data.length;
    inflate.write(data);
    if (data.length >= 4 && data.readUInt32BE(data.length - 4) === 0xffff) {
      inflate.flush(zlib.constants.Z_SYNC_FLUSH, () => {
        const out = Buffer.concat(inflated);
        inflated = [];
        if (out.length) onFrame(out, true);
      });
    }
  });
  function onFrame(data: Buffer, counted = false) {
    const at = performance.now();
    if (!counted) client.bytes += data.length;
    if (data.length > client.largest) client.largest = data.length;
    const op = opOf(data);
    if (op !== 0) {
      if (op === 10) ws.send(JSON.stringify({ op: 2, d: { token, intents, properties: { os: 'linux', browser: 'accord-bench', device: 'accord-bench' } } }));
      else if (op === 9) rejectAll(new Error('invalid session'));
      else if (op === 11) client.acks++;
      return;
    }
    const s = seqOf(data);
    if (s !== client.lastSeq + 1) client.seqGaps++;
    client.lastSeq = s;
    if (!gotReady) {
      if (data.indexOf(READY) >= 0) {
        gotReady = true;
        resolveReady();
        if (!waitGuildCreate) resolveSettled();
      }
      return;
    }
    if (waitGuildCreate && data.indexOf(GC) >= 0 && data.indexOf(GC) < HEAD) resolveSettled();
    onDispatch(data, at);
  }
  ws.on('close', (code, reason) => rejectAll(new Error(`gateway closed ${code} ${reason}`)));
  ws.on('error', (err) => rejectAll(err));
  return client;
}

/** Opens clients in batches so the server is not flooded with simultaneous handshakes. */
export async function connectMany(n: number, batch: number, open: (i: number) => GatewayClient): Promise<GatewayClient[]> {
  const out: GatewayClient[] = [];
  for (let i = 0; i < n; i += batch) {
    const group: GatewayClient[] = [];
    for (let j = i; j < Math.min(n, i + batch); j++) group.push(open(j));
    await Promise.all(group.map((c) => c.settled));
    out.push(...group);
  }
  return out;
}

/**
 * Linux PSI: total µs some task waited for a CPU. The share of a window spent stalled tells how contended the
 * machine was (other processes compete with the benchmark on 2 cores). null where PSI is unavailable.
 */
export function cpuStallUs(): number | null {
  try {
    const m = /some avg10=[\d.]+ avg60=[\d.]+ avg300=[\d.]+ total=(\d+)/.exec(fs.readFileSync('/proc/pressure/cpu', 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

export function stallPct(fromUs: number | null, toUs: number | null, windowMs: number): number | null {
  return fromUs === null || toUs === null ? null : round(((toUs - fromUs) / 1000 / windowMs) * 100, 0);
}

export function writeJson(name: string, data: unknown): string {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, name);
  fs.writeFileSync(file, JSON.stringify(data, null, 2) + '\n');
  return file;
}

export function table(rows: (string | number)[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c] ?? '').length)));
  return rows
    .map((r, i) => {
      const line = r.map((cell, c) => String(cell ?? '').padEnd(widths[c])).join('  ');
      return i === 0 ? `${line}\n${widths.map((w) => '-'.repeat(w)).join('  ')}` : line;
    })
    .join('\n');
}

/**
 * The issue-16 suite: every figure of issue 16 §4 beside a limit measured in the same run, with the ratio.
 *   npm run bench -- --suite issue16 [options]          (from the repo root; see bench/README.md)
 *
 *   --only msgcreate,deliver200,fanout,memory,storm,scale,coldstart   phases (default: all)
 *   --duration 10 --warmup 2 --concurrency 32          message-create closed loop (C in flight)
 *   --client node                                      the closed loop's HTTP client: node (node:http's Agent) or raw
 *                                                      (bench/raw-http.ts, about a quarter of the CPU a request)
 *   --listeners 500                                    listeners of the "with listeners" runs and of the 200 msg/s run
 *   --fanout-sessions 10000 --fanout-rate 2 --fanout-seconds 15   (needs ulimit -n above the session count + ~1000)
 *   --seconds 10                                       measuring window of the 200 msg/s run and of the scale fan-out
 *   --storm-sessions 5000
 *   --memory-sessions 500 --memory-guilds 500,2000
 *   --scale-workers 1,2,4 --scale-sessions 1000 --scale-rate 20 --nodes 3   (needs --database-url and --redis-url;
 *                                                      --scale-sessions 0: message create only; --nodes 0: no node row)
 *   --threads 2                                        load-generator worker threads holding the Gateway sessions
 *   --database-url postgres://postgres@127.0.0.1:5432/test --redis-url redis://127.0.0.1:6379 (defaults; a fresh
 *                                                      schema and key prefix per run, dropped afterwards)
 *   --profile                                          CPU profiles of Accord for message create and fan-out
 *
 * Processes: Accord in a forked child (bench/server-child.ts) or spawned CLI processes (scale), the limit in its own
 * process (bench/minimal-server.ts), the load generator here plus its worker threads (bench/load-worker.mjs).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BENCH_DIR,
  RESULTS_DIR,
  REPO_DIR,
  SERVER_DIR,
  connectGateway,
  connectMany,
  cpuStallUs,
  dropPg,
  forkServer,
  makeClient,
  pgCheckpoint,
  clientKind,
  type LoadClient,
  now,
  percentile,
  round,
  sleep,
  stallPct,
  summary,
  table,
  tmpDataDir,
  writeJson,
  type ServerChild,
} from './lib.js';
import { absNow, LoadPool } from './load-pool.js';
import { coldStart, freePort } from './coldstart.js';
import { formatTop, topSelf } from './profile-top.js';

const INTENTS = { GUILDS: 1, GUILD_MESSAGES: 1 << 9, MESSAGE_CONTENT: 1 << 15 };
const LISTEN = INTENTS.GUILD_MESSAGES | INTENTS.MESSAGE_CONTENT;
const GOALS = {
  msgPerSec: 10_000,
  p99Ms: 10,
  ofMinimal: 0.5,
  deliverP99Ms: 100,
  sessionBytes: 20 * 1024,
  fanoutOfRaw: 0.8,
  coldStartMs: 1000,
  nodesFactor: 2.5,
};

function parseArgs(argv: string[]) {
  const o: Record<string, string | boolean> = {};
  for (let i = 0; i < argv.length; i++) {
    if (!argv[i].startsWith('--')) continue;
    const [k, inline] = argv[i].slice(2).split('=', 2);
    if (inline !== undefined) o[k] = inline;
    else if (argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')) o[k] = argv[++i];
    else o[k] = true;
  }
  const num = (k: string, d: number) => (o[k] === undefined ? d : Number(o[k]));
  const list = (k: string, d: string) =>
    String(o[k] ?? d)
      .split(',')
      .map(Number)
      .filter((n) => n > 0);
  return {
    only: new Set(
      String(o.only ?? 'msgcreate,deliver200,fanout,memory,storm,scale,coldstart')
        .split(',')
        .map((s) => s.trim()),
    ),
    duration: num('duration', 10),
    warmup: num('warmup', 2),
    concurrency: num('concurrency', 32),
    listeners: num('listeners', 500),
    fanoutSessions: num('fanout-sessions', 10_000),
    fanoutRate: num('fanout-rate', 2),
    fanoutSeconds: num('fanout-seconds', 15),
    seconds: num('seconds', 10),
    stormSessions: num('storm-sessions', 5000),
    memorySessions: num('memory-sessions', 500),
    memoryGuilds: list('memory-guilds', '500,2000'),
    scaleWorkers: list('scale-workers', '1,2,4'),
    scaleSessions: num('scale-sessions', 1000),
    scaleRate: num('scale-rate', 20),
    nodes: num('nodes', 3),
    threads: num('threads', 2),
    profile: o.profile === true || o.profile === 'true',
    client: clientKind(o.client, 'node'),
    databaseUrl: String(o['database-url'] ?? 'postgres://postgres@127.0.0.1:5432/test'),
    redisUrl: String(o['redis-url'] ?? 'redis://127.0.0.1:6379'),
  };
}
type Options = ReturnType<typeof parseArgs>;

const stamp = () => new Date().toISOString().replace(/[:.]/g, '-');
const load = () => os.loadavg().map((n) => round(n, 2));
const hrUs = () => Number(process.hrtime.bigint() / 1000n);

// ------------------------------------------------------------------------------------------------ CPU of a process tree
/** CPU ms (user + system) of a process and all its descendants, from /proc (works for any process we started). */
function treeCpuMs(roots: number[]): number {
  const procs = new Map<number, { ppid: number; ms: number }>();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const s = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      procs.set(Number(d), { ppid: Number(f[1]), ms: (Number(f[11]) + Number(f[12])) * 10 });
    } catch {
      /* exited meanwhile */
    }
  }
  let ms = 0;
  const stack = [...roots];
  while (stack.length) {
    const p = stack.pop()!;
    ms += procs.get(p)?.ms ?? 0;
    for (const [pid, v] of procs) if (v.ppid === p) stack.push(pid);
  }
  return ms;
}

// ------------------------------------------------------------------------------------------------ targets
/** A server under load: Accord (one child, or a cluster of CLI processes) or the minimal limit. */
interface Target {
  name: string;
  ports: number[];
  botToken: string;
  channelId: string;
  /** Roots of its process trees (their CPU is summed). */
  pids: number[];
  child?: ServerChild;
  stop(): Promise<void>;
}

async function accordChild(label: string, o: Options, pg: boolean, nodeFlags: string[] = []): Promise<Target> {
  const schema = pg ? `bench_${Date.now()}_${Math.random().toString(36).slice(2, 6)}` : undefined;
  const child = await forkServer({
    dataDir: tmpDataDir(label),
    seed: true,
    rateLimits: false,
    heartbeatIntervalMs: 600_000,
    databaseUrl: pg ? o.databaseUrl : undefined,
    databaseSchema: schema,
    nodeFlags,
  });
  const w = child.info.world!;
  return {
    name: `accord ${pg ? 'postgres' : 'sqlite'}`,
    ports: [child.info.port],
    botToken: w.botToken,
    channelId: w.textChannelId,
    pids: [child.info.pid],
    child,
    async stop() {
      await child.stop();
      if (schema) await dropPg(o.databaseUrl, schema);
    },
  };
}

function spawnLines(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): { proc: ChildProcess; lines: string[]; waitFor(re: RegExp, count: number, ms: number): Promise<RegExpMatchArray[]> } {
  const proc = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const lines: string[] = [];
  let buf = '';
  const onData = (d: Buffer) => {
    buf += d.toString();
    const parts = buf.split('\n');
    buf = parts.pop()!;
    lines.push(...parts);
  };
  proc.stdout!.on('data', onData);
  proc.stderr!.on('data', onData);
  let exited = false;
  proc.once('exit', () => {
    exited = true;
  });
  return {
    proc,
    lines,
    async waitFor(re, count, ms) {
      const t0 = now();
      for (;;) {
        const m = lines.map((l) => l.match(re)).filter((x): x is RegExpMatchArray => !!x);
        if (m.length >= count) return m;
        if (exited) throw new Error(`${cmd} exited: ${lines.slice(-8).join(' | ')}`);
        if (now() - t0 > ms) throw new Error(`timed out waiting for ${re}: ${lines.slice(-8).join(' | ')}`);
        await sleep(20);
      }
    },
  };
}

async function killGroup(proc: ChildProcess) {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  try {
    process.kill(-proc.pid!, 'SIGTERM');
  } catch {
    return;
  }
  const t = setTimeout(() => {
    try {
      process.kill(-proc.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
  }, 10_000);
  await exited;
  clearTimeout(t);
}

/**
 * The limit of the scale rows: bench/minimal-server.ts on PostgreSQL (group commit) with one Redis PUBLISH per message,
 * served by `n` processes on one port as `accord start --workers n` is: what a second process adds on this machine.
 */
async function minimalCluster(o: Options, n: number): Promise<Target> {
  const schema = `bench_minimal_${Date.now()}_${Math.random().toString(36).slice(2, 6)}`;
  const script = path.join(BENCH_DIR, 'minimal-server.ts');
  const args = ['--import', 'tsx', script, '--pg', o.databaseUrl, '--pg-schema', schema, '--redis', o.redisUrl, '--workers', String(n)];
  const s = spawnLines(process.execPath, args, { ...process.env }, SERVER_DIR);
  const [m] = await s.waitFor(/^listening (\d+)/, 1, 60_000);
  return {
    name: `minimal --workers ${n}`,
    ports: [Number(m[1])],
    botToken: 'minimal',
    channelId: '1000000000000000003',
    pids: [s.proc.pid!],
    stop: async () => {
      await killGroup(s.proc);
      await dropPg(o.databaseUrl, schema);
    },
  };
}

/** The limit: bench/minimal-server.ts in its own process. `db`: SQLite file, or none (raw ws broadcast). */
async function minimal(db: boolean, readyBytes = 2048): Promise<Target> {
  const dir = tmpDataDir('minimal');
  const s = spawnLines(
    process.execPath,
    ['--import', 'tsx', path.join(BENCH_DIR, 'minimal-server.ts'), '--db', db ? path.join(dir, 'm.db') : 'none', '--ready-bytes', String(readyBytes)],
    { ...process.env },
    SERVER_DIR,
  );
  const [m] = await s.waitFor(/^listening (\d+)/, 1, 30_000);
  return {
    name: db ? 'minimal server' : 'raw ws broadcast',
    ports: [Number(m[1])],
    botToken: 'minimal',
    channelId: '1000000000000000003',
    pids: [s.proc.pid!],
    stop: () => killGroup(s.proc),
  };
}

/**
 * Accord as CLI processes on PostgreSQL + Redis: `mode: 'workers'` is `accord start --workers n` (one port);
 * `mode: 'nodes'` is n separate `accord start` processes on n ports sharing the schema and the Redis prefix.
 */
async function accordCluster(o: Options, mode: 'workers' | 'nodes', n: number, nodeFlags: string[] = []): Promise<Target> {
  const schema = `bench_${Date.now()}_${Math.random().toString(36).slice(2, 6)}`;
  const prefix = `${schema}:`;
  const env = {
    ...process.env,
    DATABASE_URL: o.databaseUrl,
    ACCORD_DATABASE_SCHEMA: schema,
    REDIS_URL: o.redisUrl,
    ACCORD_REDIS_PREFIX: prefix,
    ACCORD_LOG_LEVEL: 'silent',
  };
  const common = [
    ...nodeFlags,
    '--import',
    'tsx',
    'src/main.ts',
    'start',
    '--rate-limits',
    'off',
    '--gateway-connections-per-ip',
    '1000000',
    '--heartbeat-interval',
    '600000',
  ];
  const procs: ReturnType<typeof spawnLines>[] = [];
  const ports: number[] = [];
  const stop = async () => {
    for (const p of procs) await killGroup(p.proc);
    await dropPg(o.databaseUrl, schema);
    const { connectRedis, deleteKeys } = await import('../packages/server/src/store/redis.js');
    const r = await connectRedis(o.redisUrl, 'accord-bench-cleanup');
    await deleteKeys(r, prefix).finally(() => r.quit());
  };
  try {
    const nodes = mode === 'workers' ? 1 : n;
    let bot = '';
    let channel = '';
    for (let i = 0; i < nodes; i++) {
      const port = await freePort();
      const voice = 20000 + Math.floor(Math.random() * 20000); // workers take voice+i: a free-looking base, away from ephemeral ports
      const args = [
        ...common,
        '--port',
        String(port),
        '--voice-port',
        String(voice),
        '--data',
        tmpDataDir(`node${i}`),
        ...(mode === 'workers' ? ['--workers', String(n)] : []),
        ...(i === 0 ? ['--seed'] : []),
      ];
      const s = spawnLines(process.execPath, args, env, SERVER_DIR);
      procs.push(s);
      await s.waitFor(/accord: listening on/, mode === 'workers' ? n : 1, 120_000);
      if (i === 0) {
        bot = (await s.waitFor(/bot token\s+(\S+)/, 1, 30_000))[0][1];
        channel = (await s.waitFor(/#general (\d+)/, 1, 30_000))[0][1];
      }
      ports.push(port);
    }
    return {
      name: `accord ${mode === 'workers' ? `--workers ${n}` : `${n} nodes`}`,
      ports,
      botToken: bot,
      channelId: channel,
      pids: procs.map((p) => p.proc.pid!),
      stop,
    };
  } catch (err) {
    await stop().catch(() => {});
    throw err;
  }
}

// ------------------------------------------------------------------------------------------------ load
const wsUrls = (t: Target) => t.ports.map((p) => `ws://127.0.0.1:${p}/?v=10&encoding=json`);
const post = (client: LoadClient, t: Target, i: number, content: string) =>
  client.request(t.ports[i % t.ports.length], 'POST', `/api/v10/channels/${t.channelId}/messages`, `Bot ${t.botToken}`, { content });

async function openSessions(pool: LoadPool, t: Target, n: number, batch: number) {
  const t0 = now();
  const r = await pool.open({ urls: wsUrls(t), tokens: [t.botToken], intents: LISTEN, n, batch, timeoutMs: 180_000 });
  const seconds = round((now() - t0) / 1000, 1);
  console.log(
    `  ${n} sessions on ${t.name}: ${n - r.notReady} READY in ${seconds} s${r.notReady ? `; NOT READY ${r.notReady}: ${r.errors.slice(0, 3).join('; ')}` : ''}`,
  );
  if (r.notReady) throw new Error(`${r.notReady} of ${n} sessions did not reach READY (${r.errors.slice(0, 3).join('; ')})`);
  return { ...r, seconds };
}

let markerBase = 0;
const CAP = 60_000; // messages a closed-loop run with listeners tracks per session

/** C requests in flight for warm-up + duration; with a pool, every listener must get every 200'd message once. */
async function closedLoop(t: Target, o: Options, pool: LoadPool | null, listeners: number) {
  await pgCheckpoint(o.databaseUrl);
  const client = makeClient(o.client, o.concurrency);
  const base = markerBase;
  markerBase += CAP;
  const gaps0 = pool ? (await pool.report(0)).seqGaps : 0;
  if (pool) await pool.phase(base, CAP);
  let state: 'warmup' | 'measure' | 'done' = 'warmup';
  let k = 0;
  let okAll = 0;
  let errors = 0;
  const lat: number[] = [];
  const statuses = new Map<number, number>();
  const ok = new Uint8Array(CAP);
  const loop = async () => {
    while (state !== 'done' && (!pool || k < CAP)) {
      const my = k++;
      const t0 = now();
      let status = 0;
      try {
        status = (await post(client, t, my, `fo:${base + my} throughput lorem ipsum dolor sit amet`)).status;
      } catch {
        errors++;
      }
      if (status === 200) {
        okAll++;
        if (my < CAP) ok[my] = 1;
      }
      if (state === 'measure') {
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status === 200) lat.push(now() - t0);
      }
    }
  };
  const loops = Array.from({ length: o.concurrency }, loop);
  await sleep(o.warmup * 1000);
  const cpu0 = treeCpuMs(t.pids);
  const stall0 = cpuStallUs();
  const w0 = now();
  const prof0 = hrUs();
  lat.length = 0;
  state = 'measure';
  await sleep(o.duration * 1000);
  state = 'done';
  const seconds = (now() - w0) / 1000;
  const prof1 = hrUs();
  const cpu = treeCpuMs(t.pids) - cpu0;
  const stall1 = cpuStallUs();
  await Promise.all(loops);
  client.destroy();
  const res: any = {
    target: t.name,
    client: o.client,
    listeners,
    concurrency: o.concurrency,
    seconds: round(seconds),
    ok: lat.length,
    msgPerSec: round(lat.length / seconds, 0),
    httpMs: summary(lat),
    nonOk: Object.fromEntries([...statuses].filter(([s]) => s !== 200)),
    errors,
    serverCpuPct: round((cpu / (seconds * 1000)) * 100, 0),
    serverCpuMsPerMsg: round(cpu / Math.max(1, lat.length), 3),
    cpuStallPct: stallPct(stall0, stall1, seconds * 1000),
    loadAverage: load(),
    profileWindowUs: { fromUs: prof0, toUs: prof1 },
  };
  if (pool) {
    const expected = okAll * listeners;
    const deadline = now() + 120_000;
    while (now() < deadline && (await pool.delivered()) < expected) await sleep(100);
    const rep = await pool.report(CAP);
    let delivered = 0;
    let missing = 0;
    for (let i = 0; i < Math.min(k, CAP); i++) {
      delivered += rep.recv[i];
      if (ok[i] && rep.recv[i] < listeners) missing += listeners - rep.recv[i];
    }
    Object.assign(res, {
      messagesPosted: okAll,
      expectedDeliveries: expected,
      delivered,
      lost: missing,
      duplicates: rep.duplicates,
      strays: rep.strays,
      seqGaps: rep.seqGaps - gaps0,
      sessionsClosed: rep.closedEarly,
    });
  }
  console.log(
    `  ${t.name}, ${listeners} listeners, C=${o.concurrency}: ${res.msgPerSec} msg/s, HTTP p50 ${res.httpMs.p50} p99 ${res.httpMs.p99} ms; non-200 ${JSON.stringify(res.nonOk)} errors ${errors}; server CPU ${res.serverCpuPct}%` +
      (pool ? `; delivered ${res.delivered}/${res.expectedDeliveries} lost ${res.lost} dup ${res.duplicates} seq gaps ${res.seqGaps}` : '') +
      `; load ${res.loadAverage.join(' ')}`,
  );
  return res;
}

/** Open loop at `rate` msg/s for 1 s warm-up + `seconds`; per message, time from its POST until the LAST session got it. */
async function openLoop(t: Target, pool: LoadPool, sessions: number, rate: number, seconds: number) {
  const client = makeClient('node', 64);
  const warm = Math.max(1, Math.round(rate));
  const total = warm + Math.round(rate * seconds);
  const base = markerBase;
  markerBase += total;
  await pool.phase(base, total);
  const gaps0 = (await pool.report(0)).seqGaps;
  await pool.phase(base, total);
  const sentAt = new Float64Array(total);
  const statuses = new Map<number, number>();
  const httpLat: number[] = [];
  const inflight: Promise<void>[] = [];
  const cpu0 = treeCpuMs(t.pids);
  const stall0 = cpuStallUs();
  const prof0 = hrUs();
  const start = now();
  for (let k = 0; k < total; k++) {
    const wait = start + (k * 1000) / rate - now();
    if (wait > 1) await sleep(wait);
    const sent = (sentAt[k] = absNow());
    inflight.push(
      post(client, t, k, `fo:${base + k} fan-out benchmark message`).then(
        (r) => {
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
          httpLat.push(absNow() - sent);
        },
        () => {
          statuses.set(0, (statuses.get(0) ?? 0) + 1);
        },
      ),
    );
  }
  const sendSeconds = (now() - start) / 1000;
  await Promise.all(inflight);
  const expected = sessions * total;
  const deadline = now() + 120_000;
  while (now() < deadline && (await pool.delivered()) < expected) await sleep(50);
  const elapsed = (now() - start) / 1000;
  const prof1 = hrUs();
  const cpu = treeCpuMs(t.pids) - cpu0;
  const stall1 = cpuStallUs();
  const rep = await pool.report(total);
  client.destroy();
  const delivered = rep.recv.reduce((a, b) => a + b, 0);
  const lat: number[] = [];
  let incomplete = 0;
  for (let k = warm; k < total; k++) {
    if (rep.recv[k] === sessions) lat.push(rep.lastAt[k] - sentAt[k]);
    else incomplete++;
  }
  const res = {
    target: t.name,
    sessions,
    ratePerSec: rate,
    messages: total,
    achievedRatePerSec: round(total / sendSeconds, 0),
    expectedDeliveries: expected,
    delivered,
    lost: expected - delivered,
    duplicates: rep.duplicates,
    strays: rep.strays,
    seqGaps: rep.seqGaps - gaps0,
    sessionsClosed: rep.closedEarly,
    incompleteMessages: incomplete,
    httpStatus: Object.fromEntries(statuses),
    deliveryMs: summary(lat),
    httpMs: summary(httpLat),
    secondsUntilAllDelivered: round(elapsed),
    deliveriesPerSec: round(delivered / elapsed, 0),
    serverCpuPct: round((cpu / (elapsed * 1000)) * 100, 0),
    serverCpuUsPerDelivery: round((cpu * 1000) / Math.max(1, delivered), 1),
    cpuStallPct: stallPct(stall0, stall1, elapsed * 1000),
    loadAverage: load(),
    profileWindowUs: { fromUs: prof0, toUs: prof1 },
  };
  console.log(
    `  ${t.name}, ${sessions} sessions @ ${rate} msg/s: delivered ${delivered}/${expected} (lost ${res.lost}, dup ${res.duplicates}, seq gaps ${res.seqGaps}, closed ${res.sessionsClosed}); last-session p50 ${res.deliveryMs.p50} p99 ${res.deliveryMs.p99} ms; HTTP ${JSON.stringify(res.httpStatus)}; server CPU ${res.serverCpuPct}% (${res.serverCpuUsPerDelivery} µs/delivery); load ${res.loadAverage.join(' ')}`,
  );
  return res;
}

function saveProfile(dir: string, label: string, window: { fromUs: number; toUs: number }) {
  const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) return null;
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const dest = path.join(RESULTS_DIR, `issue16-${label}-${stamp()}.cpuprofile`);
  fs.copyFileSync(path.join(dir, file), dest);
  const top = topSelf(dest, 20, window);
  console.log(`\nCPU profile of Accord, ${label}, measuring window (${path.relative(REPO_DIR, dest)}):\n${formatTop(top)}`);
  return { file: path.relative(REPO_DIR, dest), ...top };
}

// ------------------------------------------------------------------------------------------------ phases
async function phaseMsgCreate(o: Options, pool: LoadPool, out: any) {
  out.msgcreate = { accord: [] as any[], minimal: [] as any[] };
  for (const listeners of [0, o.listeners]) {
    const m = await minimal(true);
    try {
      if (listeners) await openSessions(pool, m, listeners, 250);
      out.msgcreate.minimal.push(await closedLoop(m, o, listeners ? pool : null, listeners));
    } finally {
      await pool.close();
      await m.stop();
    }
    for (const pg of [false, true]) {
      const a = await accordChild('mc', o, pg);
      try {
        if (listeners) await openSessions(pool, a, listeners, 250);
        out.msgcreate.accord.push({ engine: pg ? 'postgres' : 'sqlite', ...(await closedLoop(a, o, listeners ? pool : null, listeners)) });
      } finally {
        await pool.close();
        await a.stop();
      }
    }
  }
  if (o.profile) {
    const dir = tmpDataDir('prof');
    const a = await accordChild('mcprof', o, false, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
    let run: any;
    try {
      run = await closedLoop(a, o, null, 0);
    } finally {
      await a.stop();
    }
    out.msgcreate.profile = saveProfile(dir, 'msgcreate-sqlite', run.profileWindowUs);
  }
}

async function phaseDeliver200(o: Options, pool: LoadPool, out: any) {
  out.deliver200 = [];
  for (const make of [() => minimal(true), () => accordChild('d200', o, false)]) {
    const t = await make();
    try {
      await openSessions(pool, t, o.listeners, 250);
      out.deliver200.push(await openLoop(t, pool, o.listeners, 200, o.seconds));
    } finally {
      await pool.close();
      await t.stop();
    }
  }
}

async function phaseFanout(o: Options, pool: LoadPool, out: any) {
  out.fanout = { sessions: o.fanoutSessions, rate: o.fanoutRate, runs: [] as any[] };
  const runs: [string, () => Promise<Target>, string | null][] = [
    ['raw', () => minimal(false), null],
    ['accord', () => accordChild('fanout', o, false), null],
  ];
  if (o.profile) {
    const dir = tmpDataDir('prof');
    runs.push(['accord-profiled', () => accordChild('fanoutprof', o, false, ['--cpu-prof', `--cpu-prof-dir=${dir}`]), dir]);
  }
  for (const [label, make, profDir] of runs) {
    const t = await make();
    let r: any;
    try {
      const opened = await openSessions(pool, t, o.fanoutSessions, 500);
      r = { label, identifySeconds: opened.seconds, ...(await openLoop(t, pool, o.fanoutSessions, o.fanoutRate, o.fanoutSeconds)) };
      out.fanout.runs.push(r);
    } finally {
      await pool.close();
      await t.stop();
    }
    if (profDir) out.fanout.profile = saveProfile(profDir, `fanout-${o.fanoutSessions}`, r.profileWindowUs);
  }
}

async function phaseStorm(o: Options, pool: LoadPool, out: any) {
  out.storm = [];
  let readyBytes = 2048;
  for (const make of [() => accordChild('storm', o, false), () => minimal(false, readyBytes)]) {
    const t = await make();
    try {
      await sleep(500);
      const t0 = absNow();
      const r = await pool.open({ urls: wsUrls(t), tokens: [t.botToken], intents: LISTEN, n: o.stormSessions, batch: 0, timeoutMs: 180_000 });
      const ready = r.readyAt.filter((x) => x > 0);
      const last = ready.reduce((a, b) => Math.max(a, b), t0);
      const toReady = r.readyAt.map((x, i) => x - r.startedAt[i]).filter((_, i) => r.readyAt[i] > 0);
      const res = {
        target: t.name,
        sessions: o.stormSessions,
        ready: ready.length,
        notReady: r.notReady,
        errors: r.errors,
        readyFrameBytes: r.readyBytes,
        secondsToLastReady: round((last - t0) / 1000),
        readyPerSec: round(ready.length / ((last - t0) / 1000), 0),
        timeToReadyMs: { p50: round(percentile(toReady, 50)), p99: round(percentile(toReady, 99)), max: round(Math.max(...toReady)) },
        loadAverage: load(),
      };
      if (t.name.startsWith('accord')) readyBytes = r.readyBytes;
      console.log(
        `  identify storm on ${t.name}: ${res.ready}/${res.sessions} READY (${res.notReady} not) in ${res.secondsToLastReady} s = ${res.readyPerSec}/s; time to READY p50 ${res.timeToReadyMs.p50} p99 ${res.timeToReadyMs.p99} ms; READY ${res.readyFrameBytes} B${r.errors.length ? `; errors ${r.errors.slice(0, 3).join('; ')}` : ''}`,
      );
      out.storm.push(res);
    } finally {
      await pool.close();
      await t.stop();
    }
  }
}

async function phaseMemory(o: Options, out: any) {
  out.memory = [];
  const kb = (b: number) => round(b / 1024, 1);
  for (const guild of o.memoryGuilds) {
    for (const compress of [false, true]) {
      const k = Math.min(o.memorySessions, guild);
      console.log(`  memory: ${k} user sessions online in a ${guild}-member guild${compress ? ', zlib-stream' : ''}`);
      const srv = await forkServer({ dataDir: tmpDataDir('mem'), seed: true, heartbeatIntervalMs: 600_000 });
      try {
        const world = srv.info.world!;
        const users = (await srv.call<any>({ cmd: 'users', n: guild, guildId: world.guildId })).users as { token: string }[];
        const intents = INTENTS.GUILDS | INTENTS.GUILD_MESSAGES;
        const warm = await connectMany(20, 20, (i) => connectGateway(srv.info.port, users[guild - 1 - i].token, intents, () => {}, true, compress));
        for (const c of warm) c.close();
        await sleep(500);
        await srv.call({ cmd: 'idle' });
        const before = await srv.call<any>({ cmd: 'mem', gc: true });
        const clients = await connectMany(k, 50, (i) => connectGateway(srv.info.port, users[i].token, intents, () => {}, true, compress));
        await srv.call({ cmd: 'idle' });
        await sleep(1000);
        const after = await srv.call<any>({ cmd: 'mem', gc: true });
        // Heartbeat only once every client has read (and inflated) all it was sent: an ACK of an older seq would
        // leave frames buffered on the server and overstate the after-heartbeat figure.
        const progress = () => clients.reduce((a, c) => a + c.bytes + c.lastSeq, 0);
        let seen = -1;
        while (seen !== (seen = progress())) await sleep(1000);
        for (const c of clients) c.heartbeat();
        await sleep(1000);
        await srv.call({ cmd: 'idle' });
        const beat = await srv.call<any>({ cmd: 'mem', gc: true });
        const per = (a: any, b: any) => ({ rss: Math.round((b.usage.rss - a.usage.rss) / k), heap: Math.round((b.usage.heapUsed - a.usage.heapUsed) / k) });
        const res = {
          guildMembers: guild,
          sessions: k,
          compress,
          sessionsOnServer: after.sessions,
          afterReady: per(before, after),
          afterHeartbeat: per(before, beat),
          wireBytesPerSession: Math.round(clients.reduce((a, c) => a + c.bytes, 0) / k),
          seqGaps: clients.reduce((a, c) => a + c.seqGaps, 0),
          heartbeatsAcked: clients.reduce((a, c) => a + c.acks, 0),
          loadAverage: load(),
        };
        console.log(
          `    after READY ${kb(res.afterReady.rss)} KB RSS / ${kb(res.afterReady.heap)} KB heap per session; after one heartbeat ${kb(res.afterHeartbeat.rss)} / ${kb(res.afterHeartbeat.heap)} KB (${res.heartbeatsAcked}/${k} heartbeats acknowledged); ${kb(res.wireBytesPerSession)} KB received per session`,
        );
        out.memory.push(res);
        for (const c of clients) c.close();
      } finally {
        await srv.stop();
      }
    }
  }
}

async function phaseScale(o: Options, pool: LoadPool, out: any) {
  out.scale = [];
  const configs: ['workers' | 'nodes', number][] = [
    ...o.scaleWorkers.map((n) => ['workers', n] as ['workers', number]),
    ...(o.nodes > 1 ? [['nodes', o.nodes] as ['nodes', number]] : []),
  ];
  // The limit first: the minimal server with as many processes, message create only.
  out.scaleLimit = [];
  for (const n of o.scaleWorkers) {
    console.log(`  scale limit: minimal server, ${n} process(es) (PostgreSQL + Redis)`);
    const t = await minimalCluster(o, n);
    try {
      out.scaleLimit.push({ n, throughput: await closedLoop(t, o, null, 0) });
    } finally {
      await t.stop();
    }
  }
  for (const [mode, n] of configs) {
    console.log(`  scale: ${mode} ${n} (PostgreSQL + Redis)`);
    // --profile: every process of the cluster writes a CPU profile (cluster workers inherit the flags) when it stops.
    const profDir = o.profile ? fs.mkdtempSync(path.join(os.tmpdir(), `accord-scaleprof-`)) : null;
    const t = await accordCluster(o, mode, n, profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []);
    let tp: any;
    let fo: any = null;
    try {
      tp = await closedLoop(t, o, null, 0);
      if (o.scaleSessions > 0) {
        // --scale-sessions 0: message create only
        await openSessions(pool, t, o.scaleSessions, 250);
        fo = await openLoop(t, pool, o.scaleSessions, o.scaleRate, o.seconds);
      }
      out.scale.push({ mode, n, throughput: tp, fanout: fo });
    } finally {
      await pool.close();
      await t.stop();
    }
    if (profDir && tp) {
      tp.profiles = [];
      for (const f of fs.readdirSync(profDir).filter((x) => x.endsWith('.cpuprofile'))) {
        const dest = path.join(RESULTS_DIR, `issue16-scale-${mode}${n}-${f}`);
        fs.mkdirSync(RESULTS_DIR, { recursive: true });
        fs.copyFileSync(path.join(profDir, f), dest);
        const top = topSelf(dest, 25, tp.profileWindowUs);
        if (top.totalMs < 100) continue; // the primary, idle
        console.log(`\nCPU profile, scale ${mode} ${n}, one process, measuring window (${path.relative(REPO_DIR, dest)}):\n${formatTop(top)}`);
        tp.profiles.push({ file: path.relative(REPO_DIR, dest), ...top });
      }
    }
  }
}

// ------------------------------------------------------------------------------------------------ table
type Row = [string, string, string, string, string, string];

function rows(out: any): Row[] {
  const r: Row[] = [];
  const yes = (b: boolean) => (b ? 'yes' : 'NO');
  const pct = (a: number, b: number) => `${round((a / b) * 100, 0)}%`;
  const failed = (phase: string) => out.failures?.[phase] && r.push([`${phase}: FAILED`, out.failures[phase].slice(0, 120), '', '', '', 'NO']);
  const mc = out.msgcreate;
  if (mc) {
    for (const a of mc.accord) {
      const lim = mc.minimal.find((m: any) => m.listeners === a.listeners);
      const deliv = a.listeners ? `; delivered ${a.delivered}/${a.expectedDeliveries}, lost ${a.lost}, dup ${a.duplicates}` : '';
      const goal = a.engine === 'sqlite' && a.listeners === 0;
      r.push([
        `message create, ${a.engine}, C=${a.concurrency}, ${a.listeners} listeners: msg/s`,
        `${a.msgPerSec}${deliv}`,
        `${lim?.msgPerSec ?? '?'} (minimal, SQLite)`,
        lim ? pct(a.msgPerSec, lim.msgPerSec) : '?',
        goal ? '≥ 10,000 and ≥ 50% of limit' : '(info)',
        goal
          ? yes(a.msgPerSec >= GOALS.msgPerSec && lim && a.msgPerSec >= GOALS.ofMinimal * lim.msgPerSec)
          : a.listeners
            ? yes(a.lost === 0 && a.duplicates === 0) + ' (all delivered)'
            : '',
      ]);
      // CPU time per message is far less sensitive than msg/s to how much of a core the process got on a busy machine.
      r.push([
        `… server CPU per message (CPU share of the window)`,
        `${a.serverCpuMsPerMsg} ms (${a.serverCpuPct}%)`,
        lim ? `${lim.serverCpuMsPerMsg} ms (${lim.serverCpuPct}%)` : '?',
        lim ? `×${round(a.serverCpuMsPerMsg / lim.serverCpuMsPerMsg, 1)}` : '?',
        '(info)',
        '',
      ]);
      r.push([
        `… HTTP p50 / p99 ms`,
        `${a.httpMs.p50} / ${a.httpMs.p99}`,
        lim ? `${lim.httpMs.p50} / ${lim.httpMs.p99}` : '?',
        lim ? `p99 ×${round(a.httpMs.p99 / lim.httpMs.p99, 1)}` : '?',
        goal ? 'p99 < 10 ms' : '(info)',
        goal ? yes(a.httpMs.p99 < GOALS.p99Ms) : '',
      ]);
    }
    if (mc.minimal.some((m: any) => m.listeners)) {
      const m = mc.minimal.find((x: any) => x.listeners);
      r.push([
        `… the minimal server's own deliveries at ${m.listeners} listeners`,
        `${m.delivered}/${m.expectedDeliveries}, lost ${m.lost}, dup ${m.duplicates}`,
        '',
        '',
        '(check)',
        yes(m.lost === 0 && m.duplicates === 0),
      ]);
    }
  }
  failed('msgcreate');
  if (out.deliver200?.length) {
    const lim = out.deliver200.find((x: any) => !x.target.startsWith('accord'));
    const a = out.deliver200.find((x: any) => x.target.startsWith('accord'));
    if (a) {
      r.push([
        `${a.sessions} listeners @ 200 msg/s (SQLite): delivered`,
        `${a.delivered}/${a.expectedDeliveries} (lost ${a.lost}, dup ${a.duplicates}, gaps ${a.seqGaps})`,
        lim ? `${lim.delivered}/${lim.expectedDeliveries}` : '?',
        '',
        'all',
        yes(a.lost === 0 && a.duplicates === 0 && a.seqGaps === 0),
      ]);
      r.push([
        `… delivery p50 / p99 ms (POST → last listener)`,
        `${a.deliveryMs.p50} / ${a.deliveryMs.p99}`,
        lim ? `${lim.deliveryMs.p50} / ${lim.deliveryMs.p99}` : '?',
        lim ? `p99 ×${round(a.deliveryMs.p99 / lim.deliveryMs.p99, 1)}` : '?',
        'p99 < 100 ms',
        yes(a.deliveryMs.p99 < GOALS.deliverP99Ms),
      ]);
      r.push([
        `… server CPU per delivery (CPU share)`,
        `${a.serverCpuUsPerDelivery} µs (${a.serverCpuPct}%)`,
        lim ? `${lim.serverCpuUsPerDelivery} µs (${lim.serverCpuPct}%)` : '?',
        lim ? `×${round(a.serverCpuUsPerDelivery / lim.serverCpuUsPerDelivery, 1)}` : '?',
        '(info)',
        '',
      ]);
    }
  }
  failed('deliver200');
  if (out.fanout?.runs?.length) {
    const raw = out.fanout.runs.find((x: any) => x.label === 'raw');
    const a = out.fanout.runs.find((x: any) => x.label === 'accord');
    if (a) {
      r.push([
        `fan-out: ${a.sessions} sessions, one guild, @ ${a.ratePerSec} msg/s: delivered`,
        `${a.delivered}/${a.expectedDeliveries} (lost ${a.lost}, dup ${a.duplicates}, gaps ${a.seqGaps})`,
        raw ? `${raw.delivered}/${raw.expectedDeliveries}` : '?',
        '',
        'all',
        yes(a.lost === 0 && a.duplicates === 0 && a.seqGaps === 0),
      ]);
      r.push([
        `… time until every session has it, p50 / p99 ms`,
        `${a.deliveryMs.p50} / ${a.deliveryMs.p99}`,
        raw ? `${raw.deliveryMs.p50} / ${raw.deliveryMs.p99} (raw ws)` : '?',
        raw ? `${pct(raw.deliveryMs.p99, a.deliveryMs.p99)} of raw speed (p99)` : '?',
        '≥ 80% of raw',
        raw ? yes(raw.deliveryMs.p99 / a.deliveryMs.p99 >= GOALS.fanoutOfRaw) : '?',
      ]);
      r.push([
        `… server CPU per delivery`,
        `${a.serverCpuUsPerDelivery} µs`,
        raw ? `${raw.serverCpuUsPerDelivery} µs` : '?',
        raw ? `×${round(a.serverCpuUsPerDelivery / raw.serverCpuUsPerDelivery, 1)}` : '?',
        '(info)',
        '',
      ]);
    }
  }
  failed('fanout');
  for (const m of out.memory ?? []) {
    const kb = (b: number) => `${round(b / 1024, 1)} KB`;
    r.push([
      `idle memory: ${m.sessions} sessions, ${m.guildMembers}-member guild${m.compress ? ', zlib-stream' : ''}: RSS per session after READY / after 1st heartbeat`,
      `${kb(m.afterReady.rss)} / ${kb(m.afterHeartbeat.rss)} (heap ${kb(m.afterReady.heap)} / ${kb(m.afterHeartbeat.heap)})`,
      '20 KB (goal)',
      `${round(m.afterReady.rss / GOALS.sessionBytes, 1)}× / ${round(m.afterHeartbeat.rss / GOALS.sessionBytes, 1)}×`,
      '≤ 20 KB after READY',
      yes(m.afterReady.rss <= GOALS.sessionBytes),
    ]);
  }
  failed('memory');
  if (out.storm?.length) {
    const a = out.storm.find((x: any) => x.target.startsWith('accord'));
    const lim = out.storm.find((x: any) => !x.target.startsWith('accord'));
    if (a) {
      r.push([
        `identify storm: ${a.sessions} at once: READY/s`,
        `${a.readyPerSec} (${a.ready} READY, ${a.notReady} not)`,
        lim ? `${lim.readyPerSec} (raw ws, ${lim.readyFrameBytes} B READY)` : '?',
        lim ? pct(a.readyPerSec, lim.readyPerSec) : '?',
        '(none set)',
        '',
      ]);
      r.push([
        `… time to READY p50 / p99 ms`,
        `${a.timeToReadyMs.p50} / ${a.timeToReadyMs.p99}`,
        lim ? `${lim.timeToReadyMs.p50} / ${lim.timeToReadyMs.p99}` : '?',
        lim ? `p99 ×${round(a.timeToReadyMs.p99 / lim.timeToReadyMs.p99, 1)}` : '?',
        '(none set)',
        '',
      ]);
    }
  }
  failed('storm');
  const oneLimit = out.scaleLimit?.find((s: any) => s.n === 1);
  for (const s of out.scaleLimit ?? []) {
    r.push([
      `scale limit: minimal server, ${s.n} process(es) (PG group commit + Redis publish): message create C=${s.throughput.concurrency}`,
      `${s.throughput.msgPerSec} msg/s, p99 ${s.throughput.httpMs.p99} ms`,
      oneLimit ? `${oneLimit.throughput.msgPerSec} (1 process)` : '?',
      oneLimit ? `×${round(s.throughput.msgPerSec / oneLimit.throughput.msgPerSec, 2)}` : '?',
      '(limit)',
      '',
    ]);
    r.push([
      `… server CPU per message (CPU share of the window)`,
      `${s.throughput.serverCpuMsPerMsg} ms (${s.throughput.serverCpuPct}%)`,
      oneLimit ? `${oneLimit.throughput.serverCpuMsPerMsg} ms (1 process)` : '?',
      oneLimit ? `×${round(s.throughput.serverCpuMsPerMsg / oneLimit.throughput.serverCpuMsPerMsg, 2)}` : '?',
      '(limit)',
      '',
    ]);
  }
  const one = out.scale?.find((s: any) => s.mode === 'workers' && s.n === 1);
  for (const s of out.scale ?? []) {
    r.push([
      `scale: ${s.mode === 'workers' ? `--workers ${s.n}` : `${s.n} nodes (ports)`} (PG + Redis): message create C=${s.throughput.concurrency}`,
      `${s.throughput.msgPerSec} msg/s, p99 ${s.throughput.httpMs.p99} ms`,
      one ? `${one.throughput.msgPerSec} (1 worker)` : '?',
      one ? `×${round(s.throughput.msgPerSec / one.throughput.msgPerSec, 2)}` : '?',
      s.mode === 'workers' && s.n > 1 ? '≥ 1 worker' : '(info)',
      s.mode === 'workers' && s.n > 1 && one ? yes(s.throughput.msgPerSec >= one.throughput.msgPerSec) : '',
    ]);
    r.push([
      `… server CPU per message (CPU share of the window)`,
      `${s.throughput.serverCpuMsPerMsg} ms (${s.throughput.serverCpuPct}%)`,
      one ? `${one.throughput.serverCpuMsPerMsg} ms (1 worker)` : '?',
      one ? `×${round(s.throughput.serverCpuMsPerMsg / one.throughput.serverCpuMsPerMsg, 2)}` : '?',
      s.mode === 'workers' && s.n > 1 ? '≤ ×1.1 of 1 worker' : '(info)',
      s.mode === 'workers' && s.n > 1 && one ? yes(s.throughput.serverCpuMsPerMsg <= 1.1 * one.throughput.serverCpuMsPerMsg) : '',
    ]);
    if (!s.fanout) continue;
    r.push([
      `… fan-out ${s.fanout.sessions} sessions @ ${s.fanout.ratePerSec} msg/s: p50 / p99 ms, delivered`,
      `${s.fanout.deliveryMs.p50} / ${s.fanout.deliveryMs.p99}; ${s.fanout.delivered}/${s.fanout.expectedDeliveries} dup ${s.fanout.duplicates}`,
      one ? `${one.fanout.deliveryMs.p50} / ${one.fanout.deliveryMs.p99} (1 worker)` : '?',
      one ? `p99 ×${round(s.fanout.deliveryMs.p99 / one.fanout.deliveryMs.p99, 2)}` : '?',
      s.mode === 'nodes' ? '≥ 2.5× the sessions and fan-out of one' : '(info)',
      s.mode === 'nodes' ? 'not shown (same session count on both; one machine)' : yes(s.fanout.lost === 0 && s.fanout.duplicates === 0),
    ]);
  }
  failed('scale');
  if (out.coldStart) {
    const c = out.coldStart;
    r.push([
      'cold start: node dist/accord.js start (what npm start runs after its build) → first GET /gateway, fresh dir, median',
      c.spawnNodeBundleMs ? `${c.spawnNodeBundleMs.p50} ms` : 'FAILED (see log)',
      '',
      '',
      '< 1 s',
      c.spawnNodeBundleMs ? yes(c.spawnNodeBundleMs.p50 < GOALS.coldStartMs) : 'NO',
    ]);
    r.push(['cold start: node --import tsx src/main.ts start (sources), median', `${c.spawnNodeFreshDirMs.p50} ms`, '', '', '(info)', '']);
    r.push(['cold start: in-process startServer() (median)', `${c.inProcessStartServerMs.p50} ms`, '', '', '(info)', '']);
  }
  failed('coldstart');
  return r;
}

// ------------------------------------------------------------------------------------------------ main
export async function main(argv: string[]) {
  // --from <results.json>: print the table of an earlier run again (e.g. bench/results/issue16-latest.json).
  const from = argv.indexOf('--from');
  if (from >= 0) {
    const out = JSON.parse(fs.readFileSync(argv[from + 1], 'utf8'));
    const header: Row = ['figure', 'measured', 'limit (same run)', 'ratio', 'goal', 'met?'];
    const body = rows(out);
    console.log(
      table([header, ...body]) +
        '\n\n' +
        [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...body.map((x) => `| ${x.join(' | ')} |`)].join('\n'),
    );
    return;
  }
  const o = parseArgs(argv);
  const out: any = {
    suite: 'issue16',
    date: new Date().toISOString(),
    loadAverageAtStart: load(),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      memGB: round(os.totalmem() / 2 ** 30, 1),
      node: process.version,
      ulimitNofile: null as string | null,
    },
    options: { ...o, only: [...o.only], databaseUrl: o.databaseUrl.replace(/\/\/[^@]*@/, '//…@') },
    goals: GOALS,
    failures: {} as Record<string, string>,
    phaseLoad: {} as Record<string, number[][]>,
  };
  try {
    out.machine.ulimitNofile =
      fs
        .readFileSync('/proc/self/limits', 'utf8')
        .split('\n')
        .find((l) => l.startsWith('Max open files'))
        ?.replace(/\s+/g, ' ') ?? null;
  } catch {
    /* no /proc */
  }
  console.log(
    `accord bench, issue-16 suite: node ${process.version}, ${out.machine.cpus} cores (${out.machine.cpuModel}); load average ${out.loadAverageAtStart.join(' ')}; ${out.machine.ulimitNofile}; ${o.threads} load threads; HTTP client ${o.client}`,
  );
  // Every session is a socket in this process (the load threads share its descriptor table).
  const nofile = Number(/Max open files\s+(\d+)/.exec(out.machine.ulimitNofile ?? '')?.[1] ?? Infinity);
  const most = Math.max(o.fanoutSessions, o.stormSessions, o.listeners, o.scaleSessions);
  if (most + 1000 > nofile)
    throw new Error(
      `ulimit -n is ${nofile}, too low for ${most} sessions: raise it (ulimit -n ${most + 2000}) or pass smaller --fanout-sessions/--storm-sessions`,
    );
  const pool = LoadPool.start(o.threads);
  const phases: [string, () => Promise<unknown>][] = [
    ['msgcreate', () => phaseMsgCreate(o, pool, out)],
    ['deliver200', () => phaseDeliver200(o, pool, out)],
    ['fanout', () => phaseFanout(o, pool, out)],
    ['storm', () => phaseStorm(o, pool, out)],
    ['memory', () => phaseMemory(o, out)],
    ['scale', () => phaseScale(o, pool, out)],
    [
      'coldstart',
      async () => {
        out.coldStart = await coldStart();
      },
    ],
  ];
  for (const [name, run] of phases) {
    if (!o.only.has(name)) continue;
    console.log(`\n## ${name} (load average ${load().join(' ')})`);
    const l0 = load();
    try {
      await run();
    } catch (err) {
      out.failures[name] = err instanceof Error ? err.message : String(err);
      console.log(`PHASE ${name} FAILED: ${out.failures[name]}`);
      await pool.close().catch(() => {});
    }
    out.phaseLoad[name] = [l0, load()];
    writeJson('issue16-partial.json', out);
  }
  await pool.terminate();
  const header: Row = ['figure', 'measured', 'limit (same run)', 'ratio', 'goal', 'met?'];
  const body = rows(out);
  console.log('\n' + table([header, ...body]));
  const md = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...body.map((x) => `| ${x.join(' | ')} |`)].join('\n');
  out.tableMarkdown = md;
  out.loadAverageAtEnd = load();
  const file = writeJson(`issue16-${stamp()}.json`, out);
  writeJson('issue16-latest.json', out);
  fs.writeFileSync(path.join(RESULTS_DIR, 'issue16-latest.md'), md + '\n');
  console.log(
    `\nload average at start ${out.loadAverageAtStart.join(' ')}, at end ${out.loadAverageAtEnd.join(' ')}; raw results: ${path.relative(REPO_DIR, file)} (and bench/results/issue16-latest.{json,md})`,
  );
  if (Object.keys(out.failures).length) console.log(`FAILED PHASES: ${Object.keys(out.failures).join(', ')}`);
}

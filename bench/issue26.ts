/**
 * Issue 26: message create at C=32 (no listeners, rate limits off) for Accord on SQLite and on PostgreSQL, each beside
 * a minimal server doing the same work on the same engine in the same run, with msg/s, p50, p99 and the ratio.
 *   npm run bench -- --suite issue26 [options]          (from the repo root)
 *
 *   --engines sqlite,postgres     which engines (default both; postgres needs --database-url)
 *   --duration 10 --warmup 2 --concurrency 32 --rounds 1   (rounds > 1 alternates minimal/Accord and keeps each's best)
 *   --client raw                  the closed loop's HTTP client: raw (bench/raw-http.ts) or node (node:http's Agent, the
 *                                 default before 2026-11-29)
 *   --database-url postgres://postgres@127.0.0.1:5432/test   (a fresh schema per server, dropped afterwards)
 *   --profile <dir>               Accord runs with --cpu-prof, its profile written there
 *
 * The limits (bench/minimal-server.ts): on SQLite one prepared insert per message (WAL, synchronous=NORMAL); on
 * PostgreSQL one multi-row INSERT per event-loop turn (group commit), each request answered once its row is committed.
 * Goals (issue 26): PostgreSQL >= 50% of its minimal server with p99 < 20 ms; SQLite >= 70% with p99 < 10 ms.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import {
  BENCH_DIR,
  SERVER_DIR,
  clientKind,
  dropPg,
  forkServer,
  makeClient,
  now,
  pgCheckpoint,
  round,
  sleep,
  summary,
  table,
  tmpDataDir,
  writeJson,
} from './lib.js';

const GOALS = { sqlite: { ratio: 0.7, p99: 10 }, postgres: { ratio: 0.5, p99: 20 } } as const;
type Engine = keyof typeof GOALS;

function parseArgs(argv: string[]) {
  const o: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    if (!argv[i].startsWith('--')) continue;
    const [k, inline] = argv[i].slice(2).split('=', 2);
    o[k] = inline ?? (argv[i + 1] && !argv[i + 1].startsWith('--') ? argv[++i] : 'true');
  }
  const num = (k: string, d: number) => (o[k] === undefined ? d : Number(o[k]));
  return {
    engines: String(o.engines ?? 'sqlite,postgres')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean) as Engine[],
    duration: num('duration', 10),
    warmup: num('warmup', 2),
    concurrency: num('concurrency', 32),
    rounds: num('rounds', 1),
    client: clientKind(o.client, 'raw'),
    databaseUrl: String(o['database-url'] ?? 'postgres://postgres@127.0.0.1:5432/test'),
    /** A folder: Accord's server runs with --cpu-prof there (bench/profile-top.ts reads the profile). */
    profile: o.profile as string | undefined,
  };
}
type Options = ReturnType<typeof parseArgs>;

interface Target {
  name: string;
  port: number;
  pid: number;
  auth: string;
  channelId: string;
  stop(): Promise<void>;
}

/** CPU ms (user + system) a process has used, from /proc. */
function cpuMs(pid: number): number {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return NaN;
  }
}

const schemaName = (label: string) => `bench26_${label}_${Date.now()}_${Math.random().toString(36).slice(2, 6)}`;

async function accord(engine: Engine, o: Options): Promise<Target> {
  const pg = engine === 'postgres';
  const schema = pg ? schemaName('accord') : undefined;
  const child = await forkServer({
    dataDir: tmpDataDir('accord26'),
    seed: true,
    rateLimits: false,
    heartbeatIntervalMs: 600_000,
    nodeFlags: o.profile ? ['--cpu-prof', '--cpu-prof-dir', o.profile] : [],
    databaseUrl: pg ? o.databaseUrl : undefined,
    databaseSchema: schema,
  });
  const w = child.info.world!;
  return {
    name: `Accord (${engine})`,
    port: child.info.port,
    pid: child.info.pid,
    auth: `Bot ${w.botToken}`,
    channelId: w.textChannelId,
    async stop() {
      await child.stop();
      if (schema) await dropPg(o.databaseUrl, schema);
    },
  };
}

async function minimal(engine: Engine, o: Options): Promise<Target> {
  const schema = engine === 'postgres' ? schemaName('minimal') : undefined;
  const args = [
    '--import',
    'tsx',
    path.join(BENCH_DIR, 'minimal-server.ts'),
    ...(schema ? ['--pg', o.databaseUrl, '--pg-schema', schema] : ['--db', path.join(tmpDataDir('minimal26'), 'm.db')]),
  ];
  const proc: ChildProcess = spawn(process.execPath, args, { cwd: SERVER_DIR, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  const port = await new Promise<number>((resolve, reject) => {
    let buf = '';
    proc.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /listening (\d+)/.exec(buf);
      if (m) resolve(Number(m[1]));
    });
    proc.once('exit', (code) => reject(new Error(`minimal server exited (${code})`)));
  });
  return {
    name: `minimal (${engine}${schema ? ', group commit' : ''})`,
    port,
    pid: proc.pid!,
    auth: 'Bot minimal',
    channelId: '1000000000000000003',
    async stop() {
      const exited = new Promise<void>((r) => (proc.exitCode !== null ? r() : proc.once('exit', () => r())));
      try {
        process.kill(-proc.pid!, 'SIGTERM');
      } catch {
        /* gone */
      }
      await exited;
      if (schema) await dropPg(o.databaseUrl, schema);
    },
  };
}

/** C requests in flight: `warmup` seconds, then `duration` seconds measured. */
async function closedLoop(t: Target, o: Options) {
  await pgCheckpoint(o.databaseUrl);
  const client = makeClient(o.client, o.concurrency);
  let measuring = false;
  let done = false;
  let k = 0;
  const lat: number[] = [];
  const statuses = new Map<number, number>();
  const loop = async () => {
    while (!done) {
      const t0 = now();
      let status = 0;
      try {
        status = (
          await client.request(t.port, 'POST', `/api/v10/channels/${t.channelId}/messages`, t.auth, { content: `bench ${k++} lorem ipsum dolor sit amet` })
        ).status;
      } catch {
        /* counted as 0 */
      }
      if (!measuring || done) continue;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (status === 200) lat.push(now() - t0);
    }
  };
  const loops = Array.from({ length: o.concurrency }, loop);
  await sleep(o.warmup * 1000);
  measuring = true;
  const t0 = now();
  const cpu0 = cpuMs(t.pid);
  await sleep(o.duration * 1000);
  done = true;
  const seconds = (now() - t0) / 1000;
  const cpu = cpuMs(t.pid) - cpu0;
  await Promise.all(loops);
  client.destroy();
  const res = {
    target: t.name,
    msgPerSec: round(lat.length / seconds, 0),
    http: summary(lat),
    serverCpuMsPerMsg: round(cpu / Math.max(1, lat.length), 3),
    nonOk: Object.fromEntries([...statuses].filter(([s]) => s !== 200)),
    load: os.loadavg().map((n) => round(n, 2)),
  };
  console.log(
    `  ${t.name}: ${res.msgPerSec} msg/s, p50 ${res.http.p50} ms, p99 ${res.http.p99} ms, server CPU ${res.serverCpuMsPerMsg} ms/msg; non-200 ${JSON.stringify(res.nonOk)}; load ${res.load.join(' ')}`,
  );
  return res;
}

async function measure(make: () => Promise<Target>, o: Options) {
  const t = await make();
  try {
    return await closedLoop(t, o);
  } finally {
    await t.stop();
  }
}

const better = (a: any, b: any) => (!a || b.msgPerSec > a.msgPerSec ? b : a);

export async function main(argv: string[]) {
  const o = parseArgs(argv);
  const started = new Date().toISOString();
  console.log(
    `issue 26: message create, C=${o.concurrency}, no listeners, rate limits off, client ${o.client}; ${o.warmup} s warm-up + ${o.duration} s; engines ${o.engines.join(', ')}; load ${os
      .loadavg()
      .map((n) => round(n, 2))
      .join(' ')}`,
  );
  const results: Record<string, { accord: any; minimal: any }> = {};
  for (const engine of o.engines) {
    let best = { accord: null as any, minimal: null as any };
    for (let r = 0; r < o.rounds; r++) {
      // Alternate which goes first, so a drift of the machine's load weighs on both alike.
      const first = r % 2 === 0 ? 'minimal' : 'accord';
      for (const which of first === 'minimal' ? ['minimal', 'accord'] : ['accord', 'minimal']) {
        const res = await measure(() => (which === 'minimal' ? minimal(engine, o) : accord(engine, o)), o);
        best = which === 'minimal' ? { ...best, minimal: better(best.minimal, res) } : { ...best, accord: better(best.accord, res) };
      }
    }
    results[engine] = best;
  }
  const rows: (string | number)[][] = [['engine', 'server', 'msg/s', 'p50 ms', 'p99 ms', 'CPU ms/msg', 'ratio', 'goal', 'met?']];
  for (const [engine, r] of Object.entries(results) as [Engine, { accord: any; minimal: any }][]) {
    const ratio = r.accord.msgPerSec / Math.max(1, r.minimal.msgPerSec);
    const g = GOALS[engine];
    const met = ratio >= g.ratio && r.accord.http.p99 < g.p99;
    rows.push([engine, r.minimal.target, r.minimal.msgPerSec, r.minimal.http.p50, r.minimal.http.p99, r.minimal.serverCpuMsPerMsg, '', '', '']);
    rows.push([
      engine,
      r.accord.target,
      r.accord.msgPerSec,
      r.accord.http.p50,
      r.accord.http.p99,
      r.accord.serverCpuMsPerMsg,
      `${Math.round(ratio * 100)}%`,
      `>= ${g.ratio * 100}%, p99 < ${g.p99} ms`,
      met ? 'yes' : 'NO',
    ]);
  }
  console.log(`\n${table(rows)}`);
  const file = writeJson(`issue26-${started.replace(/[:.]/g, '-')}.json`, { started, finished: new Date().toISOString(), options: o, results });
  writeJson('issue26-latest.json', { started, options: o, results });
  console.log(`\nraw: ${file}`);
}

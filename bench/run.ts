/**
 * Accord benchmarks (run by hand, never in CI):  npm run bench [-- options]
 *
 *   --only coldstart,memory,throughput,fanout   which benchmarks (default: all)
 *   --duration 10        throughput measuring window, seconds (after --warmup 2)
 *   --concurrency 32     throughput in-flight requests
 *   --fanout 100,500     fan-out listener counts
 *   --rates 20,200       fan-out phases, messages per second (the same sessions serve each phase in turn)
 *   --fanout-seconds 10  fan-out measuring window, seconds (after 1 s of warm-up messages)
 *   --listeners users    fan-out listener identity: users (one user each) or bot (sessions of the bot token)
 *   --sessions 1000      idle sessions for the memory benchmark
 *   --memory-users 500   also measure idle user sessions sharing one guild (0 to skip)
 *   --suite issue16      run the issue-16 suite instead (bench/issue16.ts: each figure beside its limit)
 *   --suite issue26      message create on SQLite and PostgreSQL beside a minimal server on the same engine (bench/issue26.ts)
 *   --profile            always take a CPU profile of the server during a throughput run (an extra run), and
 *                        profile the fan-out servers (their last phase is summarized)
 *
 * The server always runs in a forked child process (bench/server-child.ts); the load generator and gateway
 * clients run in this process. SQLite, on this machine.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  RESULTS_DIR,
  REPO_DIR,
  connectGateway,
  cpuStallUs,
  stallPct,
  connectMany,
  forkServer,
  isMessageCreate,
  makeAgent,
  now,
  removeTmpDirs,
  request,
  round,
  sleep,
  summary,
  table,
  tmpDataDir,
  writeJson,
  type GatewayClient,
} from './lib.js';
import { formatTop, topSelf } from './profile-top.js';
import { coldStart } from './coldstart.js';
import { markerOf } from './frames.mjs';
import type { MemorySample } from './server-child.js';

const INTENTS = { GUILDS: 1, GUILD_MESSAGES: 1 << 9, MESSAGE_CONTENT: 1 << 15 };

const TARGETS = {
  throughputMsgPerSec: 5000,
  throughputP99Ms: 20,
  fanoutListeners: 500,
  fanoutP99Ms: 100,
  idleSessionBytes: 20 * 1024,
  coldStartMs: 1000,
};

// ------------------------------------------------------------------------------------------------ options
function parseArgs(argv: string[]) {
  const opts: Record<string, string | boolean> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) continue;
    const [k, inline] = a.slice(2).split('=', 2);
    if (inline !== undefined) opts[k] = inline;
    else if (argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')) opts[k] = argv[++i];
    else opts[k] = true;
  }
  const num = (k: string, d: number) => (opts[k] === undefined ? d : Number(opts[k]));
  return {
    only: new Set(
      String(opts.only ?? 'coldstart,memory,throughput,fanout')
        .split(',')
        .map((s) => s.trim()),
    ),
    duration: num('duration', 10),
    warmup: num('warmup', 2),
    concurrency: num('concurrency', 32),
    fanout: String(opts.fanout ?? '100,500')
      .split(',')
      .map(Number)
      .filter((n) => n > 0),
    rates: String(opts.rates ?? opts.rate ?? '20,200')
      .split(',')
      .map(Number)
      .filter((n) => n > 0),
    fanoutSeconds: num('fanout-seconds', 10),
    listeners: String(opts.listeners ?? 'users') as 'users' | 'bot',
    sessions: num('sessions', 1000),
    memoryUsers: num('memory-users', 500),
    profile: opts.profile === true || opts.profile === 'true',
  };
}
type Options = ReturnType<typeof parseArgs>;

// ------------------------------------------------------------------------------------------------ idle memory
const PRESENCE_UPDATE = Buffer.from('"t":"PRESENCE_UPDATE"');
const kb = (b: number) => round(b / 1024, 1);

function memDelta(a: MemorySample, b: MemorySample, n: number) {
  return {
    rssPerSessionBytes: Math.round((b.rss - a.rss) / n),
    heapUsedPerSessionBytes: Math.round((b.heapUsed - a.heapUsed) / n),
    externalPerSessionBytes: Math.round((b.external - a.external) / n),
    rssDeltaMB: round((b.rss - a.rss) / 1048576, 1),
    heapUsedDeltaMB: round((b.heapUsed - a.heapUsed) / 1048576, 1),
  };
}

async function idleMemory(k: number, mode: 'bot' | 'users') {
  console.log(
    `\n## idle session memory: ${k} ${mode === 'bot' ? 'bot sessions (GUILDS|GUILD_MESSAGES, seed guild)' : 'user sessions, all members of one guild'}`,
  );
  const srv = await forkServer({ dataDir: tmpDataDir('mem'), seed: true, heartbeatIntervalMs: 600_000 });
  try {
    const world = srv.info.world!;
    const users = mode === 'users' ? ((await srv.call<any>({ cmd: 'users', n: k, guildId: world.guildId })).users as { id: string; token: string }[]) : null;
    const tokenOf = (i: number) => (users ? users[i].token : world.botToken);
    const intents = INTENTS.GUILDS | INTENTS.GUILD_MESSAGES;
    // Warm the code paths (JIT, ws buffers) with a few sessions that are closed again, so the per-session figure
    // is not charged with one-time costs.
    const warm = await connectMany(20, 20, (i) => connectGateway(srv.info.port, tokenOf(i % (users?.length ?? 1)), intents, () => {}, true));
    for (const c of warm) c.close();
    await sleep(500);
    await srv.call({ cmd: 'idle' });
    const before = await srv.call<any>({ cmd: 'mem', gc: true });
    const t0 = now();
    // PRESENCE_UPDATE dispatches the sessions receive while they connect (n²/2 when every member's goes to everyone).
    let presenceUpdates = 0;
    const countPresence = (frame: Buffer) => {
      if (frame.indexOf(PRESENCE_UPDATE) >= 0 && frame.indexOf(PRESENCE_UPDATE) < 48) presenceUpdates++;
    };
    const clients = await connectMany(k, 50, (i) => connectGateway(srv.info.port, tokenOf(i), intents, countPresence, true));
    const connectMs = now() - t0;
    await srv.call({ cmd: 'idle' });
    await sleep(1000);
    const after = await srv.call<any>({ cmd: 'mem', gc: true });
    const d = memDelta(before.usage, after.usage, k);
    const frameBytes = Math.round(clients.reduce((a, c) => a + c.bytes, 0) / k);
    const largestFrame = clients.reduce((a, c) => Math.max(a, c.largest), 0);
    console.log(`sessions open: ${after.sessions} (connections ${after.connections}); opened in ${round(connectMs / 1000, 1)} s`);
    console.log(
      `RSS ${round(before.usage.rss / 1048576, 1)} -> ${round(after.usage.rss / 1048576, 1)} MB: ${kb(d.rssPerSessionBytes)} KB/session; heapUsed ${kb(d.heapUsedPerSessionBytes)} KB/session; external ${kb(d.externalPerSessionBytes)} KB/session`,
    );
    console.log(
      `frames received per session so far (no heartbeat yet, so all of them may sit in its resume buffer): ${kb(frameBytes)} KB; largest frame ${kb(largestFrame)} KB`,
    );
    const builds = after.guildCreateBuilds === null ? null : after.guildCreateBuilds - before.guildCreateBuilds;
    console.log(
      `PRESENCE_UPDATE dispatches received while the ${k} sessions connected: ${presenceUpdates}; GUILD_CREATE bodies serialized: ${builds ?? 'n/a'}`,
    );
    // A real idle client heartbeats (every 41.25 s by default) with the last seq it saw; the server may then drop the
    // frames it acknowledged. Send one heartbeat per session and measure again.
    for (const c of clients) c.heartbeat();
    await sleep(1000);
    await srv.call({ cmd: 'idle' });
    const afterBeat = await srv.call<any>({ cmd: 'mem', gc: true });
    const d2 = memDelta(before.usage, afterBeat.usage, k);
    console.log(`after one heartbeat per session: ${kb(d2.rssPerSessionBytes)} KB RSS/session; heapUsed ${kb(d2.heapUsedPerSessionBytes)} KB/session`);
    for (const c of clients) c.close();
    return {
      mode,
      sessions: k,
      presenceUpdates,
      guildCreateBuilds: builds,
      frameBytesPerSession: frameBytes,
      largestFrameBytes: largestFrame,
      afterOneHeartbeat: { usage: afterBeat.usage, ...d2 },
      sessionsOnServer: after.sessions,
      connectSeconds: round(connectMs / 1000, 2),
      before: before.usage,
      after: after.usage,
      ...d,
    };
  } finally {
    await srv.stop();
  }
}

// ------------------------------------------------------------------------------------------------ throughput
async function throughput(o: Options, profileDir: string | null) {
  console.log(
    `\n## message-create throughput: ${o.concurrency} concurrent, ${o.warmup} s warm-up + ${o.duration} s${profileDir ? ' (server under --cpu-prof)' : ''}`,
  );
  const srv = await forkServer({
    dataDir: tmpDataDir('tp'),
    seed: true,
    rateLimits: false,
    nodeFlags: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  });
  try {
    const world = srv.info.world!;
    const agent = makeAgent(o.concurrency);
    const route = `/api/v10/channels/${world.textChannelId}/messages`;
    const auth = `Bot ${world.botToken}`;
    const probe = await request(agent, srv.info.port, 'POST', route, auth, { content: 'probe' });
    if (probe.status !== 200) {
      console.log(`POST ${route} -> ${probe.status} ${probe.body.slice(0, 200)}: skipped`);
      return { available: false, status: probe.status };
    }
    console.log(
      `server: forked child process (pid ${srv.info.pid}); load generator: this process (pid ${process.pid}), raw http.request, keep-alive agent maxSockets ${o.concurrency}; one bot token, rate limits off`,
    );
    let phase: 'warmup' | 'measure' | 'done' = 'warmup';
    let windowStart = 0;
    let windowEnd = Infinity;
    const latencies: number[] = [];
    const statuses = new Map<number, number>();
    let errors = 0;
    let seq = 0;
    const loop = async () => {
      while (phase !== 'done') {
        const t = now();
        let status = 0;
        try {
          status = (await request(agent, srv.info.port, 'POST', route, auth, { content: `throughput ${seq++} lorem ipsum dolor sit amet` })).status;
        } catch {
          errors++;
        }
        const end = now();
        if (end >= windowStart && end < windowEnd && phase === 'measure') {
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (status === 200) latencies.push(end - t);
        }
      }
    };
    const loops = Array.from({ length: o.concurrency }, loop);
    await sleep(o.warmup * 1000);
    const cpuClient0 = process.cpuUsage();
    const srv0 = await srv.call<any>({ cmd: 'mem', gc: false });
    const stall0 = cpuStallUs();
    windowStart = now();
    phase = 'measure';
    await sleep(o.duration * 1000);
    windowEnd = now();
    const stall1 = cpuStallUs();
    const cpuClient = process.cpuUsage(cpuClient0);
    const srv1 = await srv.call<any>({ cmd: 'mem', gc: false });
    phase = 'done';
    await Promise.all(loops);
    agent.destroy();
    const seconds = (windowEnd - windowStart) / 1000;
    const ok = latencies.length;
    const lat = summary(latencies);
    const serverCpuMs = (srv1.cpu.user - srv0.cpu.user + (srv1.cpu.system - srv0.cpu.system)) / 1000;
    const res = {
      available: true,
      concurrency: o.concurrency,
      seconds: round(seconds, 2),
      ok,
      nonOk: Object.fromEntries([...statuses].filter(([s]) => s !== 200)),
      errors,
      messagesPerSec: round(ok / seconds, 0),
      latencyMs: lat,
      clientCpuPct: round(((cpuClient.user + cpuClient.system) / 1000 / (seconds * 1000)) * 100, 0),
      serverCpuPct: round((serverCpuMs / (seconds * 1000)) * 100, 0),
      serverCpuMsPerMessage: round(serverCpuMs / ok, 3),
      oneCoreCeilingMsgPerSec: round(ok / (serverCpuMs / 1000), 0),
      machineCpuStallPct: stallPct(stall0, stall1, seconds * 1000),
      loadAverage: os.loadavg().map((n) => round(n, 2)),
      serverRssMB: round(srv1.usage.rss / 1048576, 1),
      profileWindowUs: { fromUs: srv0.hrUs as number, toUs: srv1.hrUs as number },
    };
    console.log(
      `${res.messagesPerSec} msg/s (${ok} in ${res.seconds} s), latency p50 ${lat.p50} ms p99 ${lat.p99} ms max ${lat.max} ms; non-200 ${JSON.stringify(res.nonOk)} errors ${errors}`,
    );
    console.log(
      `CPU: server process ${res.serverCpuPct}% of one core (${res.serverCpuMsPerMessage} ms CPU per message, i.e. ~${res.oneCoreCeilingMsgPerSec} msg/s per fully available core), load generator ${res.clientCpuPct}%`,
    );
    console.log(
      `machine contention: some task waited for a CPU ${res.machineCpuStallPct ?? '?'}% of the window (PSI); load average ${res.loadAverage.join(' ')}`,
    );
    return res;
  } finally {
    await srv.stop();
  }
}

async function profileThroughput(o: Options) {
  const dir = tmpDataDir('prof');
  const run = await throughput({ ...o, duration: Math.min(o.duration, 10) }, dir);
  const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) return { run, profile: null };
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const dest = path.join(RESULTS_DIR, `throughput-${stamp()}.cpuprofile`);
  fs.copyFileSync(path.join(dir, file), dest);
  const top = topSelf(dest, 25, (run as any).profileWindowUs);
  console.log(`\nCPU profile of the server during the throughput run's measuring window (${path.relative(REPO_DIR, dest)}), top self time:`);
  console.log(formatTop(top));
  return { run, profile: { file: path.relative(REPO_DIR, dest), ...top } };
}

// ------------------------------------------------------------------------------------------------ fan-out
interface FanoutPhase {
  base: number;
  total: number;
  seen: Uint8Array[];
  recv: Uint32Array;
  lastAt: Float64Array;
  sentAt: Float64Array;
  duplicates: number;
  strays: number;
}

/**
 * M listeners, set up once; then one phase per rate in --rates: messages are sent open-loop at that rate, and for
 * each one we take the time from its HTTP request start until the LAST listener got its MESSAGE_CREATE. Every
 * listener must get every message exactly once (seq numbers checked for gaps too).
 */
async function fanout(o: Options, m: number) {
  console.log(
    `\n## fan-out: ${m} listening ${o.listeners === 'users' ? 'user' : 'bot'} sessions; rates ${o.rates.join(', ')} msg/s, each 1 s warm-up + ${o.fanoutSeconds} s`,
  );
  const profileDir = o.profile ? tmpDataDir('prof') : null;
  const srv = await forkServer({
    dataDir: tmpDataDir('fanout'),
    seed: true,
    rateLimits: false,
    heartbeatIntervalMs: 600_000,
    nodeFlags: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  });
  const out: any = { listeners: m, identity: o.listeners, available: true, phases: [] as any[] };
  try {
    const world = srv.info.world!;
    const agent = makeAgent(64);
    const route = `/api/v10/channels/${world.textChannelId}/messages`;
    const auth = `Bot ${world.botToken}`;
    const probe = await request(agent, srv.info.port, 'POST', route, auth, { content: 'probe' });
    if (probe.status !== 200) {
      console.log(`POST ${route} -> ${probe.status}: skipped`);
      return { available: false, listeners: m, status: probe.status };
    }
    let users: { id: string; token: string }[] | null = null;
    if (o.listeners === 'users') {
      const r = await srv.call<any>({ cmd: 'users', n: m, guildId: world.guildId });
      users = r.users;
      console.log(`created ${m} users and added them to the guild in ${round(r.ms / 1000, 1)} s`);
    }
    let phase: FanoutPhase | null = null;
    let frames = 0;
    let lastFrameAt = now();
    const intents = INTENTS.GUILD_MESSAGES | INTENTS.MESSAGE_CONTENT | (o.listeners === 'users' ? INTENTS.GUILDS : 0);
    const onDispatch = (i: number) => (frame: Buffer, at: number) => {
      frames++;
      lastFrameAt = at;
      if (!phase || !isMessageCreate(frame)) return;
      const k = markerOf(frame) - phase.base;
      if (k < 0 || k >= phase.total) {
        phase.strays++;
        return;
      }
      if (phase.seen[i][k]) {
        phase.duplicates++;
        return;
      }
      phase.seen[i][k] = 1;
      phase.recv[k]++;
      if (at > phase.lastAt[k]) phase.lastAt[k] = at;
    };
    const t0 = now();
    const clients: GatewayClient[] = await connectMany(m, 25, (i) =>
      connectGateway(srv.info.port, users ? users[i].token : world.botToken, intents, onDispatch(i), !!users),
    );
    let closedEarly = 0;
    for (const c of clients)
      c.ws.on('close', () => {
        closedEarly++;
      });
    out.identifySeconds = round((now() - t0) / 1000, 1);
    console.log(`${m} sessions identified in ${out.identifySeconds} s; waiting for setup traffic (presences, GUILD_CREATE) to drain`);
    await srv.call({ cmd: 'idle' });
    while (now() - lastFrameAt < 1000) await sleep(200);
    out.setupFrames = frames;

    let base = 0;
    for (const rate of o.rates) {
      const warmupMsgs = rate; // one second of warm-up messages: delivered and counted, left out of latency figures
      const total = warmupMsgs + rate * o.fanoutSeconds;
      const p: FanoutPhase = (phase = {
        base,
        total,
        seen: Array.from({ length: m }, () => new Uint8Array(total)),
        recv: new Uint32Array(total),
        lastAt: new Float64Array(total),
        sentAt: new Float64Array(total),
        duplicates: 0,
        strays: 0,
      });
      base += total;
      const gapsBefore = clients.reduce((a, c) => a + c.seqGaps, 0);
      const statuses = new Map<number, number>();
      const httpLat: number[] = [];
      const inflight: Promise<void>[] = [];
      const cpu0 = process.cpuUsage();
      const srv0 = await srv.call<any>({ cmd: 'mem', gc: false });
      const stall0 = cpuStallUs();
      const start = now();
      for (let k = 0; k < total; k++) {
        const due = start + (k * 1000) / rate;
        const wait = due - now();
        if (wait > 1) await sleep(wait);
        const sent = (p.sentAt[k] = now());
        inflight.push(
          request(agent, srv.info.port, 'POST', route, auth, { content: `fo:${p.base + k} fan-out benchmark message` }).then(
            (r) => {
              statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
              httpLat.push(now() - sent);
            },
            () => {
              statuses.set(0, (statuses.get(0) ?? 0) + 1);
            },
          ),
        );
      }
      const sendSeconds = (now() - start) / 1000;
      await Promise.all(inflight);
      const expected = m * total;
      const deadline = now() + 120_000;
      let delivered = 0;
      while (now() < deadline) {
        delivered = p.recv.reduce((a, b) => a + b, 0);
        if (delivered >= expected) break;
        await sleep(20);
      }
      const elapsed = (now() - start) / 1000;
      const stall1 = cpuStallUs();
      const cpu = process.cpuUsage(cpu0);
      const srv1 = await srv.call<any>({ cmd: 'mem', gc: false });
      delivered = p.recv.reduce((a, b) => a + b, 0);
      const lat: number[] = [];
      let incomplete = 0;
      for (let k = warmupMsgs; k < total; k++) {
        if (p.recv[k] === m) lat.push(p.lastAt[k] - p.sentAt[k]);
        else incomplete++;
      }
      const serverCpuMs = (srv1.cpu.user - srv0.cpu.user + (srv1.cpu.system - srv0.cpu.system)) / 1000;
      const res = {
        ratePerSec: rate,
        messages: total,
        measuredMessages: total - warmupMsgs,
        sendSeconds: round(sendSeconds, 2),
        achievedRatePerSec: round(total / sendSeconds, 0),
        expectedDeliveries: expected,
        delivered,
        lost: expected - delivered,
        duplicates: p.duplicates,
        strays: p.strays,
        seqGaps: clients.reduce((a, c) => a + c.seqGaps, 0) - gapsBefore,
        sessionsClosedEarly: closedEarly,
        incompleteMessages: incomplete,
        httpStatus: Object.fromEntries(statuses),
        deliveryLatencyMs: summary(lat),
        httpLatencyMs: summary(httpLat),
        secondsUntilAllDelivered: round(elapsed, 2),
        deliveriesPerSec: round(delivered / elapsed, 0),
        clientCpuPct: round(((cpu.user + cpu.system) / 1000 / (elapsed * 1000)) * 100, 0),
        serverCpuPct: round((serverCpuMs / (elapsed * 1000)) * 100, 0),
        serverCpuMsPerMessage: round(serverCpuMs / total, 3),
        serverCpuUsPerDelivery: round((serverCpuMs * 1000) / Math.max(1, delivered), 1),
        machineCpuStallPct: stallPct(stall0, stall1, elapsed * 1000),
        loadAverage: os.loadavg().map((n) => round(n, 2)),
        profileWindowUs: { fromUs: srv0.hrUs as number, toUs: srv1.hrUs as number },
      };
      out.phases.push(res);
      console.log(
        `@ ${rate} msg/s (${total} messages): delivered ${delivered}/${expected} (lost ${res.lost}, duplicates ${res.duplicates}, seq gaps ${res.seqGaps}, sessions closed ${closedEarly}); HTTP ${JSON.stringify(res.httpStatus)}`,
      );
      console.log(
        `  last-listener delivery p50 ${res.deliveryLatencyMs.p50} ms p99 ${res.deliveryLatencyMs.p99} ms max ${res.deliveryLatencyMs.max} ms; HTTP p50 ${res.httpLatencyMs.p50} ms p99 ${res.httpLatencyMs.p99} ms; all delivered after ${res.secondsUntilAllDelivered} s`,
      );
      console.log(
        `  CPU: server ${res.serverCpuPct}% of one core (${res.serverCpuMsPerMessage} ms per message, ${res.serverCpuUsPerDelivery} µs per delivery), clients+sender ${res.clientCpuPct}%; machine CPU stall ${res.machineCpuStallPct ?? '?'}%`,
      );
      phase = null;
      await sleep(500);
    }
    for (const c of clients) c.ws.removeAllListeners('close');
    for (const c of clients) c.close();
    agent.destroy();
  } finally {
    await srv.stop();
  }
  if (profileDir) {
    const file = fs.readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile'));
    const last = out.phases[out.phases.length - 1];
    if (file && last) {
      fs.mkdirSync(RESULTS_DIR, { recursive: true });
      const dest = path.join(RESULTS_DIR, `fanout-${m}-${stamp()}.cpuprofile`);
      fs.copyFileSync(path.join(profileDir, file), dest);
      const top = topSelf(dest, 20, last.profileWindowUs);
      console.log(`\nCPU profile of the server during the ${last.ratePerSec} msg/s phase (${path.relative(REPO_DIR, dest)}), top self time:`);
      console.log(formatTop(top));
      out.profile = { file: path.relative(REPO_DIR, dest), ...top };
    }
  }
  return out;
}

// ------------------------------------------------------------------------------------------------ main
function gitInfo() {
  const run = (args: string[]) => {
    try {
      return execFileSync('git', args, { cwd: REPO_DIR, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return null;
    }
  };
  const status = run(['status', '--porcelain', '--', 'packages']);
  return { head: run(['rev-parse', '--short', 'HEAD']), uncommittedServerChanges: status === null ? null : status.split('\n').filter(Boolean).length };
}

function stamp() {
  return new Date().toISOString().replace(/[:.]/g, '-');
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const results: Record<string, any> = {
    date: new Date().toISOString(),
    loadAverageAtStart: os.loadavg().map((n) => round(n, 2)),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      memGB: round(os.totalmem() / 2 ** 30, 1),
      node: process.version,
      platform: `${os.platform()} ${os.release()}`,
    },
    store: 'sqlite',
    git: gitInfo(),
    processes: 'server in a forked child process (node --import tsx --expose-gc); load generator and gateway clients in the parent process',
    options: { ...o, only: [...o.only] },
    targets: TARGETS,
  };
  console.log(`accord bench: node ${process.version}, ${results.machine.cpus} cores (${results.machine.cpuModel}), SQLite; ${results.processes}`);
  console.log(
    `code: git ${results.git.head} with ${results.git.uncommittedServerChanges ?? '?'} uncommitted paths under packages/; load average ${results.loadAverageAtStart.join(' ')}`,
  );
  if (o.only.has('coldstart')) results.coldStart = await coldStart();
  if (o.only.has('memory')) {
    results.idleMemory = [await idleMemory(o.sessions, 'bot')];
    if (o.memoryUsers > 0) results.idleMemory.push(await idleMemory(o.memoryUsers, 'users'));
  }
  if (o.only.has('throughput')) {
    results.throughput = await throughput(o, null);
    const missed =
      results.throughput.available &&
      (results.throughput.messagesPerSec < TARGETS.throughputMsgPerSec || results.throughput.latencyMs.p99 >= TARGETS.throughputP99Ms);
    if (results.throughput.available && (missed || o.profile)) results.throughputProfile = await profileThroughput(o);
  }
  if (o.only.has('fanout')) {
    results.fanout = [];
    for (const m of o.fanout) results.fanout.push(await fanout(o, m));
  }

  const rows: (string | number)[][] = [['benchmark', 'measured', 'target', 'met']];
  const yes = (b: boolean) => (b ? 'yes' : 'NO');
  if (results.coldStart) {
    const c = results.coldStart;
    rows.push([
      'cold start: spawn node → first GET /gateway (fresh dir, median)',
      `${c.spawnNodeFreshDirMs.p50} ms`,
      '< 1000 ms',
      yes(c.spawnNodeFreshDirMs.p50 < TARGETS.coldStartMs),
    ]);
    rows.push([
      'cold start: spawn node (existing dir, median)',
      `${c.spawnNodeExistingDirMs.p50} ms`,
      '< 1000 ms',
      yes(c.spawnNodeExistingDirMs.p50 < TARGETS.coldStartMs),
    ]);
    rows.push(['cold start: npm start (median)', `${c.spawnNpmStartMs.p50} ms`, '(info)', '']);
    if (c.spawnNodeBundleMs)
      rows.push([
        'cold start: node dist/accord.js start, what npm start runs after its build (median)',
        `${c.spawnNodeBundleMs.p50} ms`,
        '< 1000 ms',
        yes(c.spawnNodeBundleMs.p50 < TARGETS.coldStartMs),
      ]);
    rows.push([
      'cold start: in-process startServer() (median)',
      `${c.inProcessStartServerMs.p50} ms`,
      '< 1000 ms',
      yes(c.inProcessStartServerMs.p50 < TARGETS.coldStartMs),
    ]);
  }
  for (const mres of results.idleMemory ?? []) {
    rows.push([
      `idle memory: ${mres.sessions} ${mres.mode} sessions, RSS/session`,
      `${kb(mres.rssPerSessionBytes)} KB`,
      '≤ 20 KB',
      yes(mres.rssPerSessionBytes <= TARGETS.idleSessionBytes),
    ]);
    rows.push([`idle memory: ${mres.sessions} ${mres.mode} sessions, heap/session`, `${kb(mres.heapUsedPerSessionBytes)} KB`, '(info)', '']);
    rows.push([
      `idle memory: ${mres.sessions} ${mres.mode} sessions, after 1 heartbeat: RSS / heap per session`,
      `${kb(mres.afterOneHeartbeat.rssPerSessionBytes)} / ${kb(mres.afterOneHeartbeat.heapUsedPerSessionBytes)} KB`,
      '≤ 20 KB',
      yes(mres.afterOneHeartbeat.rssPerSessionBytes <= TARGETS.idleSessionBytes),
    ]);
  }
  if (results.throughput?.available) {
    const t = results.throughput;
    rows.push([
      `throughput: POST messages, ${t.concurrency} concurrent`,
      `${t.messagesPerSec} msg/s`,
      '≥ 5000 msg/s',
      yes(t.messagesPerSec >= TARGETS.throughputMsgPerSec),
    ]);
    rows.push([
      'throughput: HTTP latency p50 / p99',
      `${t.latencyMs.p50} / ${t.latencyMs.p99} ms`,
      'p99 < 20 ms',
      yes(t.latencyMs.p99 < TARGETS.throughputP99Ms),
    ]);
    rows.push(['throughput: server CPU per message (→ msg/s per free core)', `${t.serverCpuMsPerMessage} ms (→ ${t.oneCoreCeilingMsgPerSec}/s)`, '(info)', '']);
    rows.push(['throughput: machine CPU stall during the window (PSI)', `${t.machineCpuStallPct ?? '?'}%`, '(info: 0% = quiet)', '']);
  } else if (results.throughput) rows.push(['throughput', `POST messages unavailable (${results.throughput.status})`, '', '']);
  for (const f of results.fanout ?? []) {
    if (!f.available) {
      rows.push([`fan-out ${f.listeners}`, `unavailable (${f.status})`, '', '']);
      continue;
    }
    for (const ph of f.phases) {
      rows.push([
        `fan-out: ${f.listeners} listeners @ ${ph.ratePerSec}/s, delivered`,
        `${ph.delivered}/${ph.expectedDeliveries} (lost ${ph.lost})`,
        'all',
        yes(ph.lost === 0 && ph.duplicates === 0 && ph.seqGaps === 0),
      ]);
      rows.push([
        `fan-out: ${f.listeners} listeners @ ${ph.ratePerSec}/s, last-listener p50 / p99`,
        `${ph.deliveryLatencyMs.p50} / ${ph.deliveryLatencyMs.p99} ms`,
        'p99 < 100 ms',
        yes(ph.deliveryLatencyMs.p99 < TARGETS.fanoutP99Ms),
      ]);
      rows.push([
        `fan-out: ${f.listeners} listeners @ ${ph.ratePerSec}/s, server CPU, machine stall`,
        `${ph.serverCpuUsPerDelivery} µs/delivery, ${ph.machineCpuStallPct ?? '?'}% stall`,
        '(info)',
        '',
      ]);
    }
  }
  console.log('\n' + table(rows));
  const file = writeJson(`bench-${stamp()}.json`, results);
  writeJson('latest.json', results);
  console.log(`\nraw results: ${path.relative(REPO_DIR, file)} (and bench/results/latest.json)`);
}

// `--suite issue16` runs the issue-16 suite (bench/issue16.ts) instead: every figure beside its limit, same run.
const suiteAt = process.argv.indexOf('--suite');
const suite = suiteAt >= 0 ? process.argv[suiteAt + 1] : null;
const entry =
  suite === 'issue16'
    ? import('./issue16.js').then((m) => m.main(process.argv.slice(2)))
    : suite === 'issue26'
      ? import('./issue26.js').then((m) => m.main(process.argv.slice(2)))
      : suite
        ? Promise.reject(new Error(`unknown suite: ${suite}`))
        : main();
entry.then(
  () => {
    removeTmpDirs();
    process.exit(0);
  },
  (err) => {
    console.error(err);
    removeTmpDirs();
    process.exit(1);
  },
);

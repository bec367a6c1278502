/**
 * Issue 24: how many browser (WebRTC) participants one voice process forwards at under 5% packet loss and under 50 ms
 * added latency. Run by hand, never in CI (bench/README.md, "Issue 24: browser participants per voice process"):
 *
 *   npm run bench:webrtc -- [--layouts single,5] [--steps 2,4,8,12,16,24,32,48,64] [--room-steps 10,20,30,40,60,80,100]
 *                           [--seconds 10] [--warmup 3] [--threads 2] [--size 120] [--max-loss 5] [--max-p99 50]
 *
 * For each N, a fresh server in a forked child (bench/server-child.ts, DAVE off) gets N users; N simulated browsers
 * (bench/voice/webrtc-participant.ts: werift, the web client's SDP code) spread over load threads join one voice
 * channel (`single`) or rooms of k (`5`), each sending a 20 ms frame (50 packets/s) that carries its sender, number
 * and send time, and receiving everyone else's in its room. Per receiver: loss (expected − received, from the
 * numbers) and the one-way delay beyond the smallest of each sender-receiver pair (the added latency). N steps up
 * until loss ≥ 5% or p99 added latency ≥ 50 ms; the largest N that passes is the figure.
 */
import os from 'node:os';
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { forkServer, makeAgent, percentile, removeTmpDirs, request, round, table, tmpDataDir, writeJson, type ServerChild } from '../lib.js';
import { monoNs, type ParticipantSpec } from './webrtc-participant.js';
import type { ReceiverReport, RunReport, WorkerCommand } from './webrtc-worker.js';
import type { ChildReply } from '../server-child.js';

function arg(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : def;
}
const list = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
const LAYOUTS = list(arg('layouts', 'single,5'));
const STEPS = list(arg('steps', '2,4,8,12,16,24,32,48,64')).map(Number);
const ROOM_STEPS = list(arg('room-steps', '10,20,30,40,60,80,100')).map(Number);
const SECONDS = Number(arg('seconds', '10'));
const WARMUP = Number(arg('warmup', '3'));
const DRAIN_MS = Number(arg('drain-ms', '1000'));
const THREADS = Number(arg('threads', '2'));
const SIZE = Number(arg('size', '120'));
const MAX_LOSS = Number(arg('max-loss', '5'));
const MAX_P99 = Number(arg('max-p99', '50'));
/** Joins at once per load thread. More than one per thread left some links dead on a loaded machine (DTLS up, no media). */
const JOIN_CONCURRENCY = Number(arg('join-concurrency', '1'));
const JOIN_TIMEOUT_MS = Number(arg('join-timeout', '60000'));
const FRAME_MS = 20;
/** Rounds of joining dead links again before a step gives up. */
const MAX_REJOINS = 3;

const load = () => os.loadavg().map((n) => round(n, 2));
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
type VoiceSample = Extract<ChildReply, { type: 'voice' }> & { at: number };
const voiceSample = async (srv: ServerChild): Promise<VoiceSample> => ({ ...(await srv.call<VoiceSample>({ cmd: 'voice' })), at: performance.now() });

/** The media plane's worker entry registers tsx in the thread, then loads the TypeScript entry. */
const TS_BOOT = new URL('../../packages/server/src/voice/media/boot.mjs', import.meta.url);
const WORKER = new URL('./webrtc-worker.ts', import.meta.url).href;

/** The load threads, each answering one command at a time. */
class Threads {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  readonly workers: Worker[];

  constructor(n: number) {
    this.workers = Array.from({ length: Math.max(1, n) }, () => new Worker(TS_BOOT, { workerData: { entry: WORKER } }));
    for (const w of this.workers) {
      w.on('message', (m: any) => {
        const p = this.pending.get(m.id);
        this.pending.delete(m.id);
        if (m.error) p?.reject(new Error(`load thread: ${m.error}`));
        else p?.resolve(m);
      });
      w.on('error', (e) => {
        for (const p of this.pending.values()) p.reject(e);
        this.pending.clear();
      });
    }
  }

  ask<T>(w: Worker, c: WorkerCommand): Promise<T> {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject });
      w.postMessage({ ...c, id });
    });
  }

  async terminate(): Promise<void> {
    await Promise.all(this.workers.map((w) => this.ask(w, { cmd: 'close' }).catch(() => {})));
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

interface StepResult {
  layout: string;
  n: number;
  rooms: number;
  ok: boolean;
  why: string;
  expected?: number;
  received?: number;
  duplicates?: number;
  lossPct?: number;
  worstLossPct?: number;
  addedP50?: number;
  addedP99?: number;
  worstP99?: number;
  minDelayMs?: number;
  silent?: number;
  serverCpuPct?: number;
  /**
   * The server's threads over the window: main thread (voice gateway, WebRTC bridges) and media worker (SFU) event-loop
   * busy %, and the SFU's packets in and out per second (expected: 50·N in, 50·N·(room − 1) out) and drops.
   */
  server?: { mainBusyPct: number; mediaBusyPct: number; sfuInPerSec: number; sfuOutPerSec: number; sfuDropped: number };
  threadElu?: number[];
  sendLateP99?: number;
  joinMs?: number;
  /** Participants that joined again because their first link carried no media. */
  rejoined?: number;
  load: { start: number[]; end: number[] };
}

/** Voice channels for rooms of `k` (the seeded one first); one room of everyone for `single`. */
async function roomChannels(srv: ServerChild, n: number, k: number | null): Promise<string[]> {
  const world = srv.info.world!;
  const rooms = k ? Math.ceil(n / k) : 1;
  const ids = [world.voiceChannelId];
  const agent = makeAgent(1);
  for (let i = 1; i < rooms; i++) {
    const res = await request(agent, srv.info.port, 'POST', `/api/v10/guilds/${world.guildId}/channels`, `Bot ${world.botToken}`, {
      name: `bench-${i}`,
      type: 2,
    });
    if (res.status !== 201 && res.status !== 200) throw new Error(`creating a voice channel: ${res.status} ${res.body}`);
    ids.push(JSON.parse(res.body).id);
  }
  agent.destroy();
  return ids;
}

async function step(layout: string, n: number): Promise<StepResult> {
  const k = layout === 'single' ? null : Number(layout);
  const loadStart = load();
  const srv = await forkServer({ dataDir: tmpDataDir('webrtc'), seed: true, voiceDave: 'off' });
  const threads = new Threads(Math.min(THREADS, n));
  const base = { layout, n, rooms: k ? Math.ceil(n / k) : 1 };
  try {
    const world = srv.info.world!;
    const voice = srv.info.voice;
    if (!voice?.caPath) throw new Error('the server child runs no voice gateway with a local CA');
    const { users } = await srv.call<{ users: { id: string; token: string }[] }>({ cmd: 'users', n, guildId: world.guildId });
    const channels = await roomChannels(srv, n, k);
    const specs: ParticipantSpec[] = users.map((u, index) => {
      const room = k ? Math.floor(index / k) : 0;
      const roomSize = k ? Math.min(k, n - room * k) : n;
      return { index, userId: u.id, token: u.token, guildId: world.guildId, channelId: channels[room], roomSize };
    });
    const server = { gatewayPort: srv.info.port, ca: fs.readFileSync(voice.caPath, 'utf8') };
    const join = (list: ParticipantSpec[]) =>
      Promise.all(
        threads.workers.map((w, t) =>
          threads.ask<{ ms: number }>(w, {
            cmd: 'join',
            specs: list.filter((s) => s.index % threads.workers.length === t),
            server,
            payloadBytes: SIZE,
            timeoutMs: JOIN_TIMEOUT_MS,
            concurrency: JOIN_CONCURRENCY,
          }),
        ),
      );
    const joinMs = Math.max(...(await join(specs)).map((j) => j.ms));
    // A link can come up dead (DTLS connected on the participant, no media either way): a second of frames finds who
    // heard no one and was heard by no one, and those join again.
    let rejoined = 0;
    for (let round = 0; ; round++) {
      const startNs = monoNs() + 200_000_000n;
      const phaseMs = specs.map((s) => (s.index * FRAME_MS) / n);
      const check = { cmd: 'run', startNs: String(startNs), frames: 50, frameMs: FRAME_MS, window: { from: 0, to: 50 }, phaseMs, drainMs: 500 } as const;
      const heard = (await Promise.all(threads.workers.map((w) => threads.ask<RunReport>(w, check)))).flatMap((r) => r.receivers);
      const heardBy = new Set(heard.flatMap((r) => r.heard));
      const dead = specs.filter((s) => s.roomSize > 1 && !heardBy.has(s.index) && !heard.find((r) => r.index === s.index)?.heard.length);
      if (!dead.length) break;
      if (round === MAX_REJOINS) throw new Error(`${dead.length} participants still without media after ${MAX_REJOINS} rejoins`);
      rejoined += dead.length;
      await join(dead);
    }

    const frames = (WARMUP + SECONDS) * (1000 / FRAME_MS);
    const window = { from: WARMUP * (1000 / FRAME_MS), to: frames };
    const startNs = monoNs() + 300_000_000n;
    const phaseMs = specs.map((s) => (s.index * FRAME_MS) / n);
    const running = Promise.all(
      threads.workers.map((w) =>
        threads.ask<RunReport>(w, { cmd: 'run', startNs: String(startNs), frames, frameMs: FRAME_MS, window, phaseMs, drainMs: DRAIN_MS }),
      ),
    );
    // The server's CPU over the measuring window (its process: main thread, media worker, everything).
    const msUntil = (ns: bigint) => Math.max(0, Number(ns - monoNs()) / 1e6);
    await sleep(msUntil(startNs + BigInt(WARMUP * 1e9)));
    const v0 = await voiceSample(srv);
    await sleep(msUntil(startNs + BigInt((WARMUP + SECONDS) * 1e9)));
    const v1 = await voiceSample(srv);
    const wall = v1.at - v0.at;
    const serverCpuPct = round(((v1.cpu.user + v1.cpu.system - v0.cpu.user - v0.cpu.system) / 1000 / wall) * 100, 1);
    const serverThreads = {
      mainBusyPct: round(((v1.mainBusyMs - v0.mainBusyMs) / wall) * 100, 0),
      mediaBusyPct: round(((v1.media.busyMs - v0.media.busyMs) / wall) * 100, 0),
      sfuInPerSec: round(((v1.media.received - v0.media.received) / wall) * 1000, 0),
      sfuOutPerSec: round(((v1.media.forwarded - v0.media.forwarded) / wall) * 1000, 0),
      sfuDropped: v1.media.dropped - v0.media.dropped,
    };
    const reports = await running;
    return {
      ...base,
      ...figures(reports.flatMap((r) => r.receivers)),
      serverCpuPct,
      server: serverThreads,
      threadElu: reports.map((r) => round(r.elu, 2)),
      sendLateP99: round(Math.max(...reports.map((r) => r.sendLateP99))),
      joinMs: round(joinMs, 0),
      rejoined,
      load: { start: loadStart, end: load() },
    };
  } catch (e) {
    return { ...base, ok: false, why: `failed: ${e instanceof Error ? e.message : String(e)}`, load: { start: loadStart, end: load() } };
  } finally {
    await threads.terminate();
    await srv.stop();
  }
}

/** Loss and added latency over every receiver, and of the worst one; pass or fail against the limits. */
function figures(receivers: ReceiverReport[]) {
  const expected = receivers.reduce((a, r) => a + r.expected, 0);
  const received = receivers.reduce((a, r) => a + r.received, 0);
  const added = new Float64Array(receivers.reduce((a, r) => a + r.added.length, 0));
  let at = 0;
  for (const r of receivers) {
    added.set(r.added, at);
    at += r.added.length;
  }
  const values = Array.from(added);
  const lossPct = round(((expected - received) / Math.max(1, expected)) * 100, 2);
  const addedP99 = round(percentile(values, 99));
  const worstLossPct = round(Math.max(...receivers.map((r) => ((r.expected - r.received) / Math.max(1, r.expected)) * 100)), 2);
  const worstP99 = round(Math.max(...receivers.map((r) => (r.added.length ? percentile(Array.from(r.added), 99) : Infinity))));
  const ok = lossPct < MAX_LOSS && addedP99 < MAX_P99;
  const why = ok
    ? 'pass'
    : [lossPct >= MAX_LOSS ? `loss ${lossPct}% ≥ ${MAX_LOSS}%` : '', addedP99 >= MAX_P99 ? `p99 ${addedP99} ms ≥ ${MAX_P99} ms` : '']
        .filter(Boolean)
        .join(', ');
  return {
    ok,
    why,
    expected,
    received,
    duplicates: receivers.reduce((a, r) => a + r.duplicates, 0),
    lossPct,
    worstLossPct,
    addedP50: round(percentile(values, 50)),
    addedP99,
    worstP99,
    minDelayMs: round(Math.min(...receivers.map((r) => r.minDelay)), 3),
    /** Receivers that got nothing at all in the window (a dead link rather than an overloaded forwarder). */
    silent: receivers.filter((r) => r.expected > 0 && r.received === 0).length,
  };
}

async function main() {
  const started = new Date().toISOString();
  const loadAtStart = load();
  console.log(
    `WebRTC voice bench: layouts ${LAYOUTS.join(', ')}; ${WARMUP} s warm-up + ${SECONDS} s measured; ${THREADS} load threads; ${SIZE}-byte payloads; ` +
      `limits: loss < ${MAX_LOSS}%, p99 added < ${MAX_P99} ms; load average ${loadAtStart.join(' ')}; ${os.cpus().length} cores`,
  );
  const results: StepResult[] = [];
  const best: Record<string, number | null> = {};
  for (const layout of LAYOUTS) {
    best[layout] = null;
    for (const n of layout === 'single' ? STEPS : ROOM_STEPS) {
      const r = await step(layout, n);
      results.push(r);
      console.log(
        `  ${layout === 'single' ? 'one room' : `rooms of ${layout}`}, N=${n}: ${r.why}` +
          (r.expected !== undefined ? `; loss ${r.lossPct}%, added p50 ${r.addedP50} / p99 ${r.addedP99} ms, server CPU ${r.serverCpuPct}%` : ''),
      );
      if (!r.ok) break;
      best[layout] = n;
    }
  }
  const loadAtEnd = load();
  const rows: (string | number)[][] = [
    [
      'layout',
      'N',
      'rooms',
      'loss %',
      'worst rx loss %',
      'added p50 ms',
      'added p99 ms',
      'worst rx p99 ms',
      'silent rx',
      'rejoined',
      'server CPU %',
      'main / SFU thread busy',
      'SFU in / out per s',
      'load threads busy',
      'send late p99 ms',
      'load avg start → end',
      'result',
    ],
  ];
  for (const r of results)
    rows.push([
      r.layout === 'single' ? 'one room' : `rooms of ${r.layout}`,
      r.n,
      r.rooms,
      r.lossPct ?? '',
      r.worstLossPct ?? '',
      r.addedP50 ?? '',
      r.addedP99 ?? '',
      r.worstP99 ?? '',
      r.silent ?? '',
      r.rejoined ?? '',
      r.serverCpuPct ?? '',
      r.server ? `${r.server.mainBusyPct}% / ${r.server.mediaBusyPct}%` : '',
      r.server ? `${r.server.sfuInPerSec} / ${r.server.sfuOutPerSec}` : '',
      r.threadElu?.map((e) => `${Math.round(e * 100)}%`).join(' ') ?? '',
      r.sendLateP99 ?? '',
      `${r.load.start[0]} → ${r.load.end[0]}`,
      r.ok ? 'pass' : r.why,
    ]);
  console.log(`\n${table(rows)}\n`);
  for (const layout of LAYOUTS)
    console.log(
      `largest N that passes, ${layout === 'single' ? 'one room of N' : `rooms of ${layout}`}: ${best[layout] ?? 'none'}` +
        (results.filter((r) => r.layout === layout).every((r) => r.ok) ? ' (every step passed: try larger steps)' : ''),
    );
  console.log(`load average at start ${loadAtStart.join(' ')}, at end ${loadAtEnd.join(' ')}`);
  const out = {
    started,
    node: process.version,
    cores: os.cpus().length,
    options: { LAYOUTS, STEPS, ROOM_STEPS, SECONDS, WARMUP, DRAIN_MS, THREADS, SIZE, MAX_LOSS, MAX_P99 },
    loadAtStart,
    loadAtEnd,
    best,
    results,
  };
  writeJson(`voice-webrtc-${started.replace(/[:.]/g, '-')}.json`, out);
  console.log(`results: ${writeJson('voice-webrtc-latest.json', out)}`);
  removeTmpDirs();
}

main().catch((e) => {
  console.error(e);
  removeTmpDirs();
  process.exit(1);
});

/**
 * The server under test, in its own process (forked by bench/lib.ts with --import tsx --expose-gc). It runs
 * `startServer()`, seeds a dev world, and answers IPC requests: create users, report memory, wait for the
 * dispatcher to drain, stop. Keeping the server in its own process means its RSS is its own and the load
 * generator gets the other core.
 */
import type { RunningServer } from '../packages/server/src/server.js';
import type { SeedWorld } from '../packages/server/src/dev/seed.js';

export interface StartOptions {
  dataDir: string;
  rateLimits?: boolean;
  heartbeatIntervalMs?: number;
  databaseUrl?: string;
  /** PostgreSQL schema of this run (created if missing; the parent drops it). */
  databaseSchema?: string;
  /** Create the dev world (users, guild, bot) after start. */
  seed?: boolean;
  /** The voice server's DAVE policy (`--voice-dave`: auto, required, optional, off). */
  voiceDave?: string;
}

export type ChildRequest =
  | { cmd: 'start'; options: StartOptions }
  | { cmd: 'users'; n: number; guildId: string | null }
  | { cmd: 'mem'; gc: boolean }
  | { cmd: 'idle' }
  | { cmd: 'voice' }
  | { cmd: 'stop' };

export interface MemorySample {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

export type ChildReply =
  | {
      type: 'started';
      port: number;
      url: string;
      importMs: number;
      startMs: number;
      seedMs: number;
      world: SeedWorld | null;
      pid: number;
      /** The voice gateway's host:port and the local CA its certificate chains to (null: no voice server). */
      voice: { endpoint: string; caPath: string | null } | null;
    }
  | { type: 'users'; users: { id: string; token: string }[]; ms: number }
  | { type: 'mem'; usage: MemorySample; cpu: NodeJS.CpuUsage; sessions: number; connections: number; hrUs: number; guildCreateBuilds: number | null }
  | { type: 'idle' }
  | {
      type: 'voice';
      /** The media plane's counters, summed over its worker threads (received, forwarded, dropped, busy ms). */
      media: { received: number; forwarded: number; dropped: number; busyMs: number };
      /** Event-loop time of the main thread so far (where the voice gateway and the WebRTC bridges run), ms. */
      mainBusyMs: number;
      cpu: NodeJS.CpuUsage;
    }
  | { type: 'stopped' }
  | { type: 'error'; message: string };

let server: RunningServer | null = null;

function reply(id: number, msg: ChildReply) {
  process.send!({ ...msg, id });
}

async function gcHard() {
  const gc = (globalThis as any).gc as (() => void) | undefined;
  if (!gc) return;
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((r) => setImmediate(r));
  }
}

async function handle(req: ChildRequest & { id: number }) {
  switch (req.cmd) {
    case 'start': {
      const t0 = performance.now();
      const { startServer } = await import('../packages/server/src/server.js');
      const { seedWorld } = await import('../packages/server/src/dev/seed.js');
      const t1 = performance.now();
      server = await startServer({
        host: '127.0.0.1',
        port: 0,
        dataDir: req.options.dataDir,
        databaseUrl: req.options.databaseUrl || undefined,
        databaseSchema: req.options.databaseSchema || undefined,
        rateLimits: req.options.rateLimits ?? false,
        heartbeatIntervalMs: req.options.heartbeatIntervalMs ?? 600_000,
        logLevel: 'silent',
        dev: false,
        seed: false,
        gatewayConnectionsPerIp: 1_000_000, // every bench client is on 127.0.0.1
        ...(req.options.voiceDave ? { voiceDave: req.options.voiceDave } : {}),
      });
      const t2 = performance.now();
      const world = req.options.seed ? await seedWorld(server.ctx) : null;
      const t3 = performance.now();
      return reply(req.id, {
        type: 'started',
        port: server.port,
        url: server.url,
        importMs: t1 - t0,
        startMs: t2 - t1,
        seedMs: t3 - t2,
        world,
        pid: process.pid,
        voice: voiceInfo(server),
      });
    }
    case 'users': {
      // Users are created through the services (no scrypt hashing: they never log in with a password) and
      // added to the guild before any session opens, so no GUILD_MEMBER_ADD fan-out happens during setup.
      const t0 = performance.now();
      const { createUser } = await import('../packages/server/src/services/identity/users.js');
      const { issueToken } = await import('../packages/server/src/services/identity/tokens.js');
      const { addMember } = await import('../packages/server/src/services/guilds/membership.js');
      const ctx = server!.ctx;
      const users: { id: string; token: string }[] = [];
      const tag = Math.random().toString(36).slice(2, 7);
      for (let i = 0; i < req.n; i++) {
        const u = await createUser(ctx, { username: `bench_${tag}_${i}`, globalName: `Bench ${i}` });
        const token = await issueToken(ctx, u.id, 'user');
        if (req.guildId) await addMember(ctx, req.guildId, u.id);
        users.push({ id: u.id, token });
      }
      await server!.gateway.dispatcher.idle();
      return reply(req.id, { type: 'users', users, ms: performance.now() - t0 });
    }
    case 'mem': {
      if (req.gc) await gcHard();
      const m = process.memoryUsage();
      return reply(req.id, {
        type: 'mem',
        usage: { rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers },
        cpu: process.cpuUsage(),
        // CLOCK_MONOTONIC in µs: the clock of a .cpuprofile's timestamps, to cut a profile to a window.
        hrUs: Number(process.hrtime.bigint() / 1000n),
        sessions: server?.gateway.sessions.size ?? 0,
        connections: server?.gateway.connections.size ?? 0,
        guildCreateBuilds: server ? await guildCreateBuilds(server.ctx) : null,
      });
    }
    case 'idle':
      await server?.gateway.dispatcher.idle();
      return reply(req.id, { type: 'idle' });
    case 'voice': {
      const stats = await server!.voice.media.stats();
      const sum = (k: 'received' | 'forwarded' | 'dropped' | 'busyMs') => stats.reduce((a, x) => a + (x[k] ?? 0), 0);
      const elu = performance.eventLoopUtilization();
      return reply(req.id, {
        type: 'voice',
        media: { received: sum('received'), forwarded: sum('forwarded'), dropped: sum('dropped'), busyMs: sum('busyMs') },
        mainBusyMs: elu.active,
        cpu: process.cpuUsage(),
      });
    }
    case 'stop':
      await server?.close().catch(() => {});
      reply(req.id, { type: 'stopped' });
      // process.exit lets --cpu-prof write its profile.
      setTimeout(() => process.exit(0), 50);
      return;
  }
}

function voiceInfo(s: RunningServer): { endpoint: string; caPath: string | null } | null {
  try {
    return s.voice.states.endpoint ? { endpoint: s.voice.states.endpoint, caPath: s.voice.tls?.caPath ?? null } : null;
  } catch {
    return null; // a role without a voice server
  }
}

/** GUILD_CREATE bodies serialized so far (null on a tree without the shared GUILD_CREATE cache). */
async function guildCreateBuilds(ctx: object): Promise<number | null> {
  try {
    const { guildCreateCache } = await import('../packages/server/src/gateway/guild-create-cache.js');
    return guildCreateCache(ctx as never).builds;
  } catch {
    return null;
  }
}

process.on('message', (req: ChildRequest & { id: number }) => {
  handle(req).catch((err) => reply(req.id, { type: 'error', message: err instanceof Error ? (err.stack ?? err.message) : String(err) }));
});
process.on('disconnect', () => process.exit(0));

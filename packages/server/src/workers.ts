import cluster from 'node:cluster';
import os from 'node:os';
import type { Config } from './config.js';
import { openStore } from './store/db.js';
import { Repos } from './store/repos/index.js';
import { readSnapshotFile } from './store/snapshot.js';
import { prepareVoiceTls } from './voice/server.js';
import { prepareApiTls } from './http/listener.js';

/**
 * `accord start --workers N`: N processes of this machine serve one port (node:cluster hands each accepted
 * connection to a worker). Each worker is a node of distributed mode, the same code as nodes on separate machines:
 * the Redis bus carries events between them and rate limits are counted in Redis. SQLite is one process's store,
 * so more than one worker needs PostgreSQL (and Redis); writes then go through PostgreSQL's own concurrency.
 */
export function workerCount(cfg: Config): number {
  return cfg.workers === 0 ? os.availableParallelism() : cfg.workers;
}

export function assertWorkersAllowed(cfg: Config, n: number): void {
  if (n > 1 && (!cfg.databaseUrl || !cfg.redisUrl)) {
    throw new Error(`--workers ${n} needs --database-url (PostgreSQL) and --redis-url: SQLite takes writes from one process, so without them run one worker`);
  }
}

/** The index a worker was forked with (0 in a single process). */
export const workerIndex = (): number => (cluster.isWorker ? Number(process.env.ACCORD_WORKER_INDEX ?? 0) : 0);

/**
 * Ports of worker `i`'s own listeners: the API port is shared, but a voice session must reach the worker that
 * handed it its VOICE_SERVER_UPDATE, so each worker's voice gateway and UDP media have ports of their own.
 */
export function workerOverrides(cfg: Config, i: number): Partial<Config> {
  const voiceBase = cfg.voicePort ?? (cfg.port === 0 ? 0 : cfg.port + 1);
  if (voiceBase === 0) return { voicePort: 0, voiceUdpPort: cfg.voiceUdpPort ?? 0 };
  const udpBase = cfg.voiceUdpPort ?? voiceBase; // UDP: the same numbers, stepped by the media threads per worker
  return { voicePort: voiceBase + i, voiceUdpPort: udpBase === 0 ? 0 : udpBase + i * Math.max(1, cfg.voiceWorkers) };
}

/**
 * The primary: migrates the store and creates the voice (and --tls) certificates once (workers would race on both), forks the
 * workers, forks again a worker that dies, and stops them all on SIGINT or SIGTERM.
 */
export async function runPrimary(cfg: Config, n: number): Promise<void> {
  const store = await openStore({ dataDir: cfg.dataDir, databaseUrl: cfg.databaseUrl, databaseSchema: cfg.databaseSchema });
  if (cfg.importFile) await new Repos(store).restore(readSnapshotFile(cfg.importFile));
  await store.close();
  prepareVoiceTls(cfg);
  prepareApiTls(cfg);
  let stopping = false;
  const fork = (i: number) => {
    const w = cluster.fork({ ACCORD_WORKER_INDEX: String(i) });
    w.on('exit', (code, signal) => {
      if (stopping) return;
      console.error(`accord: worker ${i} exited (${signal ?? code}); starting it again`);
      setTimeout(() => fork(i), 1000).unref();
    });
  };
  for (let i = 0; i < n; i++) fork(i);
  console.log(`accord: primary ${process.pid} runs ${n} workers`);
  const stop = () => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w) => w && !w.isDead());
    let left = workers.length;
    if (!left) process.exit(0);
    for (const w of workers) {
      w!.once('exit', () => --left === 0 && process.exit(0));
      w!.process.kill('SIGTERM');
    }
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SETTINGS } from '../../src/config.js';
import type { NetNode } from './topology.js';

const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));
const PORT = 8080;

/** What every node of the run shares: the database and Redis (as reached from the namespaces) and the run's names. */
export interface Deployment {
  databaseUrl: string;
  redisUrl: string;
  schema: string;
  redisPrefix: string;
  heartbeatIntervalMs: number;
}

/** One `accord start` process in its namespace. */
export interface NodeProcess {
  name: string;
  role: 'api' | 'gateway';
  url: string;
  pid: number;
  /** Its output (stdout and stderr), kept to show when something fails. */
  log: string[];
  exited: Promise<number | null>;
  alive(): boolean;
  kill(signal?: NodeJS.Signals): void;
}

/** Whether this tree's `accord start` has `--role` (the roles work): nodes are then started with the role they play. */
export const rolesSupported = SETTINGS.some((s) => s.flag === '--role');

/** Starts a node inside `net`'s namespace and resolves once it is ready (`/readyz`, every role has it) over the bridge. */
export async function startNode(name: string, role: 'api' | 'gateway', net: NetNode, dep: Deployment): Promise<NodeProcess> {
  const url = `http://${net.ip}:${PORT}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `accord-mn-${name}-`));
  const args = [
    'netns',
    'exec',
    net.ns,
    process.execPath,
    '--import',
    'tsx',
    'src/main.ts',
    'start',
    '--host',
    net.ip,
    '--port',
    String(PORT),
    '--public-url',
    url,
    '--data',
    dataDir,
    '--rate-limits',
    'off',
    '--gateway-connections-per-ip',
    '1000000',
    '--heartbeat-interval',
    String(dep.heartbeatIntervalMs),
    ...(rolesSupported ? ['--role', role] : []),
  ];
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    DATABASE_URL: dep.databaseUrl,
    REDIS_URL: dep.redisUrl,
    ACCORD_DATABASE_SCHEMA: dep.schema,
    ACCORD_REDIS_PREFIX: dep.redisPrefix,
  };
  const child: ChildProcess = spawn('ip', args, { cwd: SERVER_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const log: string[] = [];
  const keep = (chunk: Buffer) => {
    log.push(
      ...chunk
        .toString()
        .split('\n')
        .filter(Boolean)
        .map((l) => `[${name}] ${l}`),
    );
    if (log.length > 200) log.splice(0, log.length - 200);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code;
      fs.rmSync(dataDir, { recursive: true, force: true });
      resolve(code);
    }),
  );
  const node: NodeProcess = {
    name,
    role,
    url,
    pid: child.pid!,
    log,
    exited,
    alive: () => exitCode === undefined,
    kill: (signal = 'SIGKILL') => void (exitCode === undefined && child.kill(signal)),
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (!node.alive()) throw new Error(`${name} exited before it answered:\n${log.join('\n')}`);
    const ok = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return node;
    if (Date.now() > deadline) {
      node.kill();
      throw new Error(`${name} did not answer within 120 s:\n${log.join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Cold start: spawn the CLI and time it to its first 200 from GET /api/v10/gateway (used by run.ts and issue16.ts). */
import { execFileSync, spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { REPO_DIR, SERVER_DIR, forkServer, now, round, sleep, summary, tmpDataDir } from './lib.js';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * `--port P` plus a free `--voice-port` (the voice gateway otherwise takes P+1, which may be in use). Servers that do
 * not know the flag ignore it.
 */
export async function portArgs(port: number): Promise<string[]> {
  let voice = await freePort();
  while (voice === port) voice = await freePort();
  return ['--port', String(port), '--voice-port', String(voice)];
}

export function probeGateway(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/api/v10/gateway', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200));
    });
    req.on('error', () => resolve(false));
    req.setTimeout(2000, () => {
      req.destroy();
      resolve(false);
    });
  });
}

/** Spawns a command that starts the server on `port`, and times spawn -> first 200 from GET /api/v10/gateway. */
export async function timeSpawn(cmd: string, args: string[], cwd: string, port: number): Promise<number> {
  const t0 = now();
  const child = spawn(cmd, args, {
    cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
    env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', ACCORD_LOG_LEVEL: 'silent' },
  });
  let stderr = '';
  child.stderr!.on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  let alive = true;
  child.once('exit', () => {
    alive = false;
  });
  try {
    while (alive) {
      if (await probeGateway(port)) return now() - t0;
      if (now() - t0 > 30_000) throw new Error('server did not answer within 30 s');
      await sleep(5);
    }
    throw new Error(`server exited before answering: ${stderr.trim().slice(-500)}`);
  } finally {
    // The child leads its own process group (npm -> sh -> tsx -> node): signal that group only.
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      /* already gone */
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, 5000);
    await exited;
    clearTimeout(timer);
  }
}

export async function coldStart() {
  console.log('\n## cold start');
  const runs = 5;
  const node = { freshDir: [] as number[], existingDir: [] as number[] };
  const existing = tmpDataDir('cold-existing');
  for (let i = 0; i < runs; i++) {
    const port = await freePort();
    node.freshDir.push(
      await timeSpawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'start', ...(await portArgs(port)), '--data', tmpDataDir('cold')], SERVER_DIR, port),
    );
  }
  for (let i = 0; i < runs; i++) {
    const port = await freePort();
    node.existingDir.push(
      await timeSpawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'start', ...(await portArgs(port)), '--data', existing], SERVER_DIR, port),
    );
  }
  const npmRuns: number[] = [];
  for (let i = 0; i < 3; i++) {
    const port = await freePort();
    npmRuns.push(await timeSpawn('npm', ['start', '--silent', '--', ...(await portArgs(port)), '--data', tmpDataDir('cold-npm')], REPO_DIR, port));
  }
  // What `npm start` runs after its build step: the bundle packages/server/scripts/build.mjs writes (dist/accord.js)
  // on plain node. Built once here; a failure is reported, never shown as a figure.
  let bundleRuns: number[] | null = null;
  try {
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: SERVER_DIR, stdio: ['ignore', 'ignore', 'pipe'] });
    const runsOfBundle: number[] = [];
    for (let i = 0; i < runs; i++) {
      const port = await freePort();
      runsOfBundle.push(
        await timeSpawn(
          process.execPath,
          ['--enable-source-maps', 'dist/accord.js', 'start', ...(await portArgs(port)), '--data', tmpDataDir('cold-bundle')],
          SERVER_DIR,
          port,
        ),
      );
    }
    bundleRuns = runsOfBundle;
  } catch (err) {
    console.log(`(node dist/accord.js FAILED: ${err instanceof Error ? err.message.slice(0, 500) : err})`);
  }
  const inProcess: { importMs: number; startMs: number }[] = [];
  for (let i = 0; i < 3; i++) {
    const srv = await forkServer({ dataDir: tmpDataDir('cold-inproc') });
    inProcess.push({ importMs: round(srv.info.importMs), startMs: round(srv.info.startMs) });
    await srv.stop();
  }
  const res = {
    spawnNodeFreshDirMs: summary(node.freshDir),
    spawnNodeExistingDirMs: summary(node.existingDir),
    spawnNpmStartMs: summary(npmRuns),
    spawnNodeBundleMs: bundleRuns ? summary(bundleRuns) : null,
    inProcess,
    inProcessStartServerMs: summary(inProcess.map((r) => r.startMs)),
    inProcessImportMs: summary(inProcess.map((r) => r.importMs)),
    raw: { node, npmRuns, bundleRuns },
  };
  console.log(
    `spawn node --import tsx src/main.ts start (fresh data dir): median ${res.spawnNodeFreshDirMs.p50} ms  max ${res.spawnNodeFreshDirMs.max} ms  (${runs} runs)`,
  );
  console.log(
    `spawn node --import tsx src/main.ts start (existing dir):   median ${res.spawnNodeExistingDirMs.p50} ms  max ${res.spawnNodeExistingDirMs.max} ms`,
  );
  console.log(`spawn npm start (fresh data dir):                          median ${res.spawnNpmStartMs.p50} ms  max ${res.spawnNpmStartMs.max} ms`);
  if (res.spawnNodeBundleMs)
    console.log(`spawn node dist/accord.js start (what npm start runs):      median ${res.spawnNodeBundleMs.p50} ms  max ${res.spawnNodeBundleMs.max} ms`);
  console.log(
    `in-process startServer() (fresh dir, modules loaded):      median ${res.inProcessStartServerMs.p50} ms; module import ${res.inProcessImportMs.p50} ms`,
  );
  return res;
}

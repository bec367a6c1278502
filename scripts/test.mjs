#!/usr/bin/env node
// `npm test`: every package's and example's tests in one `node --test` run, one file at a time (they start real servers).
// ACCORD_TEST_SCOPE=engine runs only the files whose outcome can depend on the storage engine, and
// ACCORD_TEST_SCOPE=distributed those of them that can depend on the bus, Redis or several processes: CI runs the whole
// suite on SQLite, the first set on PostgreSQL and the second in Redis mode. A file opts out of the engine runs with a
// line `// engine-independent: <why>` near its top; every package but the server is engine-independent as a whole.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MARK = /^\/\/ engine-independent: \S/m;
/** What makes a file's outcome depend on the bus or Redis: Gateway sessions, rate limits, several nodes or workers. */
const DISTRIBUTED = /RawGateway|connectGateway|GatewayIntentBits|new Client\(|REDIS_URL|twoNodes|--workers|\.dispatch\(|rate.?limit|retry_after/i;

function testFiles(dir, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'helpers' || e.name === 'node_modules' || e.name === 'fixtures') continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) testFiles(p, out);
    else if (e.name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

/** Whether a test file's outcome can depend on the engine (SQLite, PostgreSQL, Redis mode). */
export function dependsOnEngine(file) {
  if (!file.includes(`${path.sep}packages${path.sep}server${path.sep}`)) return false;
  return !MARK.test(fs.readFileSync(file, 'utf8').slice(0, 4000));
}

/** Whether an engine-dependent file's outcome can also depend on distributed mode (the Redis bus, limits, nodes). */
export function dependsOnDistribution(file) {
  return dependsOnEngine(file) && DISTRIBUTED.test(fs.readFileSync(file, 'utf8'));
}

export function selectTests(scope = 'all') {
  const files = ['packages', 'examples'].flatMap((top) => fs.readdirSync(path.join(root, top)).map((dir) => path.join(root, top, dir, 'test')))
    .flatMap((dir) => (fs.existsSync(dir) ? testFiles(dir) : []))
    .sort();
  if (scope === 'engine') return files.filter(dependsOnEngine);
  if (scope === 'distributed') return files.filter(dependsOnDistribution);
  return files;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const scope = process.env.ACCORD_TEST_SCOPE ?? 'all';
  if (!['all', 'engine', 'distributed'].includes(scope)) {
    console.error(`ACCORD_TEST_SCOPE must be "all", "engine" or "distributed", not "${scope}"`);
    process.exit(2);
  }
  const files = selectTests(scope).map((f) => path.relative(root, f));
  const args = ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=spec', ...process.argv.slice(2), ...files];
  const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
}

#!/usr/bin/env node
// `npm test`: every package's and example's tests in one `node --test` run, one file at a time (they start real
// servers), each file bundled with the sources it imports first (scripts/test-build.mjs) so that plain node runs it,
// and several files of a package to a process (scripts/test-groups.mjs).
// ACCORD_TEST_SCOPE=engine runs only the files whose outcome can depend on the storage engine, and
// ACCORD_TEST_SCOPE=distributed those of them that can depend on the bus, Redis or several processes, and
// ACCORD_TEST_SCOPE=engine-only the engine files that are not distributed ones. CI runs the whole suite on SQLite, the
// engine-only set on PostgreSQL and the distributed set in Redis mode, which stores in PostgreSQL too. A file opts out
// of the engine runs with a line `// engine-independent: <why>` near its top; every package but the server is
// engine-independent as a whole.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { groupFiles } from './test-groups.mjs';
import { readTimes, shardFiles } from './test-shard.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MARK = /^\/\/ engine-independent: \S/m;
/**
 * What makes a file's outcome depend on the bus or Redis: Gateway sessions (events travel over the Redis bus), the
 * HTTP rate limits turned on (kept in Redis), several nodes or workers. Not the words "rate limit" or retry_after alone:
 * slowmode (rate_limit_per_user), the daily command creates and the login limits are counted in the store or in the
 * node's memory, not in Redis. A client library's Gateway (discord.js's Client) is not a reason either: what the
 * server sends over the bus is tested there by the files that watch the Gateway themselves, e2e-discordjs among them.
 */
const DISTRIBUTED = /RawGateway|connectGateway|REDIS_URL|twoNodes|--workers|\.dispatch\(|rateLimits: ?('real'|true)|--rate-limits|ctx\.limits/i;

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
  const files = ['packages', 'examples']
    .flatMap((top) => fs.readdirSync(path.join(root, top)).map((dir) => path.join(root, top, dir, 'test')))
    .flatMap((dir) => (fs.existsSync(dir) ? testFiles(dir) : []))
    .sort();
  if (scope === 'engine') return files.filter(dependsOnEngine);
  if (scope === 'distributed') return files.filter(dependsOnDistribution);
  if (scope === 'engine-only') return files.filter((f) => dependsOnEngine(f) && !dependsOnDistribution(f));
  return files;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const scope = process.env.ACCORD_TEST_SCOPE ?? 'all';
  if (!['all', 'engine', 'distributed', 'engine-only'].includes(scope)) {
    console.error(`ACCORD_TEST_SCOPE must be "all", "engine", "distributed" or "engine-only", not "${scope}"`);
    process.exit(2);
  }
  // `npm test -- [node --test options] [test files]`: the files given (of the scope), or all of the scope.
  const given = process.argv
    .slice(2)
    .filter((a) => a.endsWith('.test.ts'))
    .map((a) => path.resolve(a));
  const options = process.argv.slice(2).filter((a) => !a.endsWith('.test.ts'));
  let files = selectTests(scope).filter((f) => !given.length || given.includes(f));
  if (given.length && !files.length) {
    // node --test with no file would look for tests everywhere
    console.error(`no test file of scope "${scope}" among: ${given.map((f) => path.relative(root, f)).join(', ')}`);
    process.exit(2);
  }
  // ACCORD_TEST_SHARD=k/n: the k-th of n shards of about equal measured time (k may be a list, 1,2/4), so CI can split a
  // run between lanes (scripts/test-shard.mjs).
  const shard = /^([\d,]+)\/(\d+)$/.exec(process.env.ACCORD_TEST_SHARD ?? '1/1');
  const parts = shard ? shard[1].split(',').map(Number) : [];
  if (!shard || !parts.every((k) => k >= 1 && k <= Number(shard[2]))) {
    console.error(`ACCORD_TEST_SHARD must be k/n or k,k…/n with 1 <= k <= n, not "${process.env.ACCORD_TEST_SHARD}"`);
    process.exit(2);
  }
  files = shardFiles(files, parts, Number(shard[2]), readTimes(root), root);
  const sources = new Map(files.map((f) => [f, f]));
  let loader = ['--import', 'tsx'];
  let cleanUp = () => {};
  // Test files run bundled, on plain node (scripts/test-build.mjs); ACCORD_TEST_BUNDLE=0 runs their sources through tsx.
  if (process.env.ACCORD_TEST_BUNDLE !== '0') {
    const { buildTests, removeBuild } = await import('./test-build.mjs');
    cleanUp = () => removeBuild(root);
    const built = await buildTests(files, root);
    files = files.map((f) => built.get(f));
    for (const [source, bundle] of built) sources.set(bundle, source);
    loader = ['--enable-source-maps'];
    // The server's own bundle (`npm start`'s build) for the tests that start it as a child process (test/helpers/main-command.ts).
    const mainDir = path.join(root, 'packages', 'server', '.tmp', 'test-build', String(process.pid), 'main');
    execFileSync(process.execPath, [path.join(root, 'packages', 'server', 'scripts', 'build.mjs'), mainDir], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    process.env.ACCORD_TEST_MAIN = path.join(mainDir, 'accord.js');
    // Several files to a process (scripts/test-groups.mjs); ACCORD_TEST_GROUPS=0 runs each in its own.
    if (process.env.ACCORD_TEST_GROUPS !== '0') files = groupFiles(files, sources, root);
  }
  // ACCORD_TEST_TIMES=<file>: also write each file's time there, by source path (for scripts/test-times.json).
  const timesOut = process.env.ACCORD_TEST_TIMES ? path.resolve(process.env.ACCORD_TEST_TIMES) : null;
  const rawTimes = timesOut && `${timesOut}.raw`;
  const reporters = rawTimes
    ? [
        '--test-reporter=spec',
        '--test-reporter-destination=stdout',
        `--test-reporter=${path.join(root, 'scripts', 'test-times-reporter.mjs')}`,
        `--test-reporter-destination=${rawTimes}`,
      ]
    : ['--test-reporter=spec'];
  const args = [...loader, '--test', '--test-concurrency=1', ...reporters, ...options, ...files.map((f) => path.relative(root, f))];
  const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
  child.on('exit', (code, signal) => {
    if (rawTimes && fs.existsSync(rawTimes)) writeSourceTimes(rawTimes, timesOut, sources);
    cleanUp();
    process.exit(code ?? (signal ? 1 : 0));
  });
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
}

/** The reporter's times are keyed by the file node ran (a bundle): key them by the source file, relative to the root. */
function writeSourceTimes(raw, out, sources) {
  const times = {};
  for (const [file, seconds] of Object.entries(JSON.parse(fs.readFileSync(raw, 'utf8')))) {
    times[path.relative(root, sources.get(file) ?? file)] = Math.round(seconds * 10) / 10;
  }
  fs.writeFileSync(out, `${JSON.stringify(times, null, 1)}\n`);
  fs.rmSync(raw);
}

#!/usr/bin/env node
// `npm test`: every package's tests in one `node --test` run, one file at a time (they start real servers).
// ACCORD_TEST_SCOPE=engine runs only the files whose outcome can depend on the storage or bus engine: CI runs the whole
// suite once on SQLite, then only those on PostgreSQL and in Redis mode. A file opts out of the engine runs with a line
// `// engine-independent: <why>` near its top; every package but the server is engine-independent as a whole.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MARK = /^\/\/ engine-independent: \S/m;

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

export function selectTests(scope = 'all') {
  const files = fs.readdirSync(path.join(root, 'packages'))
    .flatMap((pkg) => (fs.existsSync(path.join(root, 'packages', pkg, 'test')) ? testFiles(path.join(root, 'packages', pkg, 'test')) : []))
    .sort();
  return scope === 'engine' ? files.filter(dependsOnEngine) : files;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const scope = process.env.ACCORD_TEST_SCOPE ?? 'all';
  if (scope !== 'all' && scope !== 'engine') {
    console.error(`ACCORD_TEST_SCOPE must be "all" or "engine", not "${scope}"`);
    process.exit(2);
  }
  const files = selectTests(scope).map((f) => path.relative(root, f));
  const args = ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=spec', ...process.argv.slice(2), ...files];
  const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
}

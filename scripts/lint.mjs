#!/usr/bin/env node
// `npm run lint`: ESLint, then Prettier's check, on every package; it fails when either fails. With ACCORD_CHECK_CACHE=<dir>
// (CI sets it, .ci/run) both keep their results per file content there, and the next run checks only what changed.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const cache = process.env.ACCORD_CHECK_CACHE;

/** The path of a package's command-line script (its package.json `bin`). */
function bin(name) {
  const pkg = require(`${name}/package.json`);
  const file = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin[name];
  return path.join(path.dirname(require.resolve(`${name}/package.json`)), file);
}

const cached = (file) => (cache ? ['--cache', '--cache-strategy', 'content', '--cache-location', path.join(cache, file)] : []);
let failed = 0;
for (const [name, args] of [
  ['eslint', [...cached('eslint'), '.']],
  ['prettier', ['--check', ...cached('prettier'), '.']],
]) {
  const r = spawnSync(process.execPath, [bin(name), ...args], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed = 1;
}
process.exit(failed);

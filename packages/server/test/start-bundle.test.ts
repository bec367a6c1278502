// engine-independent: builds and starts the bundle; the store it opens is covered by every other file
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// `npm start` and `npm run seed` run the bundle in dist/: this builds it and drives it as a person would.
const root = path.resolve(import.meta.dirname, '..');
const bundle = path.join(root, 'dist', 'accord.js');
const env = { ...process.env, DATABASE_URL: '', REDIS_URL: '' }; // SQLite, a single process

before(() => {
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'pipe' });
});

test('the bundled server starts on SQLite, serves the API and the gateway URL, and stops on SIGTERM', async () => {
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'accord-bundle-'));
  const child = spawn(process.execPath, [bundle, 'start', '--port', '0', '--data', data], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line: ${out}`)), 30_000);
    child.stdout.on('data', (c) => {
      out += c;
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.stderr.on('data', (c) => (out += c));
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
  const gateway = (await (await fetch(`${url}/api/v10/gateway`)).json()) as { url: string };
  assert.match(gateway.url, /^ws:\/\/127\.0\.0\.1:\d+$/);
  const reg = await fetch(`${url}/api/v10/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bundled', password: 'correct horse battery' }),
  });
  assert.equal(reg.status, 200);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  assert.equal(await exited, 0);
  assert.ok(fs.existsSync(path.join(data, 'accord.db')));
});

test('seed prints a dev world: tokens and ids a newcomer can use at once', () => {
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'accord-seed-'));
  const out = execFileSync(process.execPath, [bundle, 'seed', '--data', data], { env, encoding: 'utf8' });
  assert.match(out, /bot token\s+\S+\.\S+\.\S+/);
  assert.match(out, /guild\s+\d{17,20}/);
  assert.equal((out.match(/user \S+\s+\d+\s+token \S+/g) ?? []).length, 2);
});

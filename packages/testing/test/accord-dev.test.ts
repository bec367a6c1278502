/** `npx accord-dev`: a local Accord with the web client, its URLs and a world printed, stopped by Ctrl-C. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

test('accord-dev serves the API and the web client, prints a world, and stops on SIGINT', { timeout: 60_000 }, async () => {
  const bin = fileURLToPath(new URL('../bin/accord-dev.mjs', import.meta.url));
  const child = spawn(process.execPath, [bin, '--world'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 45 s:\n${out}`)), 45_000);
    child.stdout.on('data', () => out.includes('Ctrl-C stops it') && (clearTimeout(timer), resolve()));
  });
  const web = /web client (\S+)/.exec(out)![1];
  const page = await fetch(web);
  assert.equal(page.status, 200);
  assert.match(await page.text(), /<div id="root">/);
  const token = /bot token (\S+)/.exec(out)![1];
  const me = await fetch(`${/API\s+(\S+)/.exec(out)![1]}/users/@me`, { headers: { authorization: `Bot ${token}` } });
  assert.equal(me.status, 200);
  child.kill('SIGINT');
  assert.equal(await exited, 0);
});

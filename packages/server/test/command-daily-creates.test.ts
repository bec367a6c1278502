/**
 * The 200 application command creates per day: counted per guild (and per app for global commands) over the last 24
 * hours of the platform clock; updates are free and deleting gives nothing back; the 201st create answers 429 with
 * code 30034 and a retry_after, writes nothing, and works again once the dev clock has moved a day ahead.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer, devHeaders } from './helpers/server.js';

let t: TestServer;
before(async () => {
  t = await startTestServer({ overrides: { dev: true } });
});
after(async () => t?.close());

const bot = (path: string, method: string, body?: unknown) => t.api(path, { method, token: t.world.botToken, bot: true, body });
const guildCommands = () => `/applications/${t.world.applicationId}/guilds/${t.world.guildId}/commands`;
const globalCommands = () => `/applications/${t.world.applicationId}/commands`;
const chat = (name: string) => ({ name, description: `the ${name} command` });
const user = (name: string) => ({ name, type: 2 });
const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => chat(`${prefix}${i}`));

test('the 201st command create in a day answers 429 30034 with retry_after, and nothing is written', { timeout: 60_000 }, async () => {
  const first = await bot(guildCommands(), 'PUT', names('a', 100));
  assert.equal(first.status, 200, first.text);
  assert.equal((await bot(guildCommands(), 'PUT', [])).status, 200, 'deleting gives no create back');
  const second = await bot(guildCommands(), 'PUT', names('b', 99));
  assert.equal(second.status, 200, second.text);
  // 199 spent. Updates are free: the same list again, and a POST that overwrites an existing name.
  assert.equal((await bot(guildCommands(), 'PUT', names('b', 99))).status, 200);
  const overwrite = await bot(guildCommands(), 'POST', { ...chat('b0'), description: 'changed' });
  assert.equal(overwrite.status, 200, overwrite.text);
  // The 200th create is allowed; the 201st is not (a user command: the 100 slash commands are full).
  const c200 = await bot(guildCommands(), 'POST', chat('c200'));
  assert.equal(c200.status, 201, c200.text);
  const c201 = await bot(guildCommands(), 'POST', user('c201'));
  assert.equal(c201.status, 429, c201.text);
  assert.equal(c201.body.code, 30034);
  assert.equal(c201.body.message, 'Max number of daily application command creates has been reached (200)');
  assert.equal(c201.body.global, false);
  // The window frees its first creates a day after they were made (the clock has not moved).
  assert.ok(c201.body.retry_after > 86_000 && c201.body.retry_after <= 86_400, String(c201.body.retry_after));
  assert.equal(c201.headers.get('retry-after'), String(Math.ceil(c201.body.retry_after)));
  // A bulk PUT that adds one new command is refused whole: the list is unchanged.
  const bulk = await bot(guildCommands(), 'PUT', [...names('b', 99), chat('c200'), user('new')]);
  assert.equal(bulk.status, 429, bulk.text);
  assert.equal(bulk.body.code, 30034);
  const list = await bot(guildCommands(), 'GET');
  assert.deepEqual(list.body.map((c: any) => c.name).sort(), [...names('b', 99).map((c) => c.name), 'c200'].sort());

  // Global commands and other scopes keep their own count.
  const global = await bot(globalCommands(), 'POST', chat('elsewhere'));
  assert.equal(global.status, 201, global.text);

  // A day later on the platform clock the window is free again.
  const moved = await fetch(`${t.server.url}/__dev/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...devHeaders(t) },
    body: JSON.stringify({ advance_ms: 86_400_000 + 1000 }),
  });
  assert.equal(moved.status, 200);
  const later = await bot(guildCommands(), 'POST', user('c201'));
  assert.equal(later.status, 201, later.text);
});

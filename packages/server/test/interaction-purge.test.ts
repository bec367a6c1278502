/**
 * Interaction rows are purged once their 15-minute token window has passed on the platform clock (on the next
 * interaction's write), and an expired token still answers as the platform does after the purge: 50027 on the
 * interaction webhook, 10062 on the callback.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer, devHeaders } from './helpers/server.js';
import { until } from './helpers/wait.js';
import type { BusEvent } from '../src/bus/bus.js';

let t: TestServer;
const events: BusEvent[] = [];
let command: { id: string; name: string; version: string };

before(async () => {
  t = await startTestServer({ overrides: { dev: true } });
  t.server.ctx.bus.subscribe((e) => events.push(e));
  const r = await t.api(`/applications/${t.world.applicationId}/commands`, {
    method: 'POST',
    token: t.world.botToken,
    bot: true,
    body: { name: 'ping', description: 'ping' },
  });
  assert.equal(r.status, 201, r.text);
  command = r.body;
});
after(async () => t?.close());

let nonce = 1;
/** A person runs /ping; resolves with the app's copy of the interaction (id and token). */
async function invoke(): Promise<{ id: string; token: string }> {
  const from = events.length;
  const r = await t.api('/interactions', {
    method: 'POST',
    token: t.world.users[0].token,
    body: {
      type: 2,
      application_id: t.world.applicationId,
      guild_id: t.world.guildId,
      channel_id: t.world.textChannelId,
      session_id: 's',
      nonce: String(nonce++),
      data: { id: command.id, name: 'ping', type: 1, version: command.version },
    },
  });
  assert.equal(r.status, 204, r.text);
  return until(() => events.slice(from).find((e) => e.t === 'INTERACTION_CREATE' && e.d.token)?.d, 5000, 'INTERACTION_CREATE');
}

const rowExists = async (id: string) => !!(await t.server.ctx.repos.store.db.selectFrom('interactions').select('id').where('id', '=', id).executeTakeFirst());
const advance = async (ms: number) => {
  const r = await fetch(`${t.server.url}/__dev/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...devHeaders(t) },
    body: JSON.stringify({ advance_ms: ms }),
  });
  assert.equal(r.status, 200);
};

test('an interaction row is purged after its 15 minutes; its token still answers 50027 / 10062', { timeout: 60_000 }, async () => {
  const a = await invoke();
  const answered = await t.api(`/interactions/${a.id}/${a.token}/callback`, { method: 'POST', body: { type: 4, data: { content: 'pong' } } });
  assert.equal(answered.status, 204, answered.text);
  assert.equal((await t.api(`/webhooks/${t.world.applicationId}/${a.token}/messages/@original`)).status, 200);

  // Within the window a new interaction purges nothing.
  await advance(14 * 60_000);
  const b = await invoke();
  assert.equal(await rowExists(a.id), true, 'still inside its 15 minutes');

  // Past A's window (B is still inside its own), the next write purges A and keeps B.
  await advance(60_000 + 1000);
  const c = await invoke();
  assert.equal(await rowExists(a.id), false, 'purged');
  assert.equal(await rowExists(b.id), true);
  assert.equal(await rowExists(c.id), true);

  // The purged token answers as an expired one.
  const edit = await t.api(`/webhooks/${t.world.applicationId}/${a.token}/messages/@original`, { method: 'PATCH', body: { content: 'x' } });
  assert.equal(edit.status, 401, edit.text);
  assert.equal(edit.body.code, 50027);
  const get = await t.api(`/webhooks/${t.world.applicationId}/${a.token}`);
  assert.equal(get.status, 401, get.text);
  assert.equal(get.body.code, 50027);
  const followup = await t.api(`/webhooks/${t.world.applicationId}/${a.token}`, { method: 'POST', body: { content: 'x' } });
  assert.equal(followup.body.code, 50027);
  const late = await t.api(`/interactions/${a.id}/${a.token}/callback`, { method: 'POST', body: { type: 4, data: { content: 'late' } } });
  assert.equal(late.status, 404, late.text);
  assert.equal(late.body.code, 10062);
  // A token that names no interaction of ours is not mistaken for an expired one.
  const madeUp = await t.api(`/webhooks/${t.world.applicationId}/${Buffer.from('not-an-interaction').toString('base64url')}`);
  assert.notEqual(madeUp.body.code, 50027, madeUp.text);
  // The original response message itself stays in the channel.
  const original = await t.api(`/channels/${t.world.textChannelId}/messages?limit=50`, { token: t.world.users[0].token });
  assert.ok(original.body.some((m: any) => m.interaction_metadata?.id === a.id && m.content === 'pong'));
});

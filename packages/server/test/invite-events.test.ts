/**
 * INVITE_CREATE and INVITE_DELETE reach only sessions with MANAGE_CHANNELS on the invite's channel (docs: "only sent if
 * the bot has the MANAGE_CHANNELS permission for the relevant channel"), whether it comes from a role or from that
 * channel's overwrite. "Nothing arrived" is read after a sentinel message that the same session does receive: the
 * dispatcher delivers events in publish order, so the sentinel is a barrier.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { P } from '@accord/protocol';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RawGateway } from './helpers/gateway-client.js';

let t: TestServer;
let alice: RawGateway;
let bob: RawGateway;
let bot: RawGateway;
before(async () => {
  t = await startTestServer();
  [alice, bob, bot] = await Promise.all([RawGateway.connect(t.server.url), RawGateway.connect(t.server.url), RawGateway.connect(t.server.url)]);
  await alice.identify(t.world.users[0].token);
  await bob.identify(t.world.users[1].token);
  await bot.identify(`Bot ${t.world.botToken}`, { intents: (1 << 0) | (1 << 6) | (1 << 9) });
});
after(async () => {
  for (const gw of [alice, bob, bot]) gw?.close();
  await t?.close();
});

const owner = () => ({ token: t.world.users[0].token });
let sentinels = 0;
/** Posts a message every session sees and waits for it on `gw`: events published before it have reached `gw`. */
async function barrier(gw: RawGateway): Promise<void> {
  const content = `sentinel ${++sentinels}`;
  const r = await t.api(`/channels/${t.world.textChannelId}/messages`, { ...owner(), method: 'POST', body: { content } });
  assert.equal(r.status, 200, r.text);
  await gw.dispatch('MESSAGE_CREATE', (d) => d.content === content);
}
const got = (gw: RawGateway, type: string, code: string) => gw.frames.some((f) => f.op === 0 && f.t === type && f.d.code === code);

async function invite(channelId: string): Promise<string> {
  const r = await t.api(`/channels/${channelId}/invites`, { ...owner(), method: 'POST', body: { max_age: 0, unique: true } });
  assert.equal(r.status, 200, r.text);
  return r.body.code;
}
async function revoke(code: string): Promise<void> {
  const r = await t.api(`/invites/${code}`, { ...owner(), method: 'DELETE' });
  assert.equal(r.status, 200, r.text);
}

test('invite events go to MANAGE_CHANNELS holders on the channel only', { timeout: 30_000 }, async () => {
  const text = t.world.textChannelId;
  const voice = t.world.voiceChannelId;
  // Bob sees the channel but cannot manage it.
  const a = await invite(text);
  await alice.dispatch('INVITE_CREATE', (d) => d.code === a);
  await bot.dispatch('INVITE_CREATE', (d) => d.code === a);
  await barrier(bob);
  assert.equal(got(bob, 'INVITE_CREATE', a), false, 'bob cannot manage the channel');

  // MANAGE_CHANNELS from this channel's overwrite: bob gets the events of this channel, not of another one.
  const ow = await t.api(`/channels/${text}/permissions/${t.world.users[1].id}`, {
    ...owner(),
    method: 'PUT',
    body: { type: 1, allow: String(P.MANAGE_CHANNELS), deny: '0' },
  });
  assert.equal(ow.status, 204, ow.text);
  const b = await invite(text);
  await bob.dispatch('INVITE_CREATE', (d) => d.code === b);
  const c = await invite(voice);
  await alice.dispatch('INVITE_CREATE', (d) => d.code === c);
  await revoke(b);
  await bob.dispatch('INVITE_DELETE', (d) => d.code === b);
  await revoke(c);
  await alice.dispatch('INVITE_DELETE', (d) => d.code === c);
  await barrier(bob);
  assert.equal(got(bob, 'INVITE_CREATE', c), false, 'no MANAGE_CHANNELS on the voice channel');
  assert.equal(got(bob, 'INVITE_DELETE', c), false);

  // The overwrite removed: deleting an invite of the text channel no longer reaches bob.
  assert.equal((await t.api(`/channels/${text}/permissions/${t.world.users[1].id}`, { ...owner(), method: 'DELETE' })).status, 204);
  await revoke(a);
  await bot.dispatch('INVITE_DELETE', (d) => d.code === a);
  await barrier(bob);
  assert.equal(got(bob, 'INVITE_DELETE', a), false);
});

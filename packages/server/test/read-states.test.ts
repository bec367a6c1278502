/**
 * Read states: `POST /channels/{id}/messages/{id}/ack` moves a person's read state, their other sessions get
 * MESSAGE_ACK, and READY carries `read_state` with mention counts computed from the messages after each state:
 * user and role mentions and @everyone in guild channels, every message in a DM.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RawGateway } from './helpers/gateway-client.js';
import { expectError, register } from './helpers/fixtures.js';

const T = { timeout: 30_000 };

describe('read states', () => {
  let t: TestServer;
  let alice: { id: string; token: string };
  let bob: { id: string; token: string };
  const gateways: RawGateway[] = [];
  const as = (p: { token: string }, path: string, method = 'GET', body?: unknown) => t.api(path, { method, token: p.token, body });
  const post = async (p: { token: string }, channelId: string, content: string): Promise<string> => {
    const r = await as(p, `/channels/${channelId}/messages`, 'POST', { content });
    assert.equal(r.status, 200, r.text);
    return r.body.id;
  };
  const ready = async (p: { token: string }) => {
    const gw = await RawGateway.connect(t.server.url);
    gateways.push(gw);
    return { gw, ready: await gw.identify(p.token, { intents: 0 }) };
  };
  const entryOf = (r: any, channelId: string) => r.read_state.entries.find((e: any) => e.id === channelId);

  before(async () => {
    t = await startTestServer();
    alice = { id: t.world.users[0].id, token: t.world.users[0].token };
    bob = { id: t.world.users[1].id, token: t.world.users[1].token };
  });
  after(async () => {
    for (const gw of gateways) gw.close();
    await t?.close();
  });

  test('READY has an empty read_state for a person, none for a bot', T, async () => {
    const { ready: r } = await ready(alice);
    assert.deepEqual(r.read_state, { version: 0, partial: false, entries: [] });
    const gw = await RawGateway.connect(t.server.url);
    gateways.push(gw);
    const botReady = await gw.identify(t.world.botToken, { intents: 0 });
    assert.equal(botReady.read_state, undefined);
  });

  test('an ack answers {token: null} and reaches the person’s other sessions as MESSAGE_ACK', T, async () => {
    const ch = t.world.textChannelId;
    const { gw } = await ready(alice);
    const first = await post(bob, ch, 'hello');
    const r = await as(alice, `/channels/${ch}/messages/${first}/ack`, 'POST', { token: null });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { token: null });
    const ack = await gw.dispatch('MESSAGE_ACK', (d) => d.message_id === first);
    assert.equal(ack.channel_id, ch);
    assert.equal(ack.guild_id, t.world.guildId);
    assert.equal(ack.mention_count, 0);
    assert.equal(typeof ack.version, 'number');
    // Bob's sessions are not told.
    const { gw: bobGw } = await ready(bob);
    const second = await post(bob, ch, 'again');
    assert.equal((await as(alice, `/channels/${ch}/messages/${second}/ack`, 'POST', {})).status, 200);
    const ack2 = await gw.dispatch('MESSAGE_ACK', (d) => d.message_id === second);
    assert.ok(ack2.version > ack.version, 'versions grow');
    assert.equal(
      bobGw.frames.some((f) => f.t === 'MESSAGE_ACK'),
      false,
    );
  });

  test('READY counts mentions after the read state: the user, a role they hold, @everyone; plain messages do not count', T, async () => {
    const ch = t.world.textChannelId;
    const role = await t.api(`/guilds/${t.world.guildId}/roles`, {
      method: 'POST',
      token: t.world.botToken,
      bot: true,
      body: { name: 'readers', mentionable: true },
    });
    assert.equal(role.status, 200, role.text);
    assert.equal(
      (await t.api(`/guilds/${t.world.guildId}/members/${alice.id}/roles/${role.body.id}`, { method: 'PUT', token: t.world.botToken, bot: true })).status,
      204,
    );
    const read = await post(bob, ch, 'read up to here');
    assert.equal((await as(alice, `/channels/${ch}/messages/${read}/ack`, 'POST', {})).status, 200);
    await post(bob, ch, 'nothing for alice');
    await post(bob, ch, `hey <@${alice.id}>`);
    await post(bob, ch, `readers: <@&${role.body.id}>`);
    await post(bob, ch, '@everyone look');
    await post(alice, ch, `my own <@${alice.id}> does not count`);
    const { ready: r } = await ready(alice);
    const e = entryOf(r, ch);
    assert.deepEqual(e, { id: ch, last_message_id: read, mention_count: 3, last_pin_timestamp: null, flags: 0 });
    assert.equal(r.read_state.partial, false);
    assert.ok(r.read_state.version >= 1);
  });

  test('every message in a DM counts; a manual ack keeps the count it carries', T, async () => {
    const dm = await as(bob, '/users/@me/channels', 'POST', { recipient_id: alice.id });
    assert.equal(dm.status, 200, dm.text);
    const first = await post(bob, dm.body.id, 'hi alice');
    assert.equal((await as(alice, `/channels/${dm.body.id}/messages/${first}/ack`, 'POST', {})).status, 200);
    await post(bob, dm.body.id, 'are you there?');
    await post(bob, dm.body.id, 'hello?');
    assert.equal(entryOf((await ready(alice)).ready, dm.body.id).mention_count, 2);
    assert.equal((await as(alice, `/channels/${dm.body.id}/messages/${first}/ack`, 'POST', { manual: true, mention_count: 7 })).status, 200);
    assert.equal(entryOf((await ready(alice)).ready, dm.body.id).mention_count, 7);
  });

  test('acks need a channel the person can see, a message id, a person and a valid body', T, async () => {
    const ch = t.world.textChannelId;
    const msg = await post(bob, ch, 'private?');
    const carol = await register(t, `carol_${Date.now().toString(36)}`);
    expectError(await as(carol, `/channels/${ch}/messages/${msg}/ack`, 'POST', {}), 404, 10003);
    const dm = await as(bob, '/users/@me/channels', 'POST', { recipient_id: alice.id });
    expectError(await as(carol, `/channels/${dm.body.id}/messages/${msg}/ack`, 'POST', {}), 403, 50001);
    expectError(await as(alice, `/channels/${ch}/messages/not-an-id/ack`, 'POST', {}), 404, 10008);
    expectError(await as(alice, `/channels/123/messages/${msg}/ack`, 'POST', {}), 404, 10003);
    expectError(await as(alice, `/channels/${ch}/messages/${msg}/ack`, 'POST', { mention_count: -1 }), 400, 50035);
    expectError(await t.api(`/channels/${ch}/messages/${msg}/ack`, { method: 'POST', token: t.world.botToken, bot: true, body: {} }), 403, 20001);
    assert.equal((await t.api(`/channels/${ch}/messages/${msg}/ack`, { method: 'POST', body: {} })).status, 401);
  });
});

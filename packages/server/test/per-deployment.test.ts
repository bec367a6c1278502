/**
 * Rules that hold per deployment, not per process (issue 26 §5), on two nodes of one deployment (one PostgreSQL
 * schema, one Redis prefix, two ports, in this process: every piece of state below is kept per server, so what node B
 * sees of node A's doings went through Redis): the once-per-30-s limit of Request Guild Members for all members, the
 * Social SDK's limit of unapproved apps, and DM calls. The same member-request limit across `--workers 2` processes is
 * in workers.test.ts. Runs when DATABASE_URL and REDIS_URL are set (the CI's Redis run); skipped otherwise.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { twoNodes } from './helpers/two-nodes.js';
import { limitCommunication, COMMUNICATION_LIMITS } from '../src/services/social/sdk/limits.js';
import { calls } from '../src/services/voice/calls.js';
import { ApiError } from '../src/core/errors.js';
import { LOGIN_LIMITS } from '../src/services/identity/login-guard.js';
import { USER_CODE_LIMITS } from '../src/services/identity/oauth2/user-code-guard.js';
import { MemoryRateLimits } from '../src/bus/rate-limits.js';
import { MemoryCallStore } from '../src/services/voice/call-store.js';
import { Clock } from '../src/core/clock.js';
import { RedisRateLimits } from '../src/http/rate-limit-redis.js';
import { connectRedis, deleteKeys } from '../src/store/redis.js';
import crypto from 'node:crypto';
import { until } from './helpers/wait.js';

const GUILDS = 1;
const GUILD_MEMBERS = 1 << 1;
const WAIT = 20_000;
const enabled = !!process.env.DATABASE_URL && !!process.env.REDIS_URL;

test('the embedded pieces: a fixed window, and calls changed one at a time', async () => {
  const clock = new Clock();
  const limits = new MemoryRateLimits(clock);
  assert.equal(limits.take('k', 1, 30_000).allowed, true);
  const second = limits.take('k', 1, 30_000);
  assert.equal(second.allowed, false);
  assert.ok(second.resetAtMs > clock.now());
  const store = new MemoryCallStore();
  const order: number[] = [];
  await Promise.all(
    [1, 2, 3].map((i) =>
      store.serial('c', async () => {
        order.push(i);
        await new Promise((r) => setTimeout(r, 5 - i));
        order.push(i);
      }),
    ),
  );
  assert.deepEqual(order, [1, 1, 2, 2, 3, 3]);
  await store.put({ channelId: 'c', messageId: 'm', region: 'local', ringing: ['u'], participants: [] });
  const got = (await store.get('c'))!;
  got.ringing.push('v'); // a copy: the store changes only through put
  assert.deepEqual((await store.get('c'))!.ringing, ['u']);
  assert.deepEqual(await store.channels(), ['c']);
  await store.delete('c');
  assert.equal(await store.get('c'), null);
});

test("a request's limits in one step: the Redis store answers as the embedded one", { skip: !process.env.REDIS_URL && 'needs REDIS_URL' }, async () => {
  const clock = new Clock();
  const prefix = `ta_${crypto.randomBytes(4).toString('hex')}:`;
  const r = await connectRedis(process.env.REDIS_URL!, 'test-take-all');
  try {
    const stores = [new MemoryRateLimits(clock), new RedisRateLimits(r, prefix, clock)];
    const hits = [
      { key: 'global:u', limit: 50, windowMs: 1000 },
      { key: 'u:route', limit: 2, windowMs: 5000 },
      { key: 'shared:x', limit: 9, windowMs: 5000 },
    ];
    const shape = (x: Awaited<ReturnType<(typeof stores)[0]['takeAll']>>) => ({
      ban: x.ban && { ...x.ban, resetAtMs: 0 },
      takes: x.takes.map((t) => [t.allowed, t.limit, t.remaining]),
    });
    for (const round of [0, 1, 2]) {
      const [m, red] = [await stores[0].takeAll('ban:ip', hits), await stores[1].takeAll('ban:ip', hits)];
      assert.deepEqual(shape(red), shape(m), `round ${round}`);
      assert.equal(m.takes.length, round < 2 ? 3 : 2, 'the takes stop at the first refused');
    }
    for (const s of stores) await s.take('ban:ip', 0, 60_000);
    const [m, red] = [await stores[0].takeAll('ban:ip', hits), await stores[1].takeAll('ban:ip', hits)];
    assert.deepEqual(shape(red), shape(m));
    assert.equal(red.ban?.allowed, false);
    assert.deepEqual(red.takes, [], 'a banned address counts nothing');
  } finally {
    await deleteKeys(r, prefix).catch(() => {});
    await r.quit();
  }
});

describe('rules of a deployment hold on two nodes', { skip: !enabled && 'needs DATABASE_URL and REDIS_URL (distributed mode)', timeout: 180_000 }, () => {
  const nodes = twoNodes({ overrides: { rateLimits: false } });

  test('Request Guild Members for all members: once per 30 s per guild per bot, whichever node the session is on', async () => {
    const { a, b } = nodes;
    const onA = await nodes.connect(a);
    await onA.identify(a.world.botToken, { intents: GUILDS | GUILD_MEMBERS });
    await onA.dispatch('GUILD_CREATE', () => true, WAIT);
    const onB = await nodes.connect(b);
    await onB.identify(a.world.botToken, { intents: GUILDS | GUILD_MEMBERS });
    await onB.dispatch('GUILD_CREATE', () => true, WAIT);

    onA.send(8, { guild_id: a.world.guildId, query: '', limit: 0, nonce: 'first' });
    const chunk = await onA.dispatch('GUILD_MEMBERS_CHUNK', (d) => d.nonce === 'first', WAIT);
    assert.ok(chunk.members.length > 0);
    onB.send(8, { guild_id: a.world.guildId, query: '', limit: 0, nonce: 'second' });
    const limited = await onB.dispatch('RATE_LIMITED', (d) => d.meta?.nonce === 'second', WAIT);
    assert.equal(limited.opcode, 8);
    assert.ok(limited.retry_after > 0 && limited.retry_after <= 30, JSON.stringify(limited));
    assert.deepEqual(limited.meta, { guild_id: a.world.guildId, nonce: 'second' });
    assert.ok(!onB.frames.some((f) => f.t === 'GUILD_MEMBERS_CHUNK' && f.d.nonce === 'second'));
    // Requests by id are not limited, on either node.
    onB.send(8, { guild_id: a.world.guildId, user_ids: [a.world.users[0].id], nonce: 'by-id' });
    await onB.dispatch('GUILD_MEMBERS_CHUNK', (d) => d.nonce === 'by-id', WAIT);
  });

  test('the Social SDK limit of an unapproved app counts the calls of both nodes in one window', async () => {
    const { a, b } = nodes;
    const appId = a.world.applicationId;
    const { count } = COMMUNICATION_LIMITS.link;
    for (let i = 0; i < count; i++) await limitCommunication(i % 2 ? b.server.ctx : a.server.ctx, appId, 'link');
    for (const t of [a, b]) {
      await assert.rejects(limitCommunication(t.server.ctx, appId, 'link'), (err: unknown) => {
        assert.ok(err instanceof ApiError);
        assert.equal(err.status, 429);
        return true;
      });
    }
    await limitCommunication(b.server.ctx, appId, 'message'); // another window
  });

  test('login back-off and wrong device codes are counted for the deployment, not per node', async () => {
    const { a, b } = nodes;
    const username = `guarded_${Date.now().toString(36)}`;
    const password = 'the right password';
    assert.equal((await a.api('/auth/register', { method: 'POST', body: { username, password } })).status, 200);
    const login = (node: typeof a, pw: string) => node.api('/auth/login', { method: 'POST', body: { login: username, password: pw } });
    // The free failures spread over both nodes: the next attempt, on either node, meets the back-off.
    for (let i = 0; i < LOGIN_LIMITS.FREE_FAILURES; i++) assert.equal((await login(i % 2 ? b : a, `guess ${i}`)).status, 400);
    for (const node of [a, b]) assert.equal((await login(node, password)).status, 429, 'even the right password waits');

    const guesser = a.world.users[1];
    const guess = (node: typeof a) => node.api('/oauth2/device/verify', { method: 'POST', token: guesser.token, body: { user_code: 'BCDF-GHJK' } });
    for (let i = 0; i < USER_CODE_LIMITS.PER_KEY; i++) assert.equal((await guess(i % 2 ? b : a)).status, 400);
    for (const node of [a, b]) assert.equal((await guess(node)).status, 429);
  });

  test("a Redis that lost its data: event numbers keep increasing, so node B and its sessions still get node A's events", async () => {
    const { a, b } = nodes;
    const heard: number[] = [];
    const off = b.server.ctx.bus.subscribe((e) => void (e.t === 'TEST_NUMBERED' && heard.push(e.d.n)), { remote: true });
    const session = await nodes.connect(b);
    await session.identify(a.world.botToken, { intents: GUILDS | (1 << 9) | (1 << 15) });
    await session.dispatch('GUILD_CREATE', () => true, WAIT);
    const post = async (content: string) => {
      const r = await a.api(`/channels/${a.world.textChannelId}/messages`, { method: 'POST', token: a.world.users[0].token, body: { content } });
      assert.equal(r.status, 200, r.text);
      await session.dispatch('MESSAGE_CREATE', (d) => d.content === content, WAIT);
    };
    try {
      a.server.ctx.bus.publish({ t: 'TEST_NUMBERED', d: { n: 1 } });
      await until(() => heard.includes(1), WAIT, 'the event before the loss');
      await post('before the loss');
      const r = await connectRedis(process.env.REDIS_URL!, 'test-data-loss');
      await deleteKeys(r, a.server.ctx.config.redisPrefix).finally(() => r.quit()); // what a restart without persistence leaves
      a.server.ctx.bus.publish({ t: 'TEST_NUMBERED', d: { n: 2 } });
      await until(() => heard.includes(2), WAIT, 'the event after the loss');
      await post('after the loss');
    } finally {
      off();
    }
  });

  test('a DM call started through node A is the same call on node B: op 13, the answer, one CALL message, one end', async () => {
    const { a, b } = nodes;
    const [alice, bob] = a.world.users;
    const aliceGw = await nodes.connect(a);
    await aliceGw.identify(alice.token);
    const bobGw = await nodes.connect(b);
    await bobGw.identify(bob.token);
    const dm = (await a.api('/users/@me/channels', { method: 'POST', token: alice.token, body: { recipient_id: bob.id } })).body;

    aliceGw.send(4, { guild_id: null, channel_id: dm.id, self_mute: false, self_deaf: false });
    const created = await bobGw.dispatch('CALL_CREATE', (d) => d.channel_id === dm.id, WAIT);
    assert.deepEqual(created.ringing, [bob.id]);
    assert.equal(await calls(b.server.ctx).active(dm.id), true, 'node B knows the call');

    // Op 13 on node B: the call node A started.
    const mark = bobGw.frames.length;
    bobGw.send(13, { channel_id: dm.id });
    const reported = await bobGw.wait((f) => f.t === 'CALL_CREATE' && f.d.channel_id === dm.id && bobGw.frames.indexOf(f) >= mark, WAIT);
    assert.equal(reported.d.message_id, created.message_id);

    // Bob answers through node B: he joins the running call (no second CALL_CREATE) and stops ringing.
    bobGw.send(4, { guild_id: null, channel_id: dm.id, self_mute: false, self_deaf: false });
    const update = await aliceGw.dispatch('CALL_UPDATE', (d) => d.channel_id === dm.id, WAIT);
    assert.deepEqual(update.ringing, []);
    assert.equal(update.message_id, created.message_id);
    await bobGw.dispatch('VOICE_SERVER_UPDATE', (d) => d.channel_id === dm.id, WAIT);

    // Both hang up, each through their own node: one CALL_DELETE, and the CALL message lists both.
    const ended = aliceGw.dispatch('MESSAGE_UPDATE', (d) => d.id === created.message_id, WAIT);
    aliceGw.send(4, { guild_id: null, channel_id: null, self_mute: false, self_deaf: false });
    await bobGw.dispatch('VOICE_STATE_UPDATE', (d) => d.user_id === alice.id && d.channel_id === null, WAIT);
    bobGw.send(4, { guild_id: null, channel_id: null, self_mute: false, self_deaf: false });
    await aliceGw.dispatch('CALL_DELETE', (d) => d.channel_id === dm.id, WAIT);
    assert.deepEqual([...(await ended).call.participants].sort(), [alice.id, bob.id].sort());
    assert.equal(aliceGw.frames.filter((f) => f.t === 'CALL_CREATE' && f.d.channel_id === dm.id).length, 1, 'one call');
    const messages = (await a.api(`/channels/${dm.id}/messages`, { token: alice.token })).body;
    assert.equal(messages.filter((m: any) => m.type === 3).length, 1, 'one CALL message');
    assert.equal(await calls(a.server.ctx).active(dm.id), false);
    assert.equal(await calls(b.server.ctx).active(dm.id), false);
  });

  test('concurrent joins of one call through both nodes make one call', async () => {
    const { a, b } = nodes;
    const [alice, bob] = a.world.users;
    const aliceGw = await nodes.connect(a);
    await aliceGw.identify(alice.token);
    const bobGw = await nodes.connect(b);
    await bobGw.identify(bob.token);
    const dm = (await a.api('/users/@me/channels', { method: 'POST', token: alice.token, body: { recipient_id: bob.id } })).body;
    const callMessages = async () => (await a.api(`/channels/${dm.id}/messages`, { token: alice.token })).body.filter((m: any) => m.type === 3).length;
    const before = await callMessages(); // the DM of the test above
    aliceGw.send(4, { guild_id: null, channel_id: dm.id, self_mute: false, self_deaf: false });
    bobGw.send(4, { guild_id: null, channel_id: dm.id, self_mute: false, self_deaf: false });
    await aliceGw.dispatch('VOICE_SERVER_UPDATE', (d) => d.channel_id === dm.id, WAIT);
    await bobGw.dispatch('VOICE_SERVER_UPDATE', (d) => d.channel_id === dm.id, WAIT);
    await aliceGw.dispatch('VOICE_STATE_UPDATE', (d) => d.user_id === bob.id && d.channel_id === dm.id, WAIT);
    assert.equal(await callMessages(), before + 1, 'one CALL message');
    assert.equal(aliceGw.frames.filter((f) => f.t === 'CALL_CREATE' && f.d.channel_id === dm.id).length, 1, 'one CALL_CREATE');
    aliceGw.send(4, { guild_id: null, channel_id: null, self_mute: false, self_deaf: false });
    bobGw.send(4, { guild_id: null, channel_id: null, self_mute: false, self_deaf: false });
    await aliceGw.dispatch('CALL_DELETE', (d) => d.channel_id === dm.id, WAIT);
  });
});

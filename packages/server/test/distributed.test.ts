import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RawGateway } from './helpers/gateway-client.js';
import { RedisBus, routesFor } from '../src/bus/redis.js';
import { RedisRateLimits } from '../src/http/rate-limit-redis.js';
import { connectRedis, deleteKeys } from '../src/store/redis.js';
import { Clock } from '../src/core/clock.js';
import type { BusEvent } from '../src/bus/bus.js';
import type { Redis } from 'ioredis';
import { RedisVoiceStateStore } from '../src/services/voice/redis-store.js';
import { MemoryVoiceStateStore, type VoiceStateRecord } from '../src/services/voice/states.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';
import { until } from './helpers/wait.js';
import { register } from './helpers/fixtures.js';
import { twoNodes } from './helpers/two-nodes.js';
import { TcpProxy } from './helpers/tcp-proxy.js';
import { enqueueWebhookEvent } from '../src/services/apps/webhook-events/outbox.js';
import { RawVoice, joinOnGateway } from './voice/raw.js';
import { loadChannel } from '../src/services/messages/channel.js';
import { messageRow } from '../src/services/messages/write.js';
import type { Ctx } from '../src/services/context.js';
import type { ChannelRecord } from '../src/store/records.js';
import type { NewFile, NewMessage } from '../src/store/repos/messages.js';

/** A message row written as every create writes it (MessagesRepo.insert: the group commit of its engine). */
const writeMessageRow = async (ctx: Ctx, ch: ChannelRecord, row: NewMessage, files: NewFile[] = []): Promise<void> => {
  await ctx.repos.messages.insert(row, { channelType: ch.type, files });
};

/**
 * Distributed mode on the real engines: two nodes (one PostgreSQL schema, one Redis prefix, two ports). Runs when
 * REDIS_URL and DATABASE_URL are set (the CI's Redis run); skipped otherwise.
 */
const REDIS_URL = process.env.REDIS_URL;
const enabled = !!REDIS_URL && !!process.env.DATABASE_URL;
const GUILDS = 1;
const GUILD_MESSAGES = 1 << 9;
const MESSAGE_CONTENT = 1 << 15;
const GUILD_VOICE_STATES = 1 << 7;

/** Collects what a bus's remote subscribers receive, and resolves waiters on a predicate. */
function collector(bus: RedisBus) {
  const got: BusEvent[] = [];
  const waiters: { pred: (e: BusEvent) => boolean; resolve: () => void }[] = [];
  bus.subscribe(
    (e) => {
      got.push(e);
      for (const w of [...waiters]) {
        if (!w.pred(e)) continue;
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    },
    { remote: true },
  );
  const until = (pred: (e: BusEvent) => boolean) =>
    got.some(pred)
      ? Promise.resolve()
      : new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error('timed out waiting for a bus event')), 15_000);
          waiters.push({ pred, resolve: () => (clearTimeout(timer), resolve()) });
        });
  return { got, until };
}

describe('the Redis event bus', { skip: !REDIS_URL && 'REDIS_URL is unset' }, () => {
  const prefix = `bus_${crypto.randomBytes(4).toString('hex')}:`;
  let a: RedisBus;
  let b: RedisBus;
  before(async () => {
    a = await RedisBus.connect(REDIS_URL!, prefix);
    b = await RedisBus.connect(REDIS_URL!, prefix);
  });
  after(async () => {
    await a?.close();
    await b?.close();
  });

  test('routes by user and guild (message traffic on a channel of its own, kept in the guild stream), control events to everyone', () => {
    const channels = (e: BusEvent) => routesFor(e).map((r) => r.channel);
    assert.deepEqual(routesFor({ t: 'MESSAGE_CREATE', d: {}, guild_id: '1' }), [{ stream: 'guild:1', channel: 'guild:1:traffic' }]);
    assert.deepEqual(channels({ t: 'TYPING_START', d: {}, guild_id: '1' }), ['guild:1:traffic']);
    assert.deepEqual(channels({ t: 'GUILD_CREATE', d: {}, guild_id: '1', user_ids: ['2', '3'] }), ['user:2', 'user:3', 'guild:1']);
    assert.deepEqual(routesFor({ t: '__TOKENS_CHANGED', d: {}, guild_id: '1' }), [{ stream: null, channel: 'all' }]);
    assert.deepEqual(channels({ t: 'USER_NOTE_UPDATE', d: {} }), ['all']);
  });

  test("a guild's changes only: caches of its state do not receive its message traffic", async () => {
    const seen = collector(b);
    await b.watch('guild-changes:40');
    a.publish({ t: 'MESSAGE_CREATE', d: { n: 1 }, guild_id: '40' });
    a.publish({ t: 'GUILD_ROLE_UPDATE', d: { n: 2 }, guild_id: '40' });
    a.publish({ t: '__MARK', d: { n: 3 } });
    await seen.until((e) => e.d.n === 3);
    assert.deepEqual(
      seen.got.map((e) => e.d.n),
      [2, 3],
    );
    b.unwatch('guild-changes:40');
    assert.ok(!b.topics().includes('guild:40'));
  });

  test('a node gets only the topics it watches, once each, and never its own events back', async () => {
    const local: BusEvent[] = [];
    a.subscribe((e) => local.push(e));
    const seen = collector(b);
    await b.watch('guild:10');
    await b.watch('user:20');
    await b.watch('user:21');
    a.publish({ t: 'MESSAGE_CREATE', d: { n: 1 }, guild_id: '99' }); // not watched by b
    a.publish({ t: 'GUILD_CREATE', d: { n: 2 }, guild_id: '10', user_ids: ['20', '21'] }); // three channels, one event
    a.publish({ t: '__MARK', d: { n: 3 } });
    await seen.until((e) => e.t === '__MARK');
    assert.deepEqual(
      seen.got.map((e) => e.d.n),
      [2, 3],
    );
    assert.deepEqual(
      local.map((e) => e.d.n),
      [1, 2, 3],
      'the publisher delivers to itself at once, once',
    );

    // After the last unwatch, the topic's events stop reaching b.
    b.unwatch('guild:10');
    assert.ok(!b.topics().includes('guild:10'));
    a.publish({ t: 'MESSAGE_CREATE', d: { n: 4 }, guild_id: '10' });
    a.publish({ t: '__MARK', d: { n: 5 } });
    await seen.until((e) => e.d.n === 5);
    assert.deepEqual(
      seen.got.map((e) => e.d.n),
      [2, 3, 5],
    );
  });

  test('watches are counted: a topic stays until its last watcher lets go', async () => {
    await b.watch('guild:30');
    await b.watch('guild:30');
    b.unwatch('guild:30');
    assert.ok(b.topics().includes('guild:30'));
    b.unwatch('guild:30');
    assert.ok(!b.topics().includes('guild:30'));
  });

  test('an event with a once key goes out once, however often it is published again', async () => {
    const atA: BusEvent[] = [];
    a.subscribe((e) => e.t === 'ONCE' && atA.push(e));
    const seen = collector(b);
    await b.watch('guild:40');
    a.publish({ t: 'ONCE', d: { n: 1 }, guild_id: '40', once: 'message:1' });
    a.republish({ t: 'ONCE', d: { n: 1 }, guild_id: '40', once: 'message:1' }); // a retry after the first went out
    b.republish({ t: 'ONCE', d: { n: 2 }, guild_id: '40', once: 'message:2' }); // a retry of one that never went out
    await seen.until((e) => e.t === 'ONCE' && e.d.n === 2);
    b.republish({ t: 'ONCE', d: { n: 2 }, guild_id: '40', once: 'message:2' });
    a.publish({ t: '__MARK_ONCE', d: {} });
    await seen.until((e) => e.t === '__MARK_ONCE');
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(
      seen.got
        .filter((e) => e.t === 'ONCE')
        .map((e) => e.d.n)
        .sort(),
      [1, 2],
      'each once',
    );
    assert.deepEqual(
      atA.map((e) => e.d.n),
      [1],
      'a retry whose event went out runs no local side effect again',
    );
    b.unwatch('guild:40');
  });

  test('settled(mark): an answer waits until the events published since its mark are in Redis, and fails if they never got there', async () => {
    const stream = (g: string) => a.eventsAfter(`guild:${g}`, 0);
    const mark = a.mark();
    a.publish({ t: 'SETTLE', d: { n: 1 }, guild_id: '41' });
    let settled = false;
    const done = a.settled(mark).then(() => (settled = true));
    await Promise.resolve();
    assert.equal(settled, false, 'not settled before the publish call went out');
    await done;
    assert.deepEqual(
      (await stream('41'))?.map((s) => s.e.d),
      [{ n: 1 }],
      'stored by the time it settled',
    );
    await a.settled(a.mark()); // nothing published since: settled at once

    const proxy = await TcpProxy.start('127.0.0.1', Number(new URL(REDIS_URL!).port || 6379));
    const c = await RedisBus.connect(proxy.rewrite(REDIS_URL!), prefix);
    try {
      const before = c.mark();
      proxy.cut();
      c.publish({ t: 'SETTLE', d: { n: 2 }, guild_id: '42' });
      await assert.rejects(c.settled(before), (err: any) => err?.status === 503, 'refused as unavailable');
      assert.deepEqual(await stream('42'), [], 'nothing stored');
      await assert.rejects(c.settled(before), 'still failed for an answer that waited on it');
      await c.settled(c.mark()); // a later answer that published nothing is not held by the old failure
    } finally {
      proxy.restore();
      await c.close();
      await proxy.close();
    }
  });
});

describe('the Redis rate-limit store', { skip: !REDIS_URL && 'REDIS_URL is unset' }, () => {
  const prefix = `rl_${crypto.randomBytes(4).toString('hex')}:`;
  let ra: Redis;
  let rb: Redis;
  before(async () => {
    ra = await connectRedis(REDIS_URL!, 'test-a');
    rb = await connectRedis(REDIS_URL!, 'test-b');
  });
  after(async () => {
    await deleteKeys(ra, prefix).catch(() => {});
    await Promise.all([ra.quit(), rb.quit()]);
  });

  test('one window counted by two stores, atomically', async () => {
    const clock = new Clock();
    const x = new RedisRateLimits(ra, prefix, clock);
    const y = new RedisRateLimits(rb, prefix, clock);
    assert.equal(await x.peek('k'), null);
    // 60 concurrent hits from two stores on a limit of 50: exactly 50 are allowed.
    const takes = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? x : y).take('k', 50, 60_000)));
    assert.equal(takes.filter((t) => t.allowed).length, 50);
    const p = await y.peek('k');
    assert.ok(p && !p.allowed && p.remaining === 0 && p.limit === 50);
    assert.equal(new Set(takes.map((t) => t.resetAtMs)).size, 1, 'one window');
    // A window that ended starts over.
    clock.advance(60_001);
    assert.equal(await x.peek('k'), null);
    const fresh = await y.take('k', 50, 60_000);
    assert.deepEqual([fresh.allowed, fresh.remaining], [true, 49]);
  });
});

describe('the Redis voice-state store', { skip: !REDIS_URL && 'REDIS_URL is unset' }, () => {
  const prefix = `vs_${crypto.randomBytes(4).toString('hex')}:`;
  let r: Redis;
  before(async () => {
    r = await connectRedis(REDIS_URL!, 'test-voice');
  });
  after(async () => {
    await deleteKeys(r, prefix).catch(() => {});
    await r.quit();
  });

  const state = (guild: string, user: string, channel: string, session: string): VoiceStateRecord => ({
    guild_id: guild,
    channel_id: channel,
    user_id: user,
    session_id: session,
    deaf: false,
    mute: false,
    self_deaf: false,
    self_mute: false,
    self_stream: false,
    self_video: false,
    suppress: false,
    request_to_speak_timestamp: null,
  });
  const users = (list: VoiceStateRecord[]) => list.map((s) => s.user_id).sort();

  test('answers as the memory store does: moves, leaves, sessions and tokens', async () => {
    const redis = new RedisVoiceStateStore(r, prefix);
    for (const store of [new MemoryVoiceStateStore(), redis]) {
      await store.set(state('g1', 'u1', 'c1', 's1'));
      await store.set(state('g1', 'u2', 'c1', 's2'));
      await store.set(state('g2', 'u1', 'c9', 's1'));
      await store.set({ ...state('g1', 'u1', 'c2', 's1'), self_mute: true }); // a move replaces the state
      assert.deepEqual(users(await store.inChannel('c1')), ['u2']);
      assert.deepEqual(users(await store.inChannel('c2')), ['u1']);
      assert.equal((await store.get('g1', 'u1'))?.self_mute, true);
      assert.deepEqual(users(await store.inGuild('g1')), ['u1', 'u2']);
      assert.deepEqual((await store.bySession('s1')).map((s) => s.guild_id).sort(), ['g1', 'g2']);
      await store.delete('g1', 'u2');
      assert.deepEqual(await store.inChannel('c1'), []);
      assert.equal(await store.get('g1', 'u2'), undefined);
      await store.delete('g1', 'nobody');

      await store.putGrant({ token: 't1', userId: 'u1', guildId: 'g1', channelId: 'c2', sessionId: 's1' });
      await store.putGrant({ token: 't2', userId: 'u1', guildId: 'g1', channelId: 'c2', sessionId: 's1' }); // replaces t1
      assert.equal(await store.grant('t1'), undefined);
      assert.equal((await store.grant('t2'))?.channelId, 'c2');
      await store.revokeGrants('g1', 'u1');
      assert.equal(await store.grant('t2'), undefined);
    }
  });
});

describe('two nodes of one deployment', { skip: !enabled && 'needs REDIS_URL and DATABASE_URL' }, () => {
  let a: TestServer;
  let b: TestServer;
  const open: RawGateway[] = [];
  before(async () => {
    a = await startTestServer({ rateLimits: 'real' });
    b = await startTestServer({ rateLimits: 'real', join: a });
  });
  after(async () => {
    for (const g of open) g.ws.terminate();
    await b?.close();
    await a?.close();
  });
  const connect = async (t: TestServer) => {
    const gw = await RawGateway.connect(t.server.url);
    open.push(gw);
    return gw;
  };

  test('a message posted on node A reaches Gateway sessions on node B, once', async () => {
    const { world } = a;
    const bot = await connect(b);
    await bot.identify(world.botToken, { intents: GUILDS | GUILD_MESSAGES | MESSAGE_CONTENT });
    const bob = await connect(b);
    await bob.identify(world.users[1].token);
    const first = await a.api(`/channels/${world.textChannelId}/messages`, { method: 'POST', token: world.users[0].token, body: { content: 'from node A' } });
    assert.equal(first.status, 200);
    const atBot = await bot.dispatch('MESSAGE_CREATE', (d) => d.id === first.body.id, 15_000);
    assert.equal(atBot.content, 'from node A');
    await bob.dispatch('MESSAGE_CREATE', (d) => d.id === first.body.id, 15_000);
    // Barrier: a second message from the same node arrives after any copy of the first.
    const second = await a.api(`/channels/${world.textChannelId}/messages`, { method: 'POST', token: world.users[0].token, body: { content: 'again' } });
    await bob.dispatch('MESSAGE_CREATE', (d) => d.id === second.body.id, 15_000);
    await bot.dispatch('MESSAGE_CREATE', (d) => d.id === second.body.id, 15_000);
    for (const gw of [bob, bot]) assert.equal(gw.frames.filter((f) => f.t === 'MESSAGE_CREATE' && f.d.id === first.body.id).length, 1);
  });

  test('node B listens to the guild and user of its sessions only while they last', async () => {
    const bus = b.server.ctx.bus as RedisBus;
    const alice = a.world.users[0];
    const before = bus.topics();
    const gw = await connect(b);
    await gw.identify(alice.token);
    assert.ok(bus.topics().includes(`user:${alice.id}`));
    assert.ok(bus.topics().includes(`guild:${a.world.guildId}`));
    gw.close(1000);
    await gw.closed;
    await waitFor(() => !bus.topics().includes(`user:${alice.id}`));
    assert.deepEqual(
      bus
        .topics()
        .filter((t) => t.startsWith('user:'))
        .sort(),
      before.filter((t) => t.startsWith('user:')).sort(),
    );
  });

  test("voice states are shared: a join on node A shows in node B's sessions", async () => {
    const { world } = a;
    const [alice, bob] = world.users;
    const atB = await connect(b);
    await atB.identify(bob.token);
    const atA = await connect(a);
    await atA.identify(alice.token);
    atA.send(4, { guild_id: world.guildId, channel_id: world.voiceChannelId, self_mute: false, self_deaf: false });
    const update = await atB.dispatch('VOICE_STATE_UPDATE', (d) => d.user_id === alice.id && d.channel_id === world.voiceChannelId, 15_000);
    assert.equal(update.guild_id, world.guildId);
    // A session that identifies on node B lists alice in the guild's voice states.
    const bot = await connect(b);
    await bot.identify(world.botToken, { intents: GUILDS | GUILD_VOICE_STATES });
    const guild = await bot.dispatch('GUILD_CREATE', (d) => d.id === world.guildId, 15_000);
    assert.deepEqual(
      guild.voice_states.map((s: any) => [s.user_id, s.channel_id]),
      [[alice.id, world.voiceChannelId]],
    );
    atA.send(4, { guild_id: world.guildId, channel_id: null, self_mute: false, self_deaf: false });
    await atB.dispatch('VOICE_STATE_UPDATE', (d) => d.user_id === alice.id && d.channel_id === null, 15_000);
  });

  test('a voice channel is served by one voice server, whichever node its users joined through', async () => {
    const [alice, bob] = a.world.users;
    const viaA = await joinOnGateway(a, alice.token);
    const viaB = await joinOnGateway(b, bob.token);
    open.push(viaA.gw, viaB.gw);
    assert.equal(viaA.endpoint, viaB.endpoint, 'both are sent to the same voice server');
    const owner = [a, b].find((t) => t.server.voice.states.endpoint === viaA.endpoint);
    assert.ok(owner, `${viaA.endpoint} is one of the two nodes' voice servers`);
    // The user who joined through the other node connects to the owner, then leaves through their own node: the owner
    // hears it over the bus and ends the voice session.
    const far = owner === a ? { t: b, join: viaB } : { t: a, join: viaA };
    const voice = await RawVoice.connect(owner);
    voice.send(0, far.join.identify());
    await voice.op(2, 15_000);
    far.join.gw.send(4, { guild_id: a.world.guildId, channel_id: null, self_mute: false, self_deaf: false });
    const closed = await Promise.race([voice.closed, new Promise<null>((r) => setTimeout(() => r(null), 15_000))]);
    assert.ok(closed, 'the voice session ended when its user left through another node');
    const near = far.join === viaA ? viaB : viaA;
    near.gw.send(4, { guild_id: a.world.guildId, channel_id: null, self_mute: false, self_deaf: false });
    await near.gw.dispatch('VOICE_STATE_UPDATE', (d) => d.user_id === near.userId && d.channel_id === null, 15_000);
  });

  test('presences are shared: a session on node B sees who is online on node A', async () => {
    const [alice, bob] = a.world.users;
    const atA = await connect(a);
    await atA.identify(alice.token, { presence: { status: 'dnd', activities: [], since: null, afk: false } });
    await until(() => b.server.ctx.presences.visible(alice.id).status === 'dnd', 15_000);
    const atB = await connect(b);
    await atB.identify(bob.token);
    const guild = await atB.dispatch('GUILD_CREATE', (d) => d.id === a.world.guildId, 15_000);
    assert.equal(guild.presences.find((p: any) => p.user.id === alice.id)?.status, 'dnd');
    atA.send(3, { status: 'idle', activities: [], since: null, afk: false });
    await until(() => b.server.ctx.presences.visible(alice.id).status === 'idle', 15_000);
  });

  test('a user who joins a guild through node A gets its events in a session on node B', async () => {
    const alice = a.world.users[0];
    const guild = await a.api('/guilds', { method: 'POST', token: alice.token, body: { name: 'Joined elsewhere' } });
    assert.equal(guild.status, 201, guild.text);
    const channels = await a.api(`/guilds/${guild.body.id}/channels`, { token: alice.token });
    const text = channels.body.find((c: any) => c.type === 0);
    const carol = await register(a, `carol_${crypto.randomBytes(2).toString('hex')}`);
    const gw = await connect(b);
    await gw.identify(carol.token);
    const bus = b.server.ctx.bus as RedisBus;
    assert.ok(!bus.topics().includes(`guild:${guild.body.id}`), 'no session of node B is in the new guild yet');
    const inv = await a.api(`/channels/${text.id}/invites`, { method: 'POST', token: alice.token, body: {} });
    assert.equal(inv.status, 200, inv.text);
    const joined = await a.api(`/invites/${inv.body.code}`, { method: 'POST', token: carol.token });
    assert.equal(joined.status, 200, joined.text);
    await gw.dispatch('GUILD_CREATE', (d) => d.id === guild.body.id, 15_000);
    assert.ok(bus.topics().includes(`guild:${guild.body.id}`));
    // Node B heard the guild before it sent GUILD_CREATE: a message posted on node A right after reaches carol.
    const m = await a.api(`/channels/${text.id}/messages`, { method: 'POST', token: alice.token, body: { content: 'welcome' } });
    assert.equal(m.status, 200, m.text);
    const got = await gw.dispatch('MESSAGE_CREATE', (d) => d.id === m.body.id, 15_000);
    assert.equal(got.content, 'welcome');
  });

  test('a message bucket is shared by both nodes', async () => {
    await frozen([a, b], async () => {
      const { world } = a;
      const post = (t: TestServer) =>
        t.api(`/channels/${world.textChannelId}/messages`, { method: 'POST', token: world.users[1].token, body: { content: 'bucket' } });
      const remaining: string[] = [];
      for (const t of [a, b, a, b, a]) {
        const r = await post(t);
        assert.equal(r.status, 200);
        remaining.push(r.headers.get('x-ratelimit-remaining')!);
      }
      assert.deepEqual(remaining, ['4', '3', '2', '1', '0']);
      const refused = await post(b);
      assert.equal(refused.status, 429);
      assert.equal(refused.headers.get('x-ratelimit-scope'), 'user');
      assert.equal(refused.body.global, false);
    });
  });

  test('the global limit is per bot across nodes', async () => {
    await frozen([a, b], async () => {
      const { world } = a;
      // Two routes (25 requests each, under their own limits), on both nodes: 50 in all, then the global limit.
      const paths = [`/channels/${world.textChannelId}`, `/guilds/${world.guildId}`];
      for (let i = 0; i < 50; i++) {
        const r = await (i % 2 ? a : b).api(paths[Math.floor(i / 2) % 2], { token: world.botToken, bot: true });
        assert.equal(r.status, 200, `request ${i}`);
      }
      const refused = await a.api(paths[0], { token: world.botToken, bot: true });
      assert.equal(refused.status, 429);
      assert.equal(refused.headers.get('x-ratelimit-global'), 'true');
      assert.equal(refused.body.global, true);
    });
  });
});

describe('a message create retried on another node', { skip: !enabled && 'needs REDIS_URL and DATABASE_URL' }, () => {
  const nodes = twoNodes();

  test('a nonce-enforced message a node committed but never published reaches sessions when the client retries on another node, once', async () => {
    const { a, b, connect } = nodes;
    const { world } = a;
    const alice = world.users[0];
    const bob = await connect(b);
    await bob.identify(world.users[1].token);
    // Node A "dies" between its commit and its publish: the row exists, no MESSAGE_CREATE went out.
    const ctx = a.server.ctx;
    const ch = await loadChannel(ctx, world.textChannelId);
    const nonce = `n${crypto.randomBytes(6).toString('hex')}`;
    const row = { ...messageRow(ctx, ch, alice.id, 0), content: 'committed, never published', nonce };
    await writeMessageRow(ctx, ch, row);
    const post = (t: TestServer) =>
      t.api(`/channels/${world.textChannelId}/messages`, {
        method: 'POST',
        token: alice.token,
        body: { content: 'committed, never published', nonce, enforce_nonce: true },
      });
    const retried = await post(b);
    assert.equal(retried.status, 200, retried.text);
    assert.equal(retried.body.id, row.id, 'the retry answers with the committed message');
    await bob.dispatch('MESSAGE_CREATE', (d) => d.id === row.id, 15_000);
    // Retried again, on either node: the event was published, so nothing goes out a second time.
    assert.equal((await post(a)).body.id, row.id);
    assert.equal((await post(b)).body.id, row.id);
    // And a create whose node published (the usual case) is not published again by a retry.
    const nonce2 = `n${crypto.randomBytes(6).toString('hex')}`;
    const sent = await a.api(`/channels/${world.textChannelId}/messages`, {
      method: 'POST',
      token: alice.token,
      body: { content: 'published', nonce: nonce2, enforce_nonce: true },
    });
    const again = await b.api(`/channels/${world.textChannelId}/messages`, {
      method: 'POST',
      token: alice.token,
      body: { content: 'published', nonce: nonce2, enforce_nonce: true },
    });
    assert.equal(again.body.id, sent.body.id);
    // Node B's republishes went to Redis before this read on the same connection: the barrier is numbered after them.
    await (b.server.ctx.bus as RedisBus).position();
    const barrier = await a.api(`/channels/${world.textChannelId}/messages`, { method: 'POST', token: alice.token, body: { content: 'barrier' } });
    await bob.dispatch('MESSAGE_CREATE', (d) => d.id === barrier.body.id, 15_000);
    for (const id of [row.id, sent.body.id]) assert.equal(bob.frames.filter((f) => f.t === 'MESSAGE_CREATE' && f.d.id === id).length, 1, id);
  });
});

describe('the webhook-event outbox on two nodes', { skip: !enabled && 'needs REDIS_URL and DATABASE_URL' }, () => {
  let a: TestServer;
  let b: TestServer;
  let receiver: WebhookReceiver;
  before(async () => {
    a = await startTestServer();
    b = await startTestServer({ join: a });
    receiver = await WebhookReceiver.start();
    const owner = a.world.users[0].token;
    const me = await a.api(`/applications/${a.world.applicationId}`, { token: owner });
    receiver.publicKey = me.body.verify_key;
    const r = await a.api(`/applications/${a.world.applicationId}`, {
      method: 'PATCH',
      token: owner,
      body: { event_webhooks_url: receiver.url, event_webhooks_status: 2, event_webhooks_types: ['APPLICATION_AUTHORIZED', 'QUEST_USER_ENROLLMENT'] },
    });
    assert.equal(r.status, 200, r.text);
  });
  after(async () => {
    await b?.close();
    await a?.close();
    await receiver?.close();
  });

  const rows = (type: string) =>
    a.server.ctx.repos.store.db.selectFrom('event_webhook_outbox').select(['id', 'status']).where('event_type', '=', type).execute();

  test('both workers take events from one outbox; each is sent once', { timeout: 60_000 }, async () => {
    const N = 40;
    // Half enqueued on each node, so both workers are woken and race for the same rows.
    await Promise.all(
      Array.from({ length: N }, (_, n) => enqueueWebhookEvent((n % 2 ? a : b).server.ctx, a.world.applicationId, 'QUEST_USER_ENROLLMENT', { n })),
    );
    await until(async () => (await rows('QUEST_USER_ENROLLMENT')).every((r) => r.status === 'delivered'), 30_000, 'every event delivered');
    const got = receiver
      .events('QUEST_USER_ENROLLMENT')
      .map((r) => r.body.event.data.n)
      .sort((x, y) => x - y);
    assert.deepEqual(
      got,
      Array.from({ length: N }, (_, n) => n),
      'each event exactly once',
    );
    const attempts = await a.server.ctx.repos.store.db
      .selectFrom('event_webhook_deliveries')
      .select('event_id')
      .where('event_type', '=', 'QUEST_USER_ENROLLMENT')
      .execute();
    assert.equal(attempts.length, N);
    assert.equal(new Set(attempts.map((x) => String(x.event_id))).size, N);
  });

  test('an event the bus carries to every node is enqueued once, by the node that published it', { timeout: 60_000 }, async () => {
    const seenOnB = collector(b.server.ctx.bus as RedisBus);
    a.server.ctx.bus.publish({
      t: '__APPLICATION_AUTHORIZED',
      d: { application_id: a.world.applicationId, user: { id: a.world.users[1].id }, integration_type: 1, scopes: ['applications.commands'] },
    });
    await seenOnB.until((e) => e.t === '__APPLICATION_AUTHORIZED');
    await until(async () => (await rows('APPLICATION_AUTHORIZED')).some((r) => r.status === 'delivered'), 30_000, 'APPLICATION_AUTHORIZED delivered');
    // An enqueue by b (its producers hear only local events) would have started when the event reached it, above.
    assert.equal((await rows('APPLICATION_AUTHORIZED')).length, 1);
    assert.equal(receiver.events('APPLICATION_AUTHORIZED').length, 1);
  });
});

/** Runs with the nodes' clocks stopped, so fixed windows cannot roll over however slow the machine is. */
async function frozen(nodes: TestServer[], fn: () => Promise<void>): Promise<void> {
  const at = Date.now();
  for (const n of nodes) n.server.ctx.clock.now = () => at;
  try {
    await fn();
  } finally {
    for (const n of nodes) delete (n.server.ctx.clock as any).now;
  }
}

async function waitFor(pred: () => boolean, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!pred()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

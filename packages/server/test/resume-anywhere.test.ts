import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RawGateway, type Frame } from './helpers/gateway-client.js';
import { until } from './helpers/wait.js';
import { createUser } from '../src/services/identity/users.js';
import { issueToken } from '../src/services/identity/tokens.js';
import { addMember } from '../src/services/guilds/membership.js';

/**
 * Distributed mode: a session resumes on any node, rebuilt from its record and the bus's streams, with every frame
 * it missed once, in order, under the seqs the first node would have used. Runs with REDIS_URL and DATABASE_URL.
 */
const enabled = !!process.env.REDIS_URL && !!process.env.DATABASE_URL;
const GUILDS = 1;
const GUILD_MESSAGES = 1 << 9;

/** Dispatch frames after READY, by seq, checked to be gapless. */
function dispatches(gw: RawGateway): Frame[] {
  const out = gw.frames.filter((f) => f.op === 0);
  out.forEach((f, i) => assert.equal(f.s, i + 1, `seq ${f.s} at position ${i + 1}: ${out.map((x) => `${x.s}:${x.t}`).join(' ')}`));
  return out;
}

describe('resuming on another node', { skip: !enabled && 'needs REDIS_URL and DATABASE_URL' }, () => {
  let a: TestServer;
  let b: TestServer;
  let c: TestServer | null = null;
  const open: RawGateway[] = [];
  before(async () => {
    a = await startTestServer();
    b = await startTestServer({ join: a });
  });
  after(async () => {
    for (const g of open) g.ws.terminate();
    await c?.close();
    await b?.close();
    await a?.close().catch(() => {});
  });
  const connect = async (t: TestServer) => {
    const gw = await RawGateway.connect(t.server.url);
    open.push(gw);
    return gw;
  };
  const post = async (t: TestServer, content: string, token = a.world.users[1].token) => {
    const r = await t.api(`/channels/${a.world.textChannelId}/messages`, { method: 'POST', token, body: { content } });
    assert.equal(r.status, 200, r.text);
    return r.body.id as string;
  };
  /** Drops the socket without a close frame, as a network failure does: the session stays resumable. */
  const drop = async (gw: RawGateway) => {
    gw.ws.terminate();
    await gw.closed;
  };
  const lastSeq = (gw: RawGateway) => Math.max(0, ...gw.frames.map((f) => f.s ?? 0));

  test('a dropped session resumes on the other node with what it missed, once, in order', async () => {
    const alice = a.world.users[0];
    const first = await connect(a);
    const ready = await first.identify(alice.token);
    await first.dispatch('GUILD_CREATE', (d) => d.id === a.world.guildId, 15_000);
    const m1 = await post(a, 'before the drop');
    await first.dispatch('MESSAGE_CREATE', (d) => d.id === m1, 15_000);
    const seq = lastSeq(first);
    await drop(first);
    const missed = [await post(a, 'missed 1'), await post(b, 'missed 2'), await post(a, 'missed 3')];
    await until(async () => (await b.api(`/channels/${a.world.textChannelId}/messages?limit=1`, { token: alice.token })).body[0]?.id === missed[2]);

    const second = await connect(b);
    await second.wait((f) => f.op === 10);
    second.send(6, { token: alice.token, session_id: ready.session_id, seq });
    await second.dispatch('RESUMED', () => true, 15_000);
    const replayed = second.frames.filter((f) => f.op === 0 && f.t === 'MESSAGE_CREATE').map((f) => [f.s, f.d.id, f.d.content]);
    assert.deepEqual(
      replayed,
      missed.map((id, i) => [seq + 1 + i, id, `missed ${i + 1}`]),
    );
    const resumed = second.frames.find((f) => f.t === 'RESUMED')!;
    assert.equal(resumed.s, seq + 4);

    // Live from now on, on node B, and node A no longer holds the session.
    const m5 = await post(a, 'after');
    const live = await second.wait((f) => f.t === 'MESSAGE_CREATE' && f.d.id === m5, 15_000);
    assert.equal(live.s, seq + 5);
    await until(() => !a.server.gateway.sessions.has(ready.session_id));
    assert.ok(b.server.gateway.sessions.has(ready.session_id));
  });

  test("a bot's view is rebuilt too: intents and the content it may not read", async () => {
    const bot = await connect(a);
    const ready = await bot.identify(a.world.botToken, { intents: GUILDS | GUILD_MESSAGES }); // no MESSAGE_CONTENT
    await bot.dispatch('GUILD_CREATE', (d) => d.id === a.world.guildId, 15_000);
    const seq = lastSeq(bot);
    await drop(bot);
    const id = await post(a, 'secret words');
    await a.api(`/channels/${a.world.textChannelId}/typing`, { method: 'POST', token: a.world.users[1].token }); // needs GUILD_MESSAGE_TYPING: never sent
    const again = await connect(b);
    await again.wait((f) => f.op === 10);
    again.send(6, { token: a.world.botToken, session_id: ready.session_id, seq });
    await again.dispatch('RESUMED', () => true, 15_000);
    const got = again.frames.filter((f) => f.op === 0);
    assert.deepEqual(
      got.map((f) => [f.s, f.t]),
      [
        [seq + 1, 'MESSAGE_CREATE'],
        [seq + 2, 'RESUMED'],
      ],
    );
    assert.equal(got[0].d.id, id);
    assert.equal(got[0].d.content, '', 'without MESSAGE_CONTENT the content is blank, as it was live');
  });

  test("after a heartbeat the frames before it are not needed: a node's death loses nothing", async () => {
    c = await startTestServer({ join: a });
    const bob = a.world.users[1];
    const gw = await connect(c);
    const ready = await gw.identify(bob.token);
    await gw.dispatch('GUILD_CREATE', (d) => d.id === a.world.guildId, 15_000);
    const m1 = await post(a, 'acknowledged', a.world.users[0].token);
    await gw.dispatch('MESSAGE_CREATE', (d) => d.id === m1, 15_000);
    gw.send(1, lastSeq(gw));
    await gw.wait((f) => f.op === 11, 15_000);
    const m2 = await post(a, 'unacknowledged', a.world.users[0].token);
    await gw.dispatch('MESSAGE_CREATE', (d) => d.id === m2, 15_000);
    const seq = lastSeq(gw) - 1; // the client lost the last frame
    // Node C goes away with the session still on it (its records stay in Redis, as after a crash).
    await drop(gw);
    await c.close();
    c = null;
    const m3 = await post(b, 'while the node was gone', a.world.users[0].token);
    const again = await connect(b);
    await again.wait((f) => f.op === 10);
    again.send(6, { token: bob.token, session_id: ready.session_id, seq });
    await again.dispatch('RESUMED', () => true, 15_000);
    assert.deepEqual(
      again.frames.filter((f) => f.op === 0).map((f) => [f.s, f.t, f.d.id ?? null]),
      [
        [seq + 1, 'MESSAGE_CREATE', m2],
        [seq + 2, 'MESSAGE_CREATE', m3],
        [seq + 3, 'RESUMED', null],
      ],
    );
    const all = [...gw.frames.filter((f) => f.op === 0 && (f.s ?? 0) <= seq), ...again.frames];
    dispatches({ frames: all } as RawGateway);
  });

  test('a client that lost its first GUILD_CREATE gets it built again on the other node', async () => {
    const carol = a.world.users[2] ?? a.world.users[0];
    const gw = await connect(a);
    const ready = await gw.identify(carol.token);
    const live = await gw.dispatch('GUILD_CREATE', (d) => d.id === a.world.guildId, 15_000);
    await drop(gw);
    const id = await post(b, 'after the guild');
    const again = await connect(b);
    await again.wait((f) => f.op === 10);
    again.send(6, { token: carol.token, session_id: ready.session_id, seq: 1 }); // READY only
    await again.dispatch('RESUMED', () => true, 15_000);
    const got = again.frames.filter((f) => f.op === 0);
    // What the first socket got after READY comes again, in the same order, then what it missed.
    const before = gw.frames.filter((f) => f.op === 0 && f.t !== 'READY').map((f) => f.t);
    assert.deepEqual(
      got.slice(0, before.length).map((f) => f.t),
      before,
    );
    assert.deepEqual(
      got.slice(-2).map((f) => f.t),
      ['MESSAGE_CREATE', 'RESUMED'],
    );
    assert.deepEqual(
      got.map((f) => f.s),
      got.map((_, i) => i + 2),
    );
    const rebuilt = got.find((f) => f.d?.id === a.world.guildId)!.d;
    assert.equal(rebuilt.name, live.name);
    assert.deepEqual(rebuilt.channels.map((c: any) => c.id).sort(), live.channels.map((c: any) => c.id).sort());
    assert.equal(got.find((f) => f.t === 'MESSAGE_CREATE')!.d.id, id);
  });

  test('a node that shuts down leaves its sessions to the others', async () => {
    const d = await startTestServer({ join: a });
    const bob = a.world.users[1];
    const gw = await connect(d);
    const ready = await gw.identify(bob.token);
    await gw.dispatch('GUILD_CREATE', (x) => x.id === a.world.guildId, 15_000);
    await d.close();
    assert.equal(await gw.closed, 1001);
    const id = await post(a, 'after the shutdown', a.world.users[0].token);
    const again = await connect(b);
    await again.wait((f) => f.op === 10);
    again.send(6, { token: bob.token, session_id: ready.session_id, seq: lastSeq(gw) });
    await again.dispatch('RESUMED', () => true, 15_000);
    assert.deepEqual(
      again.frames.filter((f) => f.t === 'MESSAGE_CREATE').map((f) => [f.s, f.d.id]),
      [[lastSeq(gw) + 1, id]],
    );
  });

  test('in a large guild, the presences a session follows (op 8) are followed again after a resume elsewhere', async () => {
    const ctx = a.server.ctx;
    const crowd: { id: string; token: string }[] = [];
    for (let i = 0; i < 55; i++) {
      const u = await createUser(ctx, { username: `crowd_${i}_${Date.now() % 100000}` });
      await addMember(ctx, a.world.guildId, u.id);
      crowd.push({ id: u.id, token: await issueToken(ctx, u.id, 'user') });
    }
    const [watcher, watched] = crowd;
    const gw = await connect(a);
    const ready = await gw.identify(watcher.token, { large_threshold: 50 });
    await gw.dispatch('GUILD_CREATE', (d) => d.id === a.world.guildId, 15_000);
    gw.send(8, { guild_id: a.world.guildId, query: '', limit: 0, presences: true });
    await gw.dispatch('GUILD_MEMBERS_CHUNK', () => true, 15_000);
    const other = await connect(b);
    await other.identify(watched.token, { presence: { status: 'idle', activities: [], since: null, afk: false } });
    await gw.dispatch('PRESENCE_UPDATE', (d) => d.user.id === watched.id && d.status === 'idle', 15_000);
    const seq = lastSeq(gw);
    await drop(gw);
    other.send(3, { status: 'dnd', activities: [], since: null, afk: false });
    const id = await post(b, 'after the presence');
    const again = await connect(b);
    await again.wait((f) => f.op === 10);
    again.send(6, { token: watcher.token, session_id: ready.session_id, seq });
    await again.dispatch('RESUMED', () => true, 15_000);
    const got = again.frames.filter((f) => f.op === 0);
    assert.deepEqual(
      got.map((f) => f.s),
      got.map((_, i) => seq + 1 + i),
      'seqs continue where the first node left off',
    );
    assert.ok(
      got.some((f) => f.t === 'PRESENCE_UPDATE' && f.d.user.id === watched.id && f.d.status === 'dnd'),
      'the followed presence came',
    );
    assert.ok(got.some((f) => f.t === 'MESSAGE_CREATE' && f.d.id === id));
  });

  test('a session that ended cannot be resumed anywhere, nor with another token', async () => {
    const alice = a.world.users[0];
    const gw = await connect(a);
    const ready = await gw.identify(alice.token);
    await gw.dispatch('GUILD_CREATE', () => true, 15_000);
    const seq = lastSeq(gw);
    await drop(gw);
    const wrong = await connect(b);
    await wrong.wait((f) => f.op === 10);
    wrong.send(6, { token: a.world.users[1].token, session_id: ready.session_id, seq });
    assert.equal((await wrong.wait((f) => f.op === 9, 15_000)).d, false);

    const ok = await connect(b);
    await ok.wait((f) => f.op === 10);
    ok.send(6, { token: alice.token, session_id: ready.session_id, seq });
    await ok.dispatch('RESUMED', () => true, 15_000);
    ok.close(1000); // a clean close ends it
    await ok.closed;
    await until(() => !b.server.gateway.sessions.has(ready.session_id));
    const late = await connect(a);
    await late.wait((f) => f.op === 10);
    late.send(6, { token: alice.token, session_id: ready.session_id, seq });
    assert.equal((await late.wait((f) => f.op === 9, 15_000)).d, false);
  });
});

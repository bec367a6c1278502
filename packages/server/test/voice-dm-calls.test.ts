/**
 * DM and group-DM calls over raw Gateway and voice gateway clients, with davey as the DAVE client: op 4 with
 * `guild_id: null`, CALL_CREATE ringing the other recipients, VOICE_STATE_UPDATE and VOICE_SERVER_UPDATE without a
 * guild (the server update carries `channel_id`), the voice gateway taking the channel id as its server id, DAVE
 * among the callers, CALL_UPDATE as the rung join, CALL_DELETE and the CALL message's record when the last one leaves,
 * op 13 Request Call Connect, the refusals (non-recipients, bots, blocks), and the voice close codes 4021 (rate
 * limited) and 4022 (call terminated).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RawGateway } from './helpers/gateway-client.js';
import { gatewaySynced } from './helpers/barriers.js';
import { until } from './helpers/wait.js';
import { RawVoice, joinOnGateway } from './voice/raw.js';
import { DaveClient } from './voice/dave-client.js';
import { makeBot } from './voice/harness.js';
import { register } from '../src/services/identity/users.js';

/** Generous: these tests run beside others on a loaded machine. */
const WAIT = 20_000;

interface Caller {
  id: string;
  token: string;
  gw: RawGateway;
}

describe('DM and group-DM calls', { timeout: 180_000 }, () => {
  let t: TestServer;
  let alice: Caller, bob: Caller, carol: Caller, dave: Caller;
  const open: { close(): void }[] = [];
  const track = <T extends { close(): void }>(x: T) => (open.push(x), x);

  async function connectUser(token: string): Promise<RawGateway> {
    const gw = track(await RawGateway.connect(t.server.url));
    await gw.identify(token);
    return gw;
  }

  async function newUser(name: string): Promise<Caller> {
    const { token, user } = await register(t.server.ctx, {
      username: `${name}_${Date.now() % 100000}`,
      globalName: name,
      email: `${name}_${Date.now()}@accord.local`,
      password: `password-${name}`,
    });
    return { id: user.id, token, gw: await connectUser(token) };
  }

  /** Op 4 into a call; resolves with this session's VOICE_SERVER_UPDATE. */
  async function join(c: Caller, channelId: string) {
    const mark = c.gw.frames.length;
    c.gw.send(4, { guild_id: null, channel_id: channelId, self_mute: false, self_deaf: false });
    // This call's server update (a guild join's may still be arriving: it carries no channel_id).
    const server = await c.gw.wait((f) => f.t === 'VOICE_SERVER_UPDATE' && f.d.channel_id === channelId && c.gw.frames.indexOf(f) >= mark, WAIT);
    const state = c.gw.frames.find((f, i) => i >= mark && f.t === 'VOICE_STATE_UPDATE' && f.d.user_id === c.id && f.d.channel_id === channelId);
    assert.ok(state, 'VOICE_STATE_UPDATE for the joiner');
    assert.ok(c.gw.frames.indexOf(state!) < c.gw.frames.indexOf(server), 'VOICE_STATE_UPDATE before VOICE_SERVER_UPDATE');
    return { server: server.d, state: state!.d };
  }

  /** Voice gateway: Identify with the call's channel id as server id, Select Protocol, DAVE through davey. */
  async function connectVoice(c: Caller, channelId: string, j: Awaited<ReturnType<typeof join>>) {
    const v = track(await RawVoice.connect(t));
    const dv = new DaveClient(v, c.id, channelId);
    v.send(0, { server_id: channelId, user_id: c.id, session_id: j.state.session_id, token: j.server.token, max_dave_protocol_version: 1 });
    const ready = await v.op(2, WAIT);
    v.send(1, { protocol: 'udp', data: { address: '127.0.0.1', port: 40000, mode: ready.d.modes[0] } });
    const desc = await v.op(4, WAIT);
    return { v, dv, desc: desc.d };
  }

  before(async () => {
    t = await startTestServer();
    const [a, b] = t.world.users;
    alice = { id: a.id, token: a.token, gw: await connectUser(a.token) };
    bob = { id: b.id, token: b.token, gw: await connectUser(b.token) };
    carol = await newUser('carol');
    dave = await newUser('dave');
  });

  after(async () => {
    for (const x of open)
      try {
        x.close();
      } catch {}
    await t?.close();
  });

  test('a DM call: CALL_CREATE rings the other, both join without a guild and reach DAVE; the last to leave ends it', async () => {
    const dm = (await t.api('/users/@me/channels', { method: 'POST', token: alice.token, body: { recipient_id: bob.id } })).body;
    const a = await join(alice, dm.id);
    const created = await Promise.all([alice, bob].map((c) => c.gw.dispatch('CALL_CREATE', (d) => d.channel_id === dm.id, WAIT)));
    for (const d of created) {
      assert.deepEqual(d.ringing, [bob.id], 'the other recipient is rung');
      assert.equal(typeof d.message_id, 'string');
      assert.equal(d.region, 'local');
      assert.ok(Array.isArray(d.voice_states));
    }
    assert.equal(a.state.guild_id, null);
    assert.equal(a.state.session_id, alice.gw.frames.find((f) => f.t === 'READY')!.d.session_id, 'the gateway session id');
    assert.deepEqual(Object.keys(a.server).sort(), ['channel_id', 'endpoint', 'guild_id', 'token']);
    assert.equal(a.server.guild_id, null);
    assert.equal(a.server.channel_id, dm.id);
    assert.equal(a.server.endpoint, t.server.voice.states.endpoint);
    await bob.gw.dispatch('VOICE_STATE_UPDATE', (d) => d.user_id === alice.id && d.channel_id === dm.id, WAIT);

    const message = (await t.api(`/channels/${dm.id}/messages/${created[0].message_id}`, { token: bob.token })).body;
    assert.equal(message.type, 3, 'a CALL message');
    assert.equal(message.author.id, alice.id);
    assert.deepEqual(message.call, { participants: [alice.id], ended_timestamp: null }, 'the caller takes part from the start');

    const b = await join(bob, dm.id);
    const update = await alice.gw.dispatch('CALL_UPDATE', (d) => d.channel_id === dm.id, WAIT);
    assert.deepEqual(update.ringing, [], 'bob answered: nobody is rung any more');
    assert.equal(update.message_id, created[0].message_id);

    const va = await connectVoice(alice, dm.id, a);
    const vb = await connectVoice(bob, dm.id, b);
    for (const x of [va, vb]) {
      assert.equal(x.desc.dave_protocol_version, 1, 'DM calls are end-to-end encrypted');
      assert.equal(x.desc.secret_key.length, 32);
    }
    await until(() => va.dv.privacyCode && va.dv.privacyCode === vb.dv.privacyCode, WAIT, 'one DAVE group for the call');
    assert.deepEqual([...va.dv.errors, ...vb.dv.errors], []);
    assert.ok(
      va.v.frames.some((f) => f.op === 11 && f.d.user_ids.includes(bob.id)),
      'alice hears of bob (op 11)',
    );

    // Alice hangs up: her voice socket closes 4014, bob sees her go, the call goes on.
    alice.gw.send(4, { guild_id: null, channel_id: null, self_mute: false, self_deaf: false });
    assert.equal((await va.v.closed).code, 4014);
    await bob.gw.dispatch('VOICE_STATE_UPDATE', (d) => d.user_id === alice.id && d.channel_id === null, WAIT);
    await vb.v.wait((f) => f.op === 13 && f.d.user_id === alice.id, WAIT);
    await gatewaySynced(t.server, alice.gw, bob.gw);
    assert.ok(!alice.gw.frames.some((f) => f.t === 'CALL_DELETE'), 'bob is still in the call');

    const ended = alice.gw.dispatch('MESSAGE_UPDATE', (d) => d.id === created[0].message_id, WAIT);
    bob.gw.send(4, { guild_id: null, channel_id: null, self_mute: false, self_deaf: false });
    for (const c of [alice, bob]) assert.deepEqual(await c.gw.dispatch('CALL_DELETE', (d) => d.channel_id === dm.id, WAIT), { channel_id: dm.id });
    assert.equal((await vb.v.closed).code, 4014);
    const record = (await ended).call;
    assert.deepEqual([...record.participants].sort(), [alice.id, bob.id].sort());
    assert.ok(!Number.isNaN(Date.parse(record.ended_timestamp)), 'ended_timestamp is ISO8601');
  });

  test('a group DM call with three recipients: ringing shrinks as they join, all share one DAVE group; op 13 reports it', async () => {
    const group = (await t.api('/users/@me/channels', { method: 'POST', token: alice.token, body: { recipients: [bob.id, carol.id] } })).body;
    assert.equal(group.type, 3);
    const a = await join(alice, group.id);
    for (const c of [alice, bob, carol]) {
      const d = await c.gw.dispatch('CALL_CREATE', (x) => x.channel_id === group.id, WAIT);
      assert.deepEqual([...d.ringing].sort(), [bob.id, carol.id].sort());
    }
    const b = await join(bob, group.id);
    await carol.gw.dispatch('CALL_UPDATE', (d) => d.channel_id === group.id && d.ringing.length === 1 && d.ringing[0] === carol.id, WAIT);
    const c = await join(carol, group.id);
    await alice.gw.dispatch('CALL_UPDATE', (d) => d.channel_id === group.id && d.ringing.length === 0, WAIT);

    const voices = [await connectVoice(alice, group.id, a), await connectVoice(bob, group.id, b), await connectVoice(carol, group.id, c)];
    await until(() => voices[0].dv.privacyCode && voices.every((x) => x.dv.privacyCode === voices[0].dv.privacyCode), WAIT, 'one DAVE group of three');
    assert.deepEqual(
      voices.flatMap((x) => x.dv.errors),
      [],
    );

    // A client that connects later asks for the running call (op 13) and gets CALL_CREATE with the states in it.
    const late = await connectUser(carol.token);
    late.send(13, { channel_id: group.id });
    const existing = await late.dispatch('CALL_CREATE', (d) => d.channel_id === group.id, WAIT);
    assert.deepEqual(existing.voice_states.map((s: any) => s.user_id).sort(), [alice.id, bob.id, carol.id].sort());
    assert.ok(existing.voice_states.every((s: any) => s.guild_id === null && s.channel_id === group.id));
    late.close();

    // Carol leaves the group: she leaves the call too (4014), the others see her go.
    const r = await t.api(`/channels/${group.id}/recipients/${carol.id}`, { method: 'DELETE', token: carol.token });
    assert.equal(r.status, 204);
    assert.equal((await voices[2].v.closed).code, 4014);
    await alice.gw.dispatch('VOICE_STATE_UPDATE', (d) => d.user_id === carol.id && d.channel_id === null, WAIT);

    for (const x of [alice, bob]) x.gw.send(4, { guild_id: null, channel_id: null, self_mute: false, self_deaf: false });
    await bob.gw.dispatch('CALL_DELETE', (d) => d.channel_id === group.id, WAIT);
  });

  test('the call routes: stop-ringing declines, ring rings again, region and eligibility; AUTO_CALL_CONNECT after READY', async () => {
    const dm = (await t.api('/users/@me/channels', { method: 'POST', token: alice.token, body: { recipient_id: carol.id } })).body;
    assert.deepEqual((await t.api(`/channels/${dm.id}/call`, { token: alice.token })).body, { ringable: true });
    // No call yet: ringing does nothing.
    assert.equal((await t.api(`/channels/${dm.id}/call/ring`, { method: 'POST', token: alice.token, body: {} })).status, 204);
    await gatewaySynced(t.server, carol.gw);
    assert.ok(!carol.gw.frames.some((f) => f.t === 'CALL_UPDATE' && f.d.channel_id === dm.id));

    await join(alice, dm.id);
    assert.deepEqual((await carol.gw.dispatch('CALL_CREATE', (d) => d.channel_id === dm.id, WAIT)).ringing, [carol.id]);
    // Carol declines: she stops ringing herself.
    assert.equal((await t.api(`/channels/${dm.id}/call/stop-ringing`, { method: 'POST', token: carol.token, body: {} })).status, 204);
    assert.deepEqual((await alice.gw.dispatch('CALL_UPDATE', (d) => d.channel_id === dm.id, WAIT)).ringing, []);
    // Alice rings her again (no body: every other recipient).
    const mark = alice.gw.frames.length;
    assert.equal((await t.api(`/channels/${dm.id}/call/ring`, { method: 'POST', token: alice.token })).status, 204);
    const rung = await alice.gw.wait((f) => f.t === 'CALL_UPDATE' && f.d.channel_id === dm.id && alice.gw.frames.indexOf(f) >= mark, WAIT);
    assert.deepEqual(rung.d.ringing, [carol.id]);

    // A session that connects with AUTO_CALL_CONNECT hears of the running call without asking.
    const auto = track(await RawGateway.connect(t.server.url));
    await auto.identify(carol.token, { capabilities: 1 << 12 });
    const running = await auto.dispatch('CALL_CREATE', (d) => d.channel_id === dm.id, WAIT);
    assert.deepEqual(running.ringing, [carol.id]);
    assert.deepEqual(
      running.voice_states.map((v: any) => v.user_id),
      [alice.id],
    );
    auto.close();

    const bad = await t.api(`/channels/${dm.id}/call`, { method: 'PATCH', token: alice.token, body: { region: 'atlantis' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 50035);
    assert.equal((await t.api(`/channels/${dm.id}/call`, { method: 'PATCH', token: alice.token, body: { region: 'local' } })).status, 204);
    const stranger = await t.api(`/channels/${dm.id}/call`, { token: dave.token });
    assert.equal(stranger.status, 403);
    assert.equal(stranger.body.code, 50001);
    const guildChannel = await t.api(`/channels/${t.world.textChannelId}/call`, { token: alice.token });
    assert.equal(guildChannel.status, 400);
    assert.equal(guildChannel.body.code, 50024);
    assert.notEqual((await t.api(`/channels/${dm.id}/call`, { token: t.world.botToken, bot: true })).status, 200, 'users only');

    alice.gw.send(4, { guild_id: null, channel_id: null, self_mute: false, self_deaf: false });
    await carol.gw.dispatch('CALL_DELETE', (d) => d.channel_id === dm.id, WAIT);
  });

  test('a person holds one voice connection: a call leaves guild voice, and guild voice leaves the call', async () => {
    const dm = (await t.api('/users/@me/channels', { method: 'POST', token: alice.token, body: { recipient_id: bob.id } })).body;
    const voiceChannel = t.world.voiceChannelId;
    alice.gw.send(4, { guild_id: t.world.guildId, channel_id: voiceChannel, self_mute: false, self_deaf: false });
    await alice.gw.dispatch('VOICE_STATE_UPDATE', (d) => d.user_id === alice.id && d.channel_id === voiceChannel, WAIT);
    await join(alice, dm.id);
    await alice.gw.dispatch('VOICE_STATE_UPDATE', (d) => d.user_id === alice.id && d.guild_id === t.world.guildId && d.channel_id === null, WAIT);
    alice.gw.send(4, { guild_id: t.world.guildId, channel_id: voiceChannel, self_mute: false, self_deaf: false });
    await bob.gw.dispatch('CALL_DELETE', (d) => d.channel_id === dm.id, WAIT);
    const mark = alice.gw.frames.findIndex((f) => f.t === 'CALL_DELETE' && f.d.channel_id === dm.id);
    await alice.gw.wait(
      (f) => f.t === 'VOICE_STATE_UPDATE' && f.d.user_id === alice.id && f.d.channel_id === voiceChannel && alice.gw.frames.indexOf(f) > mark,
      WAIT,
    );
    alice.gw.send(4, { guild_id: t.world.guildId, channel_id: null, self_mute: false, self_deaf: false });
    await alice.gw.wait(
      (f) =>
        f.t === 'VOICE_STATE_UPDATE' &&
        f.d.user_id === alice.id &&
        f.d.guild_id === t.world.guildId &&
        f.d.channel_id === null &&
        alice.gw.frames.indexOf(f) > mark,
      WAIT,
    );
  });

  test('refused, silently: a non-recipient, a bot, and either side of a block; a DM token is no good for another server id', async () => {
    const dm = (await t.api('/users/@me/channels', { method: 'POST', token: alice.token, body: { recipient_id: bob.id } })).body;
    // Dave is not a recipient.
    dave.gw.send(4, { guild_id: null, channel_id: dm.id, self_mute: false, self_deaf: false });
    // A bot in a DM with alice: bots do not take part in calls.
    const botGw = track(await RawGateway.connect(t.server.url));
    await botGw.identify(t.world.botToken, { intents: 1 | (1 << 7) | (1 << 12) });
    const botDm = (await t.api('/users/@me/channels', { method: 'POST', token: t.world.botToken, bot: true, body: { recipient_id: alice.id } })).body;
    botGw.send(4, { guild_id: null, channel_id: botDm.id, self_mute: false, self_deaf: false });
    alice.gw.send(4, { guild_id: null, channel_id: botDm.id, self_mute: false, self_deaf: false });
    // Carol blocks dave: neither may call the other.
    const cd = (await t.api('/users/@me/channels', { method: 'POST', token: carol.token, body: { recipient_id: dave.id } })).body;
    assert.equal((await t.api(`/users/@me/relationships/${dave.id}`, { method: 'PUT', token: carol.token, body: { type: 2 } })).status, 204);
    assert.deepEqual((await t.api(`/channels/${cd.id}/call`, { token: dave.token })).body, { ringable: false });
    assert.deepEqual((await t.api(`/channels/${botDm.id}/call`, { token: alice.token })).body, { ringable: false });
    dave.gw.send(4, { guild_id: null, channel_id: cd.id, self_mute: false, self_deaf: false });
    carol.gw.send(4, { guild_id: null, channel_id: cd.id, self_mute: false, self_deaf: false });

    // A legitimate join of the same DM runs after dave's attempt there (changes of one call are serialized).
    const j = await join(alice, dm.id);
    await gatewaySynced(t.server, dave.gw, botGw, alice.gw, carol.gw);
    const sent = (gw: RawGateway, ...channels: string[]) =>
      gw.frames.filter((f) => ['VOICE_STATE_UPDATE', 'VOICE_SERVER_UPDATE', 'CALL_CREATE'].includes(f.t!) && channels.includes(f.d.channel_id));
    assert.deepEqual(sent(dave.gw, dm.id, cd.id), []);
    assert.deepEqual(sent(botGw, botDm.id), []);
    assert.deepEqual(sent(alice.gw, botDm.id), []);
    assert.deepEqual(sent(carol.gw, cd.id), []);

    assert.ok(!alice.gw.frames.some((f) => f.t === 'VOICE_STATE_UPDATE' && f.d.user_id === dave.id), 'dave never joined');
    // A DM call's token, presented with another server id (the guild), fails authentication.
    const v = track(await RawVoice.connect(t));
    v.send(0, { server_id: t.world.guildId, user_id: alice.id, session_id: j.state.session_id, token: j.server.token, max_dave_protocol_version: 1 });
    assert.equal((await v.closed).code, 4004);
    alice.gw.send(4, { guild_id: null, channel_id: null, self_mute: false, self_deaf: false });
    await alice.gw.dispatch('CALL_DELETE', (d) => d.channel_id === dm.id, WAIT);
  });

  test('a voice client that floods the voice gateway is closed with 4021 (Disconnected: Rate Limited)', async () => {
    const dm = (await t.api('/users/@me/channels', { method: 'POST', token: alice.token, body: { recipient_id: bob.id } })).body;
    const j = await join(alice, dm.id);
    const x = await connectVoice(alice, dm.id, j);
    // A well-behaved neighbour in the same call is not affected.
    const k = await join(bob, dm.id);
    const y = await connectVoice(bob, dm.id, k);
    for (let i = 0; i < 400 && x.v.ws.readyState === 1; i++) x.v.send(3, { t: i, seq_ack: 0 });
    const closed = await x.v.closed;
    assert.equal(closed.code, 4021);
    assert.match(closed.reason, /rate limited/i);
    // Bob's socket still answers heartbeats.
    y.v.send(3, { t: 4242, seq_ack: 0 });
    assert.equal((await y.v.wait((f) => f.op === 6 && f.d.t === 4242, WAIT)).d.t, 4242);
    for (const c of [alice, bob]) c.gw.send(4, { guild_id: null, channel_id: null, self_mute: false, self_deaf: false });
    await bob.gw.dispatch('CALL_DELETE', (d) => d.channel_id === dm.id, WAIT);
  });

  test('deleting a guild voice channel terminates its call: every voice socket closes with 4022', async () => {
    const made = await t.api(`/guilds/${t.world.guildId}/channels`, { method: 'POST', token: alice.token, body: { name: 'doomed', type: 2 } });
    assert.equal(made.status, 201);
    const bot = await makeBot(t, 'call terminated bot');
    const j = await joinOnGateway(t, bot.token, made.body.id);
    track(j.gw);
    const v = track(await RawVoice.connect(t));
    v.send(0, j.identify());
    await v.op(2, WAIT);
    assert.equal((await t.api(`/channels/${made.body.id}`, { method: 'DELETE', token: alice.token })).status, 200);
    const closed = await v.closed;
    assert.equal(closed.code, 4022);
    assert.match(closed.reason, /call terminated/i);
  });
});

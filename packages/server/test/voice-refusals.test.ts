// engine-independent: the voice gateway's protocol rules, answered before any storage
/**
 * Voice gateway refusals and the ordering rules that must never reach a client (voice.md §0): a version is required
 * and versions below 4 are refused, deprecated encryption modes are refused, TLS is mandatory, close codes, and the
 * orders whose violation hangs or crashes @discordjs/voice: STATE before SERVER, op 25 after op 4, op 11 before
 * any Add of that user, seq never 0, AES-GCM listed first, op 5 relayed. Raw WebSocket clients, davey as the client.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RawGateway } from './helpers/gateway-client.js';
import { until } from './helpers/wait.js';
import { makeBot } from './voice/harness.js';
import { RawVoice, joinOnGateway, VOICE_INTENTS } from './voice/raw.js';
import { DaveClient } from './voice/dave-client.js';
import { VoiceSession } from '../src/voice/session.js';
import { loadConfig } from '../src/config.js';
import { VoiceServer } from '../src/voice/server.js';
import { gatewaySynced } from './helpers/barriers.js';

describe('voice gateway refusals and ordering rules', { timeout: 60_000 }, () => {
  let t: TestServer;
  const bots: { token: string; userId: string }[] = [];
  const open: { close(): void }[] = [];
  const track = <T extends { close(): void }>(x: T) => (open.push(x), x);

  /** A bot joined on the main gateway and connected (not yet identified) to the voice gateway. */
  async function voiceClient(i: number, query = '?v=8') {
    const j = await joinOnGateway(t, bots[i].token);
    track(j.gw);
    const v = track(await RawVoice.connect(t, query));
    return { ...j, v };
  }

  before(async () => {
    t = await startTestServer();
    for (let i = 0; i < 4; i++) bots.push(await makeBot(t, `refusal bot ${i}`));
  });

  after(async () => {
    for (const x of open)
      try {
        x.close();
      } catch {}
    await t?.close();
  });

  test('a voice gateway version is required: no ?v= closes with 4020', async () => {
    const v = await RawVoice.connect(t, '');
    assert.equal((await v.closed).code, 4020);
    const v2 = await RawVoice.connect(t, '?v=');
    assert.equal((await v2.closed).code, 4020);
  });

  test('versions below 4 were discontinued: v=1..3 close with 4006; unknown versions with 4020', async () => {
    for (const q of ['?v=3', '?v=2', '?v=1']) {
      const v = await RawVoice.connect(t, q);
      const c = await v.closed;
      assert.equal(c.code, 4006, q);
      assert.match(c.reason, /discontinued/);
      assert.equal(v.frames.length, 0, 'not even Hello');
    }
    for (const q of ['?v=9', '?v=abc']) assert.equal((await (await RawVoice.connect(t, q)).closed).code, 4020, q);
    const v4 = track(await RawVoice.connect(t, '?v=4'));
    assert.equal((await v4.op(8)).d.v, 4, 'v4 still served');
  });

  test('TLS is mandatory: a plain ws:// connection to the voice port fails', async () => {
    const ws = new WebSocket(`ws://${t.server.voice.states.endpoint}/?v=8`);
    const outcome = await new Promise<string>((resolve) => {
      ws.once('open', () => resolve('open'));
      ws.once('error', () => resolve('error'));
    });
    assert.equal(outcome, 'error');
  });

  test('op 2 lists aead_aes256_gcm_rtpsize first; deprecated modes are refused with 4016', async () => {
    for (const mode of ['xsalsa20_poly1305_lite', 'xsalsa20_poly1305', 'aead_aes256_gcm', 'xsalsa20_poly1305_lite_rtpsize', 'made_up']) {
      const c = await voiceClient(0);
      c.v.send(0, c.identify());
      const ready = await c.v.op(2);
      assert.deepEqual(ready.d.modes, ['aead_aes256_gcm_rtpsize', 'aead_xchacha20_poly1305_rtpsize']);
      assert.match(ready.d.ip, /^\d+\.\d+\.\d+\.\d+$/, 'an IPv4 address (clients use udp4)');
      c.v.send(1, { protocol: 'udp', data: { address: '127.0.0.1', port: 5000, mode } });
      const closed = await c.v.closed;
      assert.equal(closed.code, 4016, mode);
      if (mode !== 'made_up') assert.match(closed.reason, /discontinued/);
      c.gw.close();
    }
    assert.throws(() => new VoiceServer({ ...t.server.ctx, config: loadConfig([], {}, { voiceModes: 'xsalsa20_poly1305' }) }), /discontinued/);
  });

  test('close codes: 4003 before Identify, 4004 bad token, 4005 second Identify, 4001 unknown op, 4002 bad JSON, 4012 protocol, 4002 not an SDP, 4017 without DAVE', async () => {
    const a = track(await RawVoice.connect(t));
    a.send(5, { speaking: 1, delay: 0, ssrc: 1 });
    assert.equal((await a.closed).code, 4003);
    const b = track(await RawVoice.connect(t));
    b.sendBinary(26, Buffer.from([0]));
    assert.equal((await b.closed).code, 4003, 'binary before Identify');

    const c = await voiceClient(0);
    c.v.send(0, c.identify({ token: 'not-a-token' }));
    assert.equal((await c.v.closed).code, 4004);
    c.gw.close();

    const d = await voiceClient(0);
    d.v.send(0, d.identify());
    await d.v.op(2);
    d.v.send(0, d.identify());
    assert.equal((await d.v.closed).code, 4005);
    d.gw.close();

    const e = await voiceClient(0);
    e.v.send(0, e.identify());
    await e.v.op(2);
    e.v.send(99, {});
    assert.equal((await e.v.closed).code, 4001);
    e.gw.close();

    const f = track(await RawVoice.connect(t));
    f.ws.send('{not json');
    assert.equal((await f.closed).code, 4002);

    const g = await voiceClient(0);
    g.v.send(0, g.identify());
    await g.v.op(2);
    g.v.send(1, { protocol: 'quic', data: 'sdp' });
    assert.equal((await g.v.closed).code, 4012);
    g.gw.close();

    // WebRTC is a protocol (browsers), but its offer must be an SDP.
    const w = await voiceClient(0);
    w.v.send(0, w.identify());
    await w.v.op(2);
    w.v.send(1, { protocol: 'webrtc', data: 'sdp', sdp: 'sdp' });
    assert.equal((await w.v.closed).code, 4002);
    w.gw.close();

    // DAVE is required from 2026-03-01 (server clock): a client without it is refused.
    const h = await voiceClient(0);
    h.v.send(0, h.identify({ max_dave_protocol_version: 0 }));
    assert.equal((await h.v.closed).code, 4017);
    h.gw.close();
  });

  test('main gateway: VOICE_STATE_UPDATE (with member) before VOICE_SERVER_UPDATE, which only the joining session gets', async () => {
    const observer = track(await RawGateway.connect(t.server.url));
    await observer.identify(t.world.users[1].token);
    const gw = track(await RawGateway.connect(t.server.url));
    const ready = await gw.identify(bots[1].token, { intents: VOICE_INTENTS });
    const other = track(await RawGateway.connect(t.server.url));
    await other.identify(bots[1].token, { intents: VOICE_INTENTS });
    gw.send(4, { guild_id: t.world.guildId, channel_id: t.world.voiceChannelId, self_mute: false, self_deaf: true });
    await gw.dispatch('VOICE_SERVER_UPDATE');
    const kinds = gw.frames.filter((f) => f.t?.startsWith('VOICE_')).map((f) => f.t);
    assert.deepEqual(kinds.slice(0, 2), ['VOICE_STATE_UPDATE', 'VOICE_SERVER_UPDATE']);
    const state = gw.frames.find((f) => f.t === 'VOICE_STATE_UPDATE')!;
    const server = gw.frames.find((f) => f.t === 'VOICE_SERVER_UPDATE')!;
    assert.ok(state.s! < server.s!);
    assert.equal(state.d.session_id, ready.session_id);
    assert.equal(state.d.member.user.id, bots[1].userId);
    assert.ok(state.d.member.joined_at);
    assert.equal(state.d.self_deaf, true);
    assert.equal(server.d.endpoint, t.server.voice.states.endpoint);
    assert.equal(server.d.endpoint.split(':')[1], String(t.server.voice.port), 'the endpoint is the TLS voice port');
    assert.ok(!/^wss?:/.test(server.d.endpoint), 'no scheme');
    await observer.dispatch('VOICE_STATE_UPDATE', (d) => d.user_id === bots[1].userId);
    await other.dispatch('VOICE_STATE_UPDATE', (d) => d.user_id === bots[1].userId);
    await gatewaySynced(t.server, other, observer);
    assert.ok(!other.frames.some((f) => f.t === 'VOICE_SERVER_UPDATE'), "the bot's other session gets no VOICE_SERVER_UPDATE");
    assert.ok(!observer.frames.some((f) => f.t === 'VOICE_SERVER_UPDATE'));
    // A repeated op 4 for the same channel gets a fresh pair with a new token.
    gw.send(4, { guild_id: t.world.guildId, channel_id: t.world.voiceChannelId, self_mute: false, self_deaf: true });
    const again = await gw.wait((f) => f.t === 'VOICE_SERVER_UPDATE' && f.s! > server.s!);
    assert.notEqual(again.d.token, server.d.token);
    assert.equal(gw.frames[gw.frames.indexOf(again) - 1].t, 'VOICE_STATE_UPDATE');
    gw.send(4, { guild_id: t.world.guildId, channel_id: null });
    await gw.dispatch('VOICE_STATE_UPDATE', (d) => d.channel_id === null);
  });

  test('op 25 (external sender) only after op 4; op 11 lists a user before any Add of them; seq never 0', async () => {
    const x = await voiceClient(2);
    const y = await voiceClient(3);
    const dx = new DaveClient(x.v, x.userId, t.world.voiceChannelId);
    const dy = new DaveClient(y.v, y.userId, t.world.voiceChannelId);
    x.v.send(0, x.identify());
    await x.v.op(2);
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(!x.v.frames.some((f) => f.binary), 'no binary DAVE message before Select Protocol / op 4');
    x.v.send(1, { protocol: 'udp', data: { address: '127.0.0.1', port: 40000, mode: 'aead_aes256_gcm_rtpsize' } });
    const desc = await x.v.op(4);
    assert.equal(desc.d.dave_protocol_version, 1);
    assert.equal(desc.d.secret_key.length, 32);
    const ext = await x.v.op(25);
    assert.ok(ext.binary && ext.seq! > desc.seq!, 'op 25 follows op 4');

    y.v.send(0, y.identify());
    await y.v.op(2);
    y.v.send(1, { protocol: 'udp', data: { address: '127.0.0.1', port: 40001, mode: 'aead_aes256_gcm_rtpsize' } });
    await until(() => dx.privacyCode && dx.privacyCode === dy.privacyCode, 10_000, 'the DAVE group of x and y');
    for (const [c, otherId] of [
      [x, y.userId],
      [y, x.userId],
    ] as const) {
      const connect = c.v.frames.findIndex((f) => f.op === 11 && f.d.user_ids.includes(otherId));
      const proposal = c.v.frames.findIndex((f) => f.op === 27);
      assert.ok(connect >= 0 && connect < proposal, 'op 11 before op 27');
      const seqs = c.v.frames.filter((f) => f.seq !== undefined).map((f) => f.seq!);
      assert.ok(seqs.length > 4 && !seqs.includes(0));
      assert.deepEqual(
        seqs,
        seqs.map((_s, i) => seqs[0] + i),
        'one counter for JSON and binary, no gaps',
      );
      assert.ok(!c.v.frames.some((f) => [8, 6, 9].includes(f.op) && f.seq !== undefined), 'Hello, ACK and Resumed are not numbered');
    }
    assert.deepEqual(dx.errors, []);
    assert.deepEqual(dy.errors, []);

    // Op 5 from x is relayed to y with x's user id and SSRC.
    x.v.send(5, { speaking: 1, delay: 0, ssrc: 0 });
    const relayed = await y.v.wait((f) => f.op === 5 && f.d.user_id === x.userId && f.d.speaking === 1);
    assert.equal(relayed.d.ssrc, x.v.frames.find((f) => f.op === 2)!.d.ssrc);
    assert.ok(!x.v.frames.some((f) => f.op === 5 && f.d.user_id === x.userId), 'never echoed to the speaker');

    // Heartbeats: v8 answers {t}; seq_ack trims the resume buffer.
    x.v.send(3, { t: 1234, seq_ack: x.v.frames.filter((f) => f.seq).at(-1)!.seq });
    assert.deepEqual((await x.v.op(6)).d, { t: 1234 });
  });

  test('the 16-bit sequence wraps from 65535 to 1, never 0', () => {
    const s = new VoiceSession({ token: 't', userId: '1', guildId: '2', channelId: '3', sessionId: 's' }, 1, 8, 1);
    s.seq = 65534;
    const frames: (string | Buffer)[] = [];
    s.transport = { sendFrame: (f) => frames.push(f), close: () => {} };
    s.send(5, {});
    s.sendBinary(27, Buffer.alloc(1));
    s.send(5, {});
    assert.equal(JSON.parse(frames[0] as string).seq, 65535);
    assert.equal((frames[1] as Buffer).readUInt16BE(0), 1);
    assert.equal(JSON.parse(frames[2] as string).seq, 2);
    assert.equal(s.framesAfter(65535)!.length, 2, 'resume across the wrap');
    assert.equal(s.framesAfter(2)!.length, 0);
    assert.equal(s.framesAfter(40000), null, 'a gap that cannot be filled');
  });

  test('resume: Resumed (op 9) comes before the replay; the same token only; an unknown seq_ack closes with 4006', async () => {
    const c = await voiceClient(1);
    c.v.send(0, c.identify());
    const ready = await c.v.op(2);
    c.v.send(1, { protocol: 'udp', data: { address: '127.0.0.1', port: 40002, mode: 'aead_aes256_gcm_rtpsize' } });
    await c.v.op(25);
    const lastSeen = c.v.frames.filter((f) => f.seq).at(-1)!.seq!;
    c.v.ws.terminate();
    await c.v.closed;
    const session = t.server.voice.sessionOf(t.world.guildId, c.userId)!;
    session.send(5, { user_id: '1', ssrc: 7, speaking: 1 }); // sent while the client is away
    const r = track(await RawVoice.connect(t));
    r.send(7, { server_id: t.world.guildId, session_id: c.sessionId, token: c.token, seq_ack: lastSeen });
    const resumed = await r.op(9);
    assert.equal(resumed.d, null);
    const replay = await r.wait((f) => f.op === 5);
    assert.ok(r.frames.indexOf(resumed) < r.frames.indexOf(replay));
    assert.equal(replay.seq, lastSeen + 1);
    assert.equal(r.frames.filter((f) => f.op === 5).length, 1, 'no duplicates');
    assert.equal(t.server.voice.sessionOf(t.world.guildId, c.userId)!.ssrc, ready.d.ssrc);

    const bad = track(await RawVoice.connect(t));
    bad.send(7, { server_id: t.world.guildId, session_id: c.sessionId, token: 'other', seq_ack: 0 });
    assert.equal((await bad.closed).code, 4006);
    r.ws.terminate();
    const stale = track(await RawVoice.connect(t));
    stale.send(7, { server_id: t.world.guildId, session_id: c.sessionId, token: c.token, seq_ack: 60000 });
    assert.equal((await stale.closed).code, 4006);
  });
});

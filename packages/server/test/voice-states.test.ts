/**
 * Voice states on the main gateway and over HTTP: GUILD_CREATE voice_states, CONNECT and user_limit (refused joins
 * are silent), voice start time (VOICE_CHANNEL_START_TIME_UPDATE and op 43), GET/PATCH voice-states, member PATCH
 * mute / move / disconnect (the voice socket closes with 4014), stage speakers, and Send Soundboard Sound.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RawGateway } from './helpers/gateway-client.js';
import { makeBot } from './voice/harness.js';
import { RawVoice, VOICE_INTENTS } from './voice/raw.js';
import { ALL_PERMISSIONS, P } from '@accord/protocol';

describe('voice states: main gateway and HTTP', { timeout: 60_000 }, () => {
  let t: TestServer;
  const open: { close(): void }[] = [];
  const track = <T extends { close(): void }>(x: T) => (open.push(x), x);
  const alice = () => t.world.users[0];
  const guild = () => t.world.guildId;
  const voice = () => t.world.voiceChannelId;
  const NO_MOVE = ALL_PERMISSIONS & ~P.ADMINISTRATOR & ~P.MOVE_MEMBERS & ~P.MUTE_MEMBERS;

  async function botGateway(token: string) {
    const gw = track(await RawGateway.connect(t.server.url));
    const ready = await gw.identify(token, { intents: VOICE_INTENTS });
    return { gw, userId: ready.user.id as string, sessionId: ready.session_id as string };
  }
  function op4(gw: RawGateway, channelId: string | null, extra: Record<string, unknown> = {}) {
    gw.send(4, { guild_id: guild(), channel_id: channelId, self_mute: false, self_deaf: false, ...extra });
  }
  const quiet = (ms = 300) => new Promise((r) => setTimeout(r, ms));
  const api = (p: string, opts: Parameters<TestServer['api']>[1] = {}) => t.api(p, { token: alice().token, ...opts });

  before(async () => {
    t = await startTestServer();
  });

  after(async () => {
    for (const x of open)
      try {
        x.close();
      } catch {}
    await t?.close();
  });

  test('joining: start time set and announced, GUILD_CREATE lists the state, op 43 reports it, GET voice-states', async () => {
    const observer = track(await RawGateway.connect(t.server.url));
    await observer.identify(alice().token);
    const none = await t.api(`/guilds/${guild()}/voice-states/@me`, { token: t.world.botToken, bot: true });
    assert.equal(none.status, 404);
    assert.equal(none.body.code, 10065);

    const b = await botGateway(t.world.botToken);
    op4(b.gw, voice(), { self_mute: true });
    const state = await b.gw.dispatch('VOICE_STATE_UPDATE', (d) => d.user_id === b.userId);
    assert.equal(state.channel_id, voice());
    assert.equal(state.self_mute, true);
    assert.equal(state.suppress, false);
    const start = await observer.dispatch('VOICE_CHANNEL_START_TIME_UPDATE', (d) => d.id === voice());
    assert.equal(start.guild_id, guild());
    assert.ok(Math.abs(start.voice_start_time - Date.now() / 1000) < 60, 'unix seconds');

    const late = track(await RawGateway.connect(t.server.url));
    await late.identify(t.world.users[1].token);
    const gc = await late.dispatch('GUILD_CREATE', (d) => d.id === guild());
    const listed = gc.voice_states.find((s: any) => s.user_id === b.userId);
    assert.ok(listed, 'GUILD_CREATE voice_states');
    assert.equal(listed.channel_id, voice());
    assert.equal(listed.session_id, b.sessionId);
    assert.equal(listed.guild_id, undefined, 'without guild_id');

    late.send(43, { guild_id: guild(), fields: ['status', 'voice_start_time'] });
    const info = await late.dispatch('CHANNEL_INFO');
    assert.equal(info.channels.find((c: any) => c.id === voice()).voice_start_time, start.voice_start_time);

    const me = await t.api(`/guilds/${guild()}/voice-states/@me`, { token: t.world.botToken, bot: true });
    assert.equal(me.status, 200);
    assert.equal(me.body.channel_id, voice());
    assert.equal(me.body.member.user.id, b.userId);
    const other = await api(`/guilds/${guild()}/voice-states/${b.userId}`);
    assert.equal(other.body.session_id, b.sessionId);

    op4(b.gw, null);
    await observer.dispatch('VOICE_STATE_UPDATE', (d) => d.user_id === b.userId && d.channel_id === null);
    const cleared = await observer.dispatch('VOICE_CHANNEL_START_TIME_UPDATE', (d) => d.id === voice() && d.voice_start_time === null);
    assert.equal(cleared.voice_start_time, null);
  });

  test('voice channel status: members connected to the channel may set it without MANAGE_CHANNELS; it ends with the call', async () => {
    const observer = track(await RawGateway.connect(t.server.url));
    await observer.identify(alice().token);
    const host = await makeBot(t, 'host', ALL_PERMISSIONS & ~P.ADMINISTRATOR & ~P.MANAGE_CHANNELS);
    const put = (status: string | null) => t.api(`/channels/${voice()}/voice-status`, { method: 'PUT', token: host.token, bot: true, body: { status } });
    assert.equal((await put('quiz night')).body.code, 50013, 'not connected: MANAGE_CHANNELS needed');
    const b = await botGateway(host.token);
    op4(b.gw, voice());
    await b.gw.dispatch('VOICE_SERVER_UPDATE');
    assert.equal((await put('quiz night')).status, 204);
    await observer.dispatch('VOICE_CHANNEL_STATUS_UPDATE', (d) => d.status === 'quiz night');
    op4(b.gw, null);
    const cleared = await observer.dispatch('VOICE_CHANNEL_STATUS_UPDATE', (d) => d.id === voice() && d.status === null);
    assert.equal(cleared.guild_id, guild());
    observer.send(43, { guild_id: guild(), fields: ['status', 'voice_start_time'] });
    const info = await observer.dispatch('CHANNEL_INFO');
    assert.deepEqual(
      info.channels.find((c: any) => c.id === voice()),
      { id: voice(), status: null, voice_start_time: null },
    );
  });

  test('no CONNECT: op 4 is ignored without any event; a full channel likewise, unless MOVE_MEMBERS', async () => {
    const denied = await makeBot(t, 'no connect');
    const ow = await api(`/channels/${voice()}/permissions/${denied.userId}`, { method: 'PUT', body: { type: 1, allow: '0', deny: String(P.CONNECT) } });
    assert.equal(ow.status, 204);
    const d = await botGateway(denied.token);
    op4(d.gw, voice());
    await quiet();
    assert.ok(!d.gw.frames.some((f) => f.t?.startsWith('VOICE_')), 'no VOICE_STATE_UPDATE, no VOICE_SERVER_UPDATE');

    const small = await api(`/guilds/${guild()}/channels`, { method: 'POST', body: { name: 'one seat', type: 2, user_limit: 1 } });
    assert.equal(small.status, 201);
    const first = await botGateway((await makeBot(t, 'first', NO_MOVE)).token);
    op4(first.gw, small.body.id);
    await first.gw.dispatch('VOICE_SERVER_UPDATE');
    const second = await botGateway((await makeBot(t, 'second', NO_MOVE)).token);
    op4(second.gw, small.body.id);
    await quiet();
    assert.ok(!second.gw.frames.some((f) => f.t?.startsWith('VOICE_')), 'full: silently refused');
    const mover = await botGateway(t.world.botToken);
    op4(mover.gw, small.body.id);
    await mover.gw.dispatch('VOICE_SERVER_UPDATE');
    op4(mover.gw, null);
    op4(first.gw, null);
    await first.gw.dispatch('VOICE_STATE_UPDATE', (x) => x.channel_id === null);
  });

  test('member PATCH: mute follows into the voice state; move sends a new server update; null disconnects (voice socket 4014)', async () => {
    const target = await makeBot(t, 'target');
    const b = await botGateway(target.token);
    op4(b.gw, voice());
    const server = await b.gw.dispatch('VOICE_SERVER_UPDATE');
    const stateD = b.gw.frames.find((f) => f.t === 'VOICE_STATE_UPDATE')!.d;
    const v = track(await RawVoice.connect(t));
    v.send(0, { server_id: guild(), user_id: target.userId, session_id: stateD.session_id, token: server.token, max_dave_protocol_version: 1 });
    await v.op(2);
    assert.equal(t.server.voice.sessionOf(guild(), target.userId)!.canSpeak, true);

    const muted = await api(`/guilds/${guild()}/members/${target.userId}`, { method: 'PATCH', body: { mute: true } });
    assert.equal(muted.status, 200);
    assert.equal(muted.body.mute, true);
    await b.gw.dispatch('VOICE_STATE_UPDATE', (d) => d.user_id === target.userId && d.mute === true);
    assert.equal(t.server.voice.sessionOf(guild(), target.userId)!.canSpeak, false, 'the SFU stops forwarding');
    assert.equal((await api(`/guilds/${guild()}/voice-states/${target.userId}`)).body.mute, true);

    const notConnected = await makeBot(t, 'idle');
    const r40032 = await api(`/guilds/${guild()}/members/${notConnected.userId}`, { method: 'PATCH', body: { channel_id: voice() } });
    assert.equal(r40032.body.code, 40032);
    const noop = await api(`/guilds/${guild()}/members/${notConnected.userId}`, { method: 'PATCH', body: { channel_id: null } });
    assert.equal(noop.status, 200, 'disconnecting someone not connected does nothing');

    const other = await api(`/guilds/${guild()}/channels`, { method: 'POST', body: { name: 'other room', type: 2 } });
    const locked = await api(`/guilds/${guild()}/channels`, {
      method: 'POST',
      body: { name: 'locked', type: 2, permission_overwrites: [{ id: target.userId, type: 1, allow: '0', deny: String(P.CONNECT) }] },
    });
    const r50013 = await api(`/guilds/${guild()}/members/${target.userId}`, { method: 'PATCH', body: { channel_id: locked.body.id } });
    assert.equal(r50013.body.code, 50013, 'the target needs CONNECT on the destination');
    const moved = await api(`/guilds/${guild()}/members/${target.userId}`, { method: 'PATCH', body: { channel_id: other.body.id } });
    assert.equal(moved.status, 200);
    const movedState = await b.gw.dispatch('VOICE_STATE_UPDATE', (d) => d.channel_id === other.body.id);
    const movedServer = await b.gw.wait((f) => f.t === 'VOICE_SERVER_UPDATE' && f.d.token !== server.token);
    assert.ok(b.gw.frames.indexOf(b.gw.frames.find((f) => f.d === movedState)!) < b.gw.frames.indexOf(movedServer));

    const v2 = track(await RawVoice.connect(t));
    v2.send(0, { server_id: guild(), user_id: target.userId, session_id: stateD.session_id, token: movedServer.d.token, max_dave_protocol_version: 1 });
    await v2.op(2);
    const gone = await api(`/guilds/${guild()}/members/${target.userId}`, { method: 'PATCH', body: { channel_id: null } });
    assert.equal(gone.status, 200);
    await b.gw.dispatch('VOICE_STATE_UPDATE', (d) => d.user_id === target.userId && d.channel_id === null);
    assert.equal((await v2.closed).code, 4014, 'disconnected: do not reconnect');
    assert.equal((await api(`/guilds/${guild()}/voice-states/${target.userId}`)).body.code, 10065);
    await api(`/guilds/${guild()}/members/${target.userId}`, { method: 'PATCH', body: { mute: false } });
  });

  test('the main gateway session ending takes its user out of voice', async () => {
    const observer = track(await RawGateway.connect(t.server.url));
    await observer.identify(alice().token);
    const who = await makeBot(t, 'leaver');
    const b = await botGateway(who.token);
    op4(b.gw, voice());
    await b.gw.dispatch('VOICE_SERVER_UPDATE');
    b.gw.close(1000);
    await observer.dispatch('VOICE_STATE_UPDATE', (d) => d.user_id === who.userId && d.channel_id === null);
  });

  test('stage channels: joiners are suppressed; request to speak; a moderator lets them speak', async () => {
    const stage = await api(`/guilds/${guild()}/channels`, { method: 'POST', body: { name: 'stage', type: 13 } });
    assert.equal(stage.status, 201, JSON.stringify(stage.body));
    const speaker = await makeBot(t, 'speaker', NO_MOVE);
    const b = await botGateway(speaker.token);
    op4(b.gw, stage.body.id);
    const st = await b.gw.dispatch('VOICE_STATE_UPDATE', (d) => d.user_id === speaker.userId);
    assert.equal(st.suppress, true);
    const when = new Date().toISOString();
    const req = await t.api(`/guilds/${guild()}/voice-states/@me`, {
      method: 'PATCH',
      token: speaker.token,
      bot: true,
      body: { channel_id: stage.body.id, request_to_speak_timestamp: when },
    });
    assert.equal(req.status, 204);
    await b.gw.dispatch('VOICE_STATE_UPDATE', (d) => d.request_to_speak_timestamp === when);
    const selfUnsuppress = await t.api(`/guilds/${guild()}/voice-states/@me`, { method: 'PATCH', token: speaker.token, bot: true, body: { suppress: false } });
    assert.equal(selfUnsuppress.body.code, 50013, 'MUTE_MEMBERS needed');
    const mod = await api(`/guilds/${guild()}/voice-states/${speaker.userId}`, { method: 'PATCH', body: { channel_id: stage.body.id, suppress: false } });
    assert.equal(mod.status, 204);
    const up = await b.gw.dispatch('VOICE_STATE_UPDATE', (d) => d.suppress === false);
    assert.equal(up.request_to_speak_timestamp, null);
    const wrong = await api(`/guilds/${guild()}/voice-states/@me`, { method: 'PATCH', body: { suppress: false } });
    assert.equal(wrong.body.code, 10065);
    op4(b.gw, null);
  });

  test('send soundboard sound: VOICE_CHANNEL_EFFECT_SEND; connected, unmuted, SPEAK and USE_SOUNDBOARD required', async () => {
    const player = await makeBot(t, 'dj');
    const b = await botGateway(player.token);
    const send = (body: unknown, token = player.token) => t.api(`/channels/${voice()}/send-soundboard-sound`, { method: 'POST', token, bot: true, body });
    assert.equal((await send({ sound_id: '1' })).body.code, 40032, 'not connected');
    op4(b.gw, voice(), { self_deaf: true });
    await b.gw.dispatch('VOICE_SERVER_UPDATE');
    assert.equal((await send({ sound_id: '1' })).body.code, 50167, 'self-deafened');
    op4(b.gw, voice());
    await b.gw.wait((f) => f.t === 'VOICE_STATE_UPDATE' && f.d.self_deaf === false);
    const ok = await send({ sound_id: '2' });
    assert.equal(ok.status, 204, JSON.stringify(ok.body));
    const effect = await b.gw.dispatch('VOICE_CHANNEL_EFFECT_SEND');
    assert.deepEqual(
      { channel_id: effect.channel_id, guild_id: effect.guild_id, user_id: effect.user_id, sound_id: effect.sound_id },
      { channel_id: voice(), guild_id: guild(), user_id: player.userId, sound_id: '2' },
    );
    assert.equal(typeof effect.sound_volume, 'number');
    assert.equal((await send({ sound_id: '424242' })).body.code, 10097);
    const ow = await api(`/channels/${voice()}/permissions/${player.userId}`, { method: 'PUT', body: { type: 1, allow: '0', deny: String(P.USE_SOUNDBOARD) } });
    assert.equal(ow.status, 204);
    assert.equal((await send({ sound_id: '2' })).body.code, 50013);
    op4(b.gw, null);
  });
});

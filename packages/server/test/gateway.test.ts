import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer, devHeaders } from './helpers/server.js';
import { RawGateway } from './helpers/gateway-client.js';
import { shardOf } from '../src/gateway/dispatcher.js';
import { busDrained, gatewaySynced } from './helpers/barriers.js';

const GUILDS = 1;
const GUILD_MEMBERS = 1 << 1;
const GUILD_MESSAGES = 1 << 9;
const GUILD_MESSAGE_TYPING = 1 << 11;
const MESSAGE_CONTENT = 1 << 15;

let t: TestServer;
const open: RawGateway[] = [];
const connect = async (query?: string) => {
  const gw = await RawGateway.connect(t.server.url, query);
  open.push(gw);
  return gw;
};

before(async () => {
  t = await startTestServer({ overrides: { dev: true } });
});
after(async () => {
  for (const g of open) g.ws.terminate();
  await t.close();
});

test('Hello, then heartbeat is acknowledged', async () => {
  const gw = await connect();
  const hello = await gw.wait((f) => f.op === 10);
  assert.equal(typeof hello.d.heartbeat_interval, 'number');
  assert.equal(hello.s, null);
  gw.send(1, null);
  await gw.wait((f) => f.op === 11);
});

test('a bot identifies: READY then GUILD_CREATE with channels, roles and members', async () => {
  const gw = await connect();
  const ready = await gw.identify(t.world.botToken, { intents: GUILDS | GUILD_MEMBERS });
  assert.equal(ready.v, 10);
  assert.equal(ready.user.id, t.world.botUserId);
  assert.equal(ready.user.bot, true);
  assert.equal(ready.application.id, t.world.applicationId);
  assert.deepEqual(ready.guilds, [{ id: t.world.guildId, unavailable: true }]);
  assert.match(ready.resume_gateway_url, /^ws:\/\/127\.0\.0\.1:\d+$/);
  assert.equal(gw.frames.find((f) => f.t === 'READY')!.s, 1);
  const guild = await gw.dispatch('GUILD_CREATE');
  assert.equal(guild.id, t.world.guildId);
  assert.ok(guild.channels.some((c: any) => c.id === t.world.textChannelId));
  assert.ok(guild.roles.some((r: any) => r.id === t.world.guildId && r.name === '@everyone'));
  assert.ok(guild.roles.some((r: any) => r.managed && r.tags?.bot_id === t.world.botUserId));
  assert.equal(guild.member_count, 3);
  assert.ok(guild.members.some((m: any) => m.user.id === t.world.botUserId));
  gw.close();
});

test('a user session identifies with its raw token and sees its own email', async () => {
  const gw = await connect();
  const ready = await gw.identify(t.world.users[0].token);
  assert.equal(ready.user.id, t.world.users[0].id);
  assert.ok(ready.user.email);
  assert.equal(ready.application, undefined);
  const guild = await gw.dispatch('GUILD_CREATE');
  assert.equal(guild.members.length, 3);
  gw.close();
});

const closesWith = async (gw: RawGateway, code: number) => assert.equal(await gw.closed, code);

test('close codes: 4004 bad token, 4013 unknown intent, 4010 bad shard, 4003, 4005, 4001, 4002, 4012', async () => {
  let gw = await connect();
  gw.send(2, { token: 'nope', intents: 1, properties: {} });
  await closesWith(gw, 4004);

  gw = await connect();
  gw.send(2, { token: t.world.botToken, intents: 1 << 22, properties: {} });
  await closesWith(gw, 4013);

  gw = await connect();
  gw.send(2, { token: t.world.botToken, intents: 1, shard: [2, 2], properties: {} });
  await closesWith(gw, 4010);

  gw = await connect();
  gw.send(8, { guild_id: t.world.guildId, query: '', limit: 0 });
  await closesWith(gw, 4003);

  gw = await connect();
  await gw.identify(t.world.botToken, { intents: 1 });
  gw.send(2, { token: t.world.botToken, intents: 1, properties: {} });
  await closesWith(gw, 4005);

  gw = await connect();
  await gw.identify(t.world.botToken, { intents: 1 });
  gw.send(99, {});
  await closesWith(gw, 4001);

  gw = await connect();
  gw.ws.send(JSON.stringify({ op: 1, d: 'x'.repeat(5000) }));
  await closesWith(gw, 4002);

  gw = await connect('?v=7&encoding=json');
  await closesWith(gw, 4012);
});

test('4014 for a privileged intent the app has not enabled', async () => {
  const owner = t.world.users[1].token;
  const app = await t.api('/applications', { method: 'POST', token: owner, body: { name: 'No Intents' } });
  assert.equal(app.status, 200);
  const reset = await t.api(`/applications/${app.body.id}/bot/reset`, { method: 'POST', token: owner });
  const gw = await connect();
  gw.send(2, { token: reset.body.token, intents: GUILDS | MESSAGE_CONTENT, properties: {} });
  await closesWith(gw, 4014);
  // Enabling the portal's _LIMITED flag lets it in.
  const patched = await t.api(`/applications/${app.body.id}`, { method: 'PATCH', token: owner, body: { flags: 1 << 19 } });
  assert.equal(patched.body.flags & (1 << 19), 1 << 19);
  const ok = await connect();
  const ready = await ok.identify(reset.body.token, { intents: GUILDS | MESSAGE_CONTENT });
  assert.equal(ready.user.id, app.body.bot.id);
  ok.close();
});

test('RESUME replays every missed dispatch in order, then RESUMED', async () => {
  const gw = await connect();
  const ready = await gw.identify(t.world.botToken, { intents: GUILDS | GUILD_MESSAGE_TYPING });
  await gw.dispatch('GUILD_CREATE');
  const lastSeq = Math.max(...gw.frames.map((f) => f.s ?? 0));
  gw.close(4000); // not 1000: the session stays resumable
  await gw.closed;
  for (let i = 0; i < 5; i++) {
    t.server.ctx.bus.publish({
      t: 'TYPING_START',
      d: { channel_id: t.world.textChannelId, guild_id: t.world.guildId, user_id: t.world.users[0].id, timestamp: i },
      guild_id: t.world.guildId,
      channel_id: t.world.textChannelId,
    });
  }
  await busDrained(t.server);
  const again = await connect();
  await again.wait((f) => f.op === 10);
  again.send(6, { token: t.world.botToken, session_id: ready.session_id, seq: lastSeq });
  await again.dispatch('RESUMED');
  const replayed = again.frames.filter((f) => f.t === 'TYPING_START');
  assert.deepEqual(
    replayed.map((f) => f.d.timestamp),
    [0, 1, 2, 3, 4],
  );
  assert.deepEqual(
    replayed.map((f) => f.s),
    [lastSeq + 1, lastSeq + 2, lastSeq + 3, lastSeq + 4, lastSeq + 5],
  );
  // A live event after RESUMED continues the sequence.
  t.server.ctx.bus.publish({
    t: 'TYPING_START',
    d: { channel_id: t.world.textChannelId, guild_id: t.world.guildId, user_id: t.world.users[0].id, timestamp: 9 },
    guild_id: t.world.guildId,
    channel_id: t.world.textChannelId,
  });
  const live = await again.wait((f) => f.t === 'TYPING_START' && f.d.timestamp === 9);
  assert.equal(live.s, lastSeq + 7); // +5 replayed, +1 RESUMED
  again.close();
});

test('RESUME of an unknown session is Invalid Session (false); a seq from the future closes 4007', async () => {
  let gw = await connect();
  await gw.wait((f) => f.op === 10);
  gw.send(6, { token: t.world.botToken, session_id: 'nope', seq: 1 });
  const inv = await gw.wait((f) => f.op === 9);
  assert.equal(inv.d, false);
  gw.close();

  const first = await connect();
  const ready = await first.identify(t.world.botToken, { intents: GUILDS });
  first.close(4000);
  await first.closed;
  gw = await connect();
  await gw.wait((f) => f.op === 10);
  gw.send(6, { token: t.world.botToken, session_id: ready.session_id, seq: 10_000 });
  await closesWith(gw, 4007);
});

test('a clean close (1000) ends the session: it cannot be resumed', async () => {
  const gw = await connect();
  const ready = await gw.identify(t.world.botToken, { intents: GUILDS });
  gw.close(1000);
  await gw.closed;
  await new Promise((r) => setTimeout(r, 50));
  const again = await connect();
  await again.wait((f) => f.op === 10);
  again.send(6, { token: t.world.botToken, session_id: ready.session_id, seq: 1 });
  assert.equal((await again.wait((f) => f.op === 9)).d, false);
  again.close();
});

test('zlib-stream compression carries the same frames', async () => {
  const gw = await connect('?v=10&encoding=json&compress=zlib-stream');
  const ready = await gw.identify(t.world.botToken, { intents: GUILDS });
  assert.equal(ready.user.id, t.world.botUserId);
  const guild = await gw.dispatch('GUILD_CREATE');
  assert.equal(guild.id, t.world.guildId);
  gw.close();
});

test('intents filter dispatches, and MESSAGE_CONTENT blanks content unless the bot is mentioned (real messages over HTTP)', async () => {
  const noTyping = await connect();
  await noTyping.identify(t.world.botToken, { intents: GUILDS | GUILD_MESSAGES });
  const withContent = await connect();
  await withContent.identify(t.world.botToken, { intents: GUILDS | GUILD_MESSAGES | MESSAGE_CONTENT });
  const alice = t.world.users[0].token;
  const ch = t.world.textChannelId;
  const post = async (body: unknown) => {
    const r = await t.api(`/channels/${ch}/messages`, { method: 'POST', token: alice, body });
    assert.equal(r.status, 200, r.text);
    return r.body;
  };
  // alice types, then posts a message with an embed, one with a file, and one that mentions the bot.
  assert.equal((await t.api(`/channels/${ch}/typing`, { method: 'POST', token: alice })).status, 204);
  const secret = await post({ content: 'secret', embeds: [{ title: 'hidden embed' }] });
  const form = new FormData();
  form.set('payload_json', JSON.stringify({ content: 'see file' }));
  form.set('files[0]', new Blob([Buffer.from('file body')], { type: 'text/plain' }), 'notes.txt');
  const withFile = (await t.api(`/channels/${ch}/messages`, { method: 'POST', token: alice, body: form })).body;
  const mention = await post({ content: `hi <@${t.world.botUserId}>` });
  // The bot's own message is never blanked for it.
  const own = (await t.api(`/channels/${ch}/messages`, { method: 'POST', token: t.world.botToken, bot: true, body: { content: 'mine' } })).body;

  const blank = await noTyping.dispatch('MESSAGE_CREATE', (d) => d.id === secret.id);
  assert.equal(blank.content, '');
  assert.deepEqual(blank.embeds, []);
  const blankFile = await noTyping.dispatch('MESSAGE_CREATE', (d) => d.id === withFile.id);
  assert.deepEqual([blankFile.content, blankFile.attachments], ['', []]);
  assert.equal((await noTyping.dispatch('MESSAGE_CREATE', (d) => d.id === mention.id)).content, `hi <@${t.world.botUserId}>`);
  assert.equal((await noTyping.dispatch('MESSAGE_CREATE', (d) => d.id === own.id)).content, 'mine');
  const full = await withContent.dispatch('MESSAGE_CREATE', (d) => d.id === secret.id);
  assert.equal(full.content, 'secret');
  assert.equal(full.embeds[0].title, 'hidden embed');
  assert.equal((await withContent.dispatch('MESSAGE_CREATE', (d) => d.id === withFile.id)).attachments[0].filename, 'notes.txt');
  // Without GUILD_MESSAGE_TYPING the typing event never came (read after a barrier: everything sent has arrived).
  await gatewaySynced(t.server, noTyping);
  assert.equal(noTyping.frames.filter((f) => f.t === 'TYPING_START').length, 0);
  noTyping.close();
  withContent.close();
});

test("sharding routes a guild's events to the shard that owns it", async () => {
  const shards = [await connect(), await connect()];
  await shards[0].identify(t.world.botToken, { intents: GUILDS | GUILD_MESSAGE_TYPING, shard: [0, 2] });
  await shards[1].identify(t.world.botToken, { intents: GUILDS | GUILD_MESSAGE_TYPING, shard: [1, 2] });
  const owner = shardOf(t.world.guildId, 2);
  t.server.ctx.bus.publish({
    t: 'TYPING_START',
    d: { channel_id: t.world.textChannelId, guild_id: t.world.guildId, user_id: t.world.users[0].id, timestamp: 42 },
    guild_id: t.world.guildId,
    channel_id: t.world.textChannelId,
  });
  await shards[owner].dispatch('TYPING_START', (d) => d.timestamp === 42);
  await t.server.gateway.dispatcher.idle();
  assert.equal(shards[1 - owner].frames.filter((f) => f.t === 'TYPING_START').length, 0);
  assert.equal(shards[1 - owner].frames.filter((f) => f.t === 'GUILD_CREATE').length, 0);
  for (const s of shards) s.close();
});

test('Request Guild Members: chunks, not_found, nonce, and RATE_LIMITED for a second "all" within 30 s', async () => {
  const gw = await connect();
  await gw.identify(t.world.botToken, { intents: GUILDS | GUILD_MEMBERS });
  await gw.dispatch('GUILD_CREATE');
  gw.send(8, { guild_id: t.world.guildId, query: '', limit: 0, nonce: 'a' });
  const chunk = await gw.dispatch('GUILD_MEMBERS_CHUNK', (d) => d.nonce === 'a');
  assert.equal(chunk.members.length, 3);
  assert.equal(chunk.chunk_index, 0);
  assert.equal(chunk.chunk_count, 1);
  gw.send(8, { guild_id: t.world.guildId, query: '', limit: 0, nonce: 'b' });
  const limited = await gw.dispatch('RATE_LIMITED');
  assert.equal(limited.opcode, 8);
  assert.ok(limited.retry_after > 0 && limited.retry_after <= 30);
  assert.deepEqual(limited.meta, { guild_id: t.world.guildId, nonce: 'b' });
  gw.send(8, { guild_id: t.world.guildId, user_ids: [t.world.users[1].id, '123'], nonce: 'c' });
  const byId = await gw.dispatch('GUILD_MEMBERS_CHUNK', (d) => d.nonce === 'c');
  assert.deepEqual(
    byId.members.map((m: any) => m.user.id),
    [t.world.users[1].id],
  );
  assert.deepEqual(byId.not_found, ['123']);
  // Moving the dev clock past the window lifts the limit.
  const moved = await fetch(`${t.server.url}/__dev/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...devHeaders(t) },
    body: JSON.stringify({ advance_ms: 31_000 }),
  });
  assert.equal(moved.status, 200);
  gw.send(8, { guild_id: t.world.guildId, query: '', limit: 0, nonce: 'd' });
  await gw.dispatch('GUILD_MEMBERS_CHUNK', (d) => d.nonce === 'd');
  gw.close();
});

test('Request Channel Info (op 43) answers CHANNEL_INFO for voice channels', async () => {
  const gw = await connect();
  await gw.identify(t.world.botToken, { intents: GUILDS });
  gw.send(43, { guild_id: t.world.guildId, fields: ['status', 'voice_start_time'] });
  const info = await gw.dispatch('CHANNEL_INFO');
  assert.equal(info.guild_id, t.world.guildId);
  assert.deepEqual(info.channels, [{ id: t.world.voiceChannelId, status: null, voice_start_time: null }]);
  gw.close();
});

test('GET /gateway and /gateway/bot', async () => {
  const open = await t.api('/gateway');
  assert.match(open.body.url, /^ws:\/\//);
  const bot = await t.api('/gateway/bot', { token: t.world.botToken, bot: true });
  assert.equal(bot.body.shards, 1);
  assert.equal(bot.body.session_start_limit.max_concurrency, 1);
  assert.equal((await t.api('/gateway/bot', { token: t.world.users[0].token })).body.code, 20002);
});

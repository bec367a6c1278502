import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { parseJson } from '../src/core/json.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RawGateway } from './helpers/gateway-client.js';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(async () => {
  await t?.close();
});

/** A raw request whose body is sent byte for byte, so ids can be JSON numbers. */
async function raw(path: string, method: string, body: string | Buffer | undefined, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.server.url}/api/v10${path}`, { method, body, headers: { authorization: `Bot ${t.world.botToken}`, ...headers } });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? (parseJson(text) as any) : null };
}

test('parseJson keeps every digit of integers beyond 2^53 and parses everything else as JSON.parse does', () => {
  assert.deepEqual(parseJson('{"a":1574819044689866752,"b":[1574819044689866753,-9007199254740993],"c":"1574819044689866752"}'), {
    a: '1574819044689866752',
    b: ['1574819044689866753', '-9007199254740993'],
    c: '1574819044689866752',
  });
  // Safe integers, floats and exponents stay numbers; digits inside strings (even after escapes) are untouched.
  assert.deepEqual(
    parseJson('{"n":9007199254740991,"f":12345678901234567.5,"e":1e300,"s":"x\\"12345678901234567890"}'),
    // eslint-disable-next-line no-loss-of-precision -- a float past 2^53 on purpose
    { n: 9007199254740991, f: 12345678901234567.5, e: 1e300, s: 'x"12345678901234567890' },
  );
  assert.throws(() => parseJson('{"a":012345678901234567}'), SyntaxError);
  assert.throws(() => parseJson('[12345678901234567890'), SyntaxError);
});

test('a reply and a bulk delete with integer ids above 2^53 work (discord.py sends ids as JSON numbers)', async () => {
  const ch = t.world.textChannelId;
  assert.ok(BigInt(ch) > 2n ** 53n, 'seeded ids are above 2^53');
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const m = await raw(`/channels/${ch}/messages`, 'POST', JSON.stringify({ content: `m${i}` }), { 'content-type': 'application/json' });
    assert.equal(m.status, 200);
    ids.push(m.body.id);
  }
  const reply = await raw(`/channels/${ch}/messages`, 'POST', `{"content":"re","message_reference":{"message_id":${ids[0]},"channel_id":${ch}}}`, {
    'content-type': 'application/json',
  });
  assert.equal(reply.status, 200, reply.text);
  assert.equal(reply.body.type, 19);
  assert.equal(reply.body.message_reference.message_id, ids[0]);
  assert.equal(reply.body.referenced_message.id, ids[0]);

  const del = await raw(`/channels/${ch}/messages/bulk-delete`, 'POST', `{"messages":[${ids[1]},${ids[2]}]}`, { 'content-type': 'application/json' });
  assert.equal(del.status, 204, del.text);
  for (const id of ids.slice(1)) assert.equal((await raw(`/channels/${ch}/messages/${id}`, 'GET', undefined)).status, 404);
  assert.equal((await raw(`/channels/${ch}/messages/${ids[0]}`, 'GET', undefined)).status, 200);
});

test('Gateway op 8 with an integer guild_id above 2^53 answers GUILD_MEMBERS_CHUNK', async () => {
  const gw = await RawGateway.connect(t.server.url);
  try {
    await gw.identify(t.world.botToken, { intents: (1 << 1) | 1 });
    gw.ws.send(`{"op":8,"d":{"guild_id":${t.world.guildId},"query":"","limit":0,"user_ids":[${t.world.users[1].id}],"nonce":"n1"}}`);
    const chunk = await gw.dispatch('GUILD_MEMBERS_CHUNK', (d) => d.nonce === 'n1');
    assert.equal(chunk.guild_id, t.world.guildId);
    assert.deepEqual(
      chunk.members.map((m: any) => m.user.id),
      [t.world.users[1].id],
    );
  } finally {
    gw.ws.close();
  }
});

test("a percent-encoded @me is @me (discord-api-types Routes.user('@me') is /users/%40me)", async () => {
  const me = await raw('/users/%40me', 'GET', undefined);
  assert.equal(me.status, 200, me.text);
  assert.equal(me.body.id, t.world.botUserId);
  const member = await raw(`/guilds/${t.world.guildId}/members/%40me`, 'PATCH', JSON.stringify({ nick: 'Encoded' }), { 'content-type': 'application/json' });
  assert.equal(member.status, 200, member.text);
  assert.equal(member.body.nick, 'Encoded');
});

test('a bodiless PUT or POST is accepted whatever its content type (aiohttp sends octet-stream with length 0)', async () => {
  const ch = t.world.textChannelId;
  const m = await raw(`/channels/${ch}/messages`, 'POST', JSON.stringify({ content: 'react' }), { 'content-type': 'application/json' });
  const empty = { 'content-type': 'application/octet-stream', 'content-length': '0' };
  assert.equal((await raw(`/channels/${ch}/typing`, 'POST', Buffer.alloc(0), empty)).status, 204);
  assert.equal((await raw(`/channels/${ch}/messages/${m.body.id}/reactions/%F0%9F%91%8D/@me`, 'PUT', Buffer.alloc(0), empty)).status, 204);
  assert.equal((await raw(`/channels/${ch}/pins/${m.body.id}`, 'PUT', Buffer.alloc(0), empty)).status, 204);
  // A body that is not empty still needs a type the platform reads.
  const bad = await raw(`/channels/${ch}/typing`, 'POST', Buffer.from('x'), { 'content-type': 'application/octet-stream' });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.errors._errors[0].code, 'CONTENT_TYPE_INVALID');
});

test('every JSON answer is bare application/json and carries Via, including thread creation and the slowmode 429', async () => {
  const ch = t.world.textChannelId;
  const json = { 'content-type': 'application/json' };
  const m = await raw(`/channels/${ch}/messages`, 'POST', JSON.stringify({ content: 'thread root' }), json);
  const answers = [
    await raw(`/channels/${ch}/messages/${m.body.id}/threads`, 'POST', JSON.stringify({ name: 'from message' }), json),
    await raw(`/channels/${ch}/threads`, 'POST', JSON.stringify({ name: 'standalone', type: 11 }), json),
    await raw(`/channels/${ch}/messages/${m.body.id}/threads`, 'POST', JSON.stringify({ name: 'again' }), json), // 400: already has a thread
    await raw('/does-not-exist', 'GET', undefined),
  ];
  await raw(`/channels/${ch}`, 'PATCH', JSON.stringify({ rate_limit_per_user: 30 }), json);
  const bob = { authorization: t.world.users[1].token, ...json };
  assert.equal((await raw(`/channels/${ch}/messages`, 'POST', JSON.stringify({ content: 'one' }), bob)).status, 200);
  const slow = await raw(`/channels/${ch}/messages`, 'POST', JSON.stringify({ content: 'two' }), bob);
  assert.equal(slow.status, 429);
  assert.equal(slow.body.code, 20016);
  answers.push(slow);
  await raw(`/channels/${ch}`, 'PATCH', JSON.stringify({ rate_limit_per_user: 0 }), json);
  assert.deepEqual(
    answers.map((a) => a.status),
    [201, 201, 400, 404, 429],
  );
  for (const a of answers) {
    assert.equal(a.headers.get('content-type'), 'application/json');
    assert.equal(a.headers.get('via'), '1.1 google');
  }
  assert.ok(Number(slow.headers.get('retry-after')) >= 1);
});

test('ids beyond a signed 64-bit integer are refused or unknown, never a 500 (PostgreSQL cannot hold them)', async () => {
  const big = '18446744073709551616'; // 2^64: twenty digits, so only the range tells it from an id
  const json = { 'content-type': 'application/json' };
  const dm = await raw('/users/@me/channels', 'POST', JSON.stringify({ recipient_id: big }), json);
  assert.equal(dm.status, 400, dm.text);
  assert.equal(dm.body.code, 50035);
  assert.equal(dm.body.errors.recipient_id._errors[0].code, 'NUMBER_TYPE_MAX');
  const asNumber = await raw('/users/@me/channels', 'POST', `{"recipient_id":${big}}`, json);
  assert.equal(asNumber.status, 400, asNumber.text);
  const user = await raw(`/users/${big}`, 'GET', undefined);
  assert.equal(user.status, 404, user.text);
  assert.equal(user.body.code, 10013);
  const ch = t.world.textChannelId;
  const m = await raw(`/channels/${ch}/messages`, 'POST', JSON.stringify({ content: `<@${big}> <@&${big}>` }), json);
  assert.equal(m.status, 200, m.text);
  assert.deepEqual([m.body.mentions, m.body.mention_roles], [[], []]);
  const reaction = await raw(`/channels/${ch}/messages/${m.body.id}/reactions/${encodeURIComponent(`x:${big}`)}/@me`, 'PUT', undefined);
  assert.equal(reaction.status, 400, reaction.text);
  assert.equal(reaction.body.code, 10014);
  const cdn = await fetch(`${t.server.url}/emojis/${big}.png`);
  assert.equal(cdn.status, 404);
});

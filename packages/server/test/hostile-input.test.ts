// engine-independent: bodies and URLs refused before any storage
/**
 * Hostile bodies and URLs (issue 14, defects 1 and 2, and "text/plain bodies are parsed as JSON"): nesting thousands
 * deep, bad percent-encoding and bodies of the wrong type all answer 4xx in the platform's envelope {code, message},
 * never 500, never the framework's own error, and never a stack trace in the log.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startTestServer, type TestServer } from './helpers/server.js';
import { short } from '../src/core/validation.js';
import { nestingExceeds, parseJson } from '../src/core/json.js';

let t: TestServer;
const logged: string[] = [];
const originals = { error: console.error, warn: console.warn };
before(async () => {
  // logLevel info: the server logs as it would in production; the test reads what it writes.
  t = await startTestServer({ logLevel: 'info' });
  console.error = (...args: unknown[]) => {
    logged.push(args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack}` : String(a))).join(' '));
  };
  console.warn = (...args: unknown[]) => {
    logged.push(args.map(String).join(' '));
  };
});
after(async () => {
  console.error = originals.error;
  console.warn = originals.warn;
  await t?.close();
});

const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
const deepObj = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

async function raw(path: string, method: string, body: string | undefined, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.server.url}${path}`, { method, body, headers });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* asserted by the caller */
  }
  return { status: res.status, text, json };
}

function assertEnvelope(r: { status: number; text: string; json: any }, status: number, codes: number[]) {
  assert.equal(r.status, status, r.text.slice(0, 300));
  assert.ok(r.json && typeof r.json === 'object', r.text.slice(0, 300));
  assert.equal(typeof r.json.code, 'number', `numeric code: ${r.text.slice(0, 300)}`);
  assert.ok(codes.includes(r.json.code), r.text.slice(0, 300));
  assert.equal(typeof r.json.message, 'string');
  assert.doesNotMatch(r.text, /FST_|fastify|statusCode/i, 'the framework is never named');
}

test('5000-deep nesting in a field answers 400, never 500 (login, message content, guild and role names)', async () => {
  const json = { 'content-type': 'application/json' };
  const bot = { ...json, authorization: `Bot ${t.world.botToken}` };
  const user = { ...json, authorization: t.world.users[0].token };
  for (const value of [deep(5000), deepObj(5000), deep(100_000)]) {
    assertEnvelope(await raw('/api/v10/auth/login', 'POST', `{"login": ${value}, "password": "y"}`, json), 400, [50035, 50109]);
    assertEnvelope(await raw(`/api/v10/channels/${t.world.textChannelId}/messages`, 'POST', `{"content": ${value}}`, bot), 400, [50035, 50109]);
    assertEnvelope(await raw('/api/v10/guilds', 'POST', `{"name": ${value}}`, user), 400, [50035, 50109]);
    assertEnvelope(await raw(`/api/v10/guilds/${t.world.guildId}/roles`, 'POST', `{"name": ${value}}`, bot), 400, [50035, 50109]);
    assertEnvelope(await raw(`/api/v10/guilds/${t.world.guildId}/roles`, 'POST', value, bot), 400, [50035, 50109]);
  }
  // Within the depth bound, the field's own 50035 error names the value in at most 50 characters.
  const r = await raw('/api/v10/auth/login', 'POST', `{"login": ${deep(40)}, "password": "y"}`, json);
  assertEnvelope(r, 400, [50035]);
  assert.ok(r.text.length < 1000, r.text);
});

test('the error message builder never walks a whole value', () => {
  let v: unknown = 1;
  for (let i = 0; i < 200_000; i++) v = [v]; // deeper than any stack
  assert.ok(short(v).length <= 51);
  const wide = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, 'x'.repeat(1000)]));
  assert.ok(short(wide).length <= 51);
  assert.equal(short('abc'), 'abc');
  assert.equal(short([1, 'a']), '[1,"a"]');
  assert.equal(short({ a: true }), '{"a":true}');
});

test('JSON nesting is bounded on the text, strings and escapes aside', () => {
  assert.equal(nestingExceeds(deep(64), 64), false);
  assert.equal(nestingExceeds(deep(65), 64), true);
  assert.equal(nestingExceeds(`["${'['.repeat(1000)}"]`, 64), false);
  assert.equal(nestingExceeds(`["\\"${'['.repeat(100)}"]`, 64), false);
  assert.throws(() => parseJson(deep(65)), SyntaxError);
  assert.deepEqual(parseJson('{"a":[[1]]}'), { a: [[1]] });
});

test('bad percent-encoding answers 400 in the platform envelope, on the API and the CDN', async () => {
  for (const path of ['/api/v10/channels/%ff%fe/messages', '/api/channels/%E0%A4%A/messages', '/attachments/%ff/%fe/x.png', '/emojis/%ff.png', '/%c0%af']) {
    assertEnvelope(await raw(path, 'GET', undefined), 400, [0]);
  }
});

test("a request the HTTP parser cannot read gets the platform envelope, not the framework's", async () => {
  const { port } = new URL(t.server.url);
  for (const request of [
    'GET /api/v10/gateway HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
    'GARBAGE\r\n\r\n',
    `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`,
  ]) {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(request));
      let data = '';
      socket.on('data', (d) => {
        data += d;
      });
      socket.on('close', () => resolve(data));
      socket.on('error', reject);
    });
    const [head, body] = answer.split('\r\n\r\n');
    assert.match(head, /^HTTP\/1\.1 4\d\d /, answer.slice(0, 200));
    const json = JSON.parse(body);
    assert.equal(json.code, 0);
    assert.match(json.message, /^4\d\d: /);
    assert.doesNotMatch(answer, /statusCode|"error"/);
  }
});

test('text/plain bodies are not parsed as JSON; an empty body of any type is still no body', async () => {
  const r = await raw('/api/v10/auth/login', 'POST', JSON.stringify({ login: t.world.users[0].username, password: t.world.users[0].password }), {
    'content-type': 'text/plain',
  });
  assertEnvelope(r, 400, [50035]);
  assert.equal(r.json.errors?._errors?.[0]?.code, 'CONTENT_TYPE_INVALID');
  const msg = await raw(`/api/v10/channels/${t.world.textChannelId}/messages`, 'POST', JSON.stringify({ content: 'hi' }), {
    'content-type': 'text/plain;charset=UTF-8',
    authorization: `Bot ${t.world.botToken}`,
  });
  assertEnvelope(msg, 400, [50035]);
  const typing = await raw(`/api/v10/channels/${t.world.textChannelId}/typing`, 'POST', '', {
    'content-type': 'text/plain',
    authorization: `Bot ${t.world.botToken}`,
  });
  assert.equal(typing.status, 204, typing.text);
  const ok = await raw('/api/v10/auth/login', 'POST', JSON.stringify({ login: t.world.users[0].username, password: t.world.users[0].password }), {
    'content-type': 'application/json; charset=utf-8',
  });
  assert.equal(ok.status, 200, ok.text);
});

test('auto-moderation refuses patterns that backtrack without end, and never runs one saved before the check', async () => {
  const bot = { 'content-type': 'application/json', authorization: `Bot ${t.world.botToken}` };
  const rules = `/api/v10/guilds/${t.world.guildId}/auto-moderation/rules`;
  const rule = (patterns: string[]) =>
    JSON.stringify({ name: 'r', event_type: 1, trigger_type: 1, trigger_metadata: { regex_patterns: patterns }, actions: [{ type: 1 }], enabled: true });
  for (const evil of ['(a+)+$', '(\\w*\\s?)*$', '(x|y)\\1', '(?<=a)b']) {
    const r = await raw(rules, 'POST', rule(['ok', evil]), bot);
    assertEnvelope(r, 400, [50035]);
    assert.equal(r.json.errors?.trigger_metadata?.regex_patterns?.['1']?._errors?.[0]?.code, 'AUTO_MODERATION_INVALID_REGEX', r.text);
  }
  const ok = await raw(rules, 'POST', rule(['d+i+s+c+o+r+d+', '(https?://)?(www\\.)?discord\\.gg']), bot);
  assert.equal(ok.status, 200, ok.text);
  // A pattern stored before the check (written straight to the store) is skipped, so a member's message cannot stall
  // the server: this send would never return if the pattern ran.
  const row = await t.server.ctx.repos.store.db.selectFrom('automod_rules').select(['id', 'data']).where('id', '=', ok.json.id).executeTakeFirstOrThrow();
  const data = JSON.parse(String(row.data));
  data.trigger_metadata.regex_patterns = ['(a+)+$'];
  await t.server.ctx.repos.store.db
    .updateTable('automod_rules')
    .set({ data: JSON.stringify(data) })
    .where('id', '=', ok.json.id)
    .execute();
  const sent = await raw(`/api/v10/channels/${t.world.textChannelId}/messages`, 'POST', JSON.stringify({ content: `${'a'.repeat(60)}!` }), {
    'content-type': 'application/json',
    authorization: t.world.users[1].token,
  });
  assert.equal(sent.status, 200, sent.text);
  await raw(`${rules}/${ok.json.id}`, 'DELETE', undefined, { authorization: `Bot ${t.world.botToken}` });
});

test('none of these requests wrote a stack trace; expected 4xx are one line each at most', () => {
  for (const line of logged) {
    assert.doesNotMatch(line, /\n\s+at /, `no stack: ${line.slice(0, 300)}`);
    assert.doesNotMatch(line, /unexpected error/, line.slice(0, 300));
  }
});

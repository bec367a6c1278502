/**
 * Property test: random and malformed bodies against the core write routes. Every answer is 2xx or 4xx (never
 * 5xx), every 4xx carries the error envelope {code: number, message: string}, and a 4xx writes nothing.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from './helpers/server.js';

const NUM_RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

const TABLES = ['users', 'tokens', 'applications', 'guilds', 'roles', 'members', 'channels', 'thread_members', 'messages', 'reactions', 'invites', 'bans', 'webhooks', 'files'];

type Who = 'owner' | 'bot' | 'none';
interface RouteSpec {
  name: string;
  method: 'POST' | 'PATCH';
  path: (t: TestServer) => string;
  who: Who[];
  /** Known fields of the route's body; the generator puts wrong types and garbage into them. */
  fields: string[];
  /** A body the route accepts; garbage is merged into it so one bad field sits among good ones. */
  valid: fc.Arbitrary<Record<string, unknown>>;
}

/** Short text that is valid for most name-like fields, sometimes with characters databases choke on. */
const text = (max = 20) => fc.oneof(
  { arbitrary: fc.string({ minLength: 2, maxLength: max }).filter((s) => s.trim().length >= 2), weight: 4 },
  { arbitrary: fc.constantFrom('nul\u0000inside', 'é🙂ö', "quote'and\"dq", 'back\\slash', 'tab\tnl\n'), weight: 1 },
);

const ROUTES: RouteSpec[] = [
  { name: 'POST /channels/{id}/messages', method: 'POST', path: (t) => `/channels/${t.world.textChannelId}/messages`, who: ['owner', 'bot'],
    fields: ['content', 'embeds', 'tts', 'nonce', 'enforce_nonce', 'allowed_mentions', 'message_reference', 'components', 'sticker_ids', 'flags', 'attachments', 'poll'],
    valid: fc.record({ content: text(200) }) },
  { name: 'PATCH /channels/{id}', method: 'PATCH', path: (t) => `/channels/${t.world.textChannelId}`, who: ['owner', 'bot'],
    fields: ['name', 'type', 'position', 'topic', 'nsfw', 'rate_limit_per_user', 'bitrate', 'user_limit', 'permission_overwrites', 'parent_id', 'default_auto_archive_duration', 'flags'],
    valid: fc.record({ topic: text(100), nsfw: fc.boolean() }, { requiredKeys: [] }) },
  { name: 'POST /guilds/{id}/roles', method: 'POST', path: (t) => `/guilds/${t.world.guildId}/roles`, who: ['owner', 'bot'],
    fields: ['name', 'permissions', 'color', 'colors', 'hoist', 'icon', 'unicode_emoji', 'mentionable'],
    valid: fc.record({ name: text(), permissions: fc.constantFrom('0', '2048'), color: fc.integer({ min: 0, max: 0xffffff }), hoist: fc.boolean() }, { requiredKeys: [] }) },
  { name: 'PATCH /guilds/{id}', method: 'PATCH', path: (t) => `/guilds/${t.world.guildId}`, who: ['owner', 'bot'],
    fields: ['name', 'verification_level', 'default_message_notifications', 'explicit_content_filter', 'afk_channel_id', 'afk_timeout', 'icon', 'owner_id', 'splash', 'banner', 'system_channel_id', 'system_channel_flags', 'rules_channel_id', 'public_updates_channel_id', 'preferred_locale', 'features', 'description', 'premium_progress_bar_enabled'],
    valid: fc.record({ name: text(), description: fc.option(text(100), { nil: null }), verification_level: fc.integer({ min: 0, max: 4 }) }, { requiredKeys: [] }) },
  { name: 'PATCH /guilds/{id}/members/{id}', method: 'PATCH', path: (t) => `/guilds/${t.world.guildId}/members/${t.world.users[1].id}`, who: ['owner', 'bot'],
    fields: ['nick', 'roles', 'mute', 'deaf', 'channel_id', 'communication_disabled_until', 'flags'],
    valid: fc.record({ nick: fc.option(text(), { nil: null }) }) },
  { name: 'POST /channels/{id}/invites', method: 'POST', path: (t) => `/channels/${t.world.textChannelId}/invites`, who: ['owner', 'bot'],
    fields: ['max_age', 'max_uses', 'temporary', 'unique', 'target_type', 'target_user_id', 'target_application_id'],
    valid: fc.record({ max_age: fc.integer({ min: 0, max: 604800 }), max_uses: fc.integer({ min: 0, max: 100 }), temporary: fc.boolean(), unique: fc.boolean() }, { requiredKeys: [] }) },
  { name: 'POST /channels/{id}/webhooks', method: 'POST', path: (t) => `/channels/${t.world.textChannelId}/webhooks`, who: ['owner', 'bot'],
    fields: ['name', 'avatar'],
    valid: fc.record({ name: text() }) },
  { name: 'POST /auth/register', method: 'POST', path: () => `/auth/register`, who: ['none'],
    fields: ['username', 'global_name', 'password', 'email', 'date_of_birth', 'consent'],
    valid: fc.record({ username: fc.stringMatching(/^[a-z0-9_.]{2,24}$/), password: fc.constantFrom('correct horse battery', 'pa\u0000ssword-with-nul'), global_name: text(), date_of_birth: fc.constant('1990-01-01') }, { requiredKeys: ['username', 'password'] }) },
  { name: 'PATCH /users/@me', method: 'PATCH', path: () => `/users/@me`, who: ['owner', 'bot'],
    fields: ['username', 'global_name', 'avatar', 'banner', 'bio', 'accent_color'],
    valid: fc.record({ global_name: text(), bio: text(100), accent_color: fc.integer({ min: 0, max: 0xffffff }) }, { requiredKeys: [] }) },
];

// ---- generators -------------------------------------------------------------------------------------------

const hugeString = fc.tuple(fc.integer({ min: 5_000, max: 300_000 }), fc.constantFrom('x', 'é', '🙂', '\u0000', ' ', '"', '\\')).map(([n, c]) => c.repeat(n));
const nastyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', '\u0000', 'null', 'true', '0', '-1', '1e309', '99999999999999999999999', '18446744073709551616', '@everyone', '<@1>', '__proto__', 'constructor', '../../etc/passwd', '%00', '\ud800', 'a'.repeat(33), 'data:image/png;base64,AAAA', '2020-13-45T99:99:99Z'),
);
const nastyNumber = fc.oneof(
  fc.integer(),
  // Fractions from integers: fc.double() trips a BigInt bug inside fast-check's generator on some seeds.
  fc.integer().map((i) => i / 7),
  fc.constantFrom(0, -0, -1, 1.5, 2 ** 31, 2 ** 53, 2 ** 63, -(2 ** 63), 1e21, Number.MAX_VALUE, Number.MIN_VALUE),
);
const leaf = fc.oneof(nastyString, nastyNumber, fc.boolean(), fc.constant(null));
const garbage: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { arbitrary: leaf, weight: 60 },
    { arbitrary: fc.array(tie('v'), { maxLength: 5 }), weight: 10 },
    { arbitrary: fc.dictionary(fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('__proto__', 'constructor', 'id', 'type')), tie('v'), { maxKeys: 5 }), weight: 10 },
    { arbitrary: hugeString, weight: 1 },
  ),
})).v;
/** Deep nesting: [[[[...]]]] or {"a":{"a":...}}. */
const deepNest = fc.tuple(fc.integer({ min: 50, max: 3000 }), fc.boolean()).map(([depth, arr]) => (arr ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)));

function objectFor(fields: string[]): fc.Arbitrary<Record<string, unknown>> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const f of fields) model[f] = garbage;
  return fc.record(model, { requiredKeys: [] });
}

interface FuzzRequest {
  who: Who;
  contentType: string | null;
  body: string | Buffer | undefined;
  label: string;
}

function requestFor(route: RouteSpec): fc.Arbitrary<FuzzRequest> {
  const json = fc.oneof(
    { arbitrary: route.valid, weight: 2 },
    { arbitrary: fc.tuple(route.valid, objectFor(route.fields)).map(([good, bad]) => ({ ...good, ...bad })), weight: 4 },
    { arbitrary: objectFor(route.fields), weight: 4 },
    { arbitrary: fc.array(objectFor(route.fields), { maxLength: 3 }), weight: 1 },
    { arbitrary: garbage, weight: 2 },
    { arbitrary: fc.jsonValue({ maxDepth: 4 }), weight: 1 },
  );
  const jsonText = json.map((v) => JSON.stringify(v) ?? 'null');
  const invalidText = fc.oneof(
    jsonText.chain((s) => fc.integer({ min: 0, max: Math.max(0, s.length - 1) }).map((n) => s.slice(0, n))),
    fc.tuple(jsonText, fc.constantFrom(',', '}', ']', 'x', '\u0000', '"')).map(([s, junk]) => s + junk),
    fc.string({ maxLength: 200 }),
    fc.constantFrom('{', '}', '[', '{"content":', "{'content':'single quotes'}", '{content: "no quotes"}', 'NaN', 'undefined', '{"a":1,}', '\ufeff{"content":"bom"}', '{"content":"\\ud800"}', '{"__proto__":{"admin":true}}'),
    deepNest,
  );
  const bytes = fc.uint8Array({ maxLength: 256 }).map((u) => Buffer.from(u));
  const encoded: fc.Arbitrary<Omit<FuzzRequest, 'who'>> = fc.oneof(
    { arbitrary: jsonText.map((body) => ({ contentType: 'application/json', body, label: 'json' })), weight: 40 },
    { arbitrary: invalidText.map((body) => ({ contentType: 'application/json', body, label: 'invalid-json' })), weight: 15 },
    { arbitrary: jsonText.map((body) => ({ contentType: 'text/plain', body, label: 'json-as-text/plain' })), weight: 5 },
    { arbitrary: fc.tuple(fc.constantFrom('application/x-www-form-urlencoded', 'application/octet-stream', 'application/xml', 'image/png', 'application/json; charset=latin1', 'multipart/form-data', 'multipart/form-data; boundary=zzz', 'text/html; charset=utf-8', 'x/y'), fc.oneof(jsonText, invalidText, bytes)).map(([contentType, body]) => ({ contentType, body, label: `ct:${contentType}` })), weight: 10 },
    { arbitrary: fc.oneof(jsonText, bytes).map((body) => ({ contentType: null, body: Buffer.from(body), label: 'no-content-type' })), weight: 5 },
    { arbitrary: multipart(jsonText, invalidText), weight: 5 },
    { arbitrary: fc.constant({ contentType: 'application/json', body: undefined, label: 'empty' }), weight: 1 },
  );
  return fc.record({ who: fc.constantFrom(...route.who), enc: encoded }).map(({ who, enc }) => ({ who, ...enc }));
}

function multipart(jsonText: fc.Arbitrary<string>, invalidText: fc.Arbitrary<string>): fc.Arbitrary<Omit<FuzzRequest, 'who'>> {
  const boundary = 'fuzzBoundary7MA4YWxkTrZu0gW';
  return fc.record({
    payload: fc.oneof(jsonText, invalidText),
    file: fc.option(fc.uint8Array({ maxLength: 64 }), { nil: undefined }),
    truncate: fc.boolean(),
  }).map(({ payload, file, truncate }) => {
    let text = `--${boundary}\r\nContent-Disposition: form-data; name="payload_json"\r\nContent-Type: application/json\r\n\r\n${payload}\r\n`;
    const parts: Buffer[] = [Buffer.from(text)];
    if (file) {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files[0]"; filename="f.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`), Buffer.from(file), Buffer.from('\r\n'));
    }
    parts.push(Buffer.from(`--${boundary}--\r\n`));
    let body = Buffer.concat(parts);
    if (truncate) body = body.subarray(0, Math.floor(body.length / 2));
    return { contentType: `multipart/form-data; boundary=${boundary}`, body, label: truncate ? 'multipart-truncated' : 'multipart' };
  });
}

// ---- the property -----------------------------------------------------------------------------------------

describe('fuzz: malformed bodies against the core write routes', { timeout: 600_000 }, () => {
  let t: TestServer;

  before(async () => {
    t = await startTestServer();
  });
  after(async () => {
    await t?.close();
  });

  /** Row counts of every table plus the rows a PATCH could touch. */
  async function snapshot() {
    const db = t.server.ctx.db;
    const union = TABLES.map((tb) => `SELECT '${tb}' AS t, COUNT(*) AS n FROM ${tb}`).join(' UNION ALL ');
    const counts = Object.fromEntries((await sql<{ t: string; n: number | string }>`${sql.raw(union)}`.execute(db)).rows.map((r) => [r.t, Number(r.n)]));
    const w = t.world;
    const [guild, channel, member, alice, bot, roles] = await Promise.all([
      db.selectFrom('guilds').selectAll().where('id', '=', w.guildId).executeTakeFirst(),
      db.selectFrom('channels').selectAll().where('id', '=', w.textChannelId).executeTakeFirst(),
      db.selectFrom('members').selectAll().where('guild_id', '=', w.guildId).where('user_id', '=', w.users[1].id).executeTakeFirst(),
      db.selectFrom('users').selectAll().where('id', '=', w.users[0].id).executeTakeFirst(),
      db.selectFrom('users').selectAll().where('id', '=', w.botUserId).executeTakeFirst(),
      db.selectFrom('roles').selectAll().where('guild_id', '=', w.guildId).orderBy('id').execute(),
    ]);
    return { counts, guild, channel, member, alice, bot, roles };
  }

  async function send(route: RouteSpec, req: FuzzRequest) {
    const headers: Record<string, string> = {};
    if (req.who === 'owner') headers.authorization = t.world.users[0].token;
    if (req.who === 'bot') headers.authorization = `Bot ${t.world.botToken}`;
    if (req.contentType) headers['content-type'] = req.contentType;
    // A Buffer body keeps fetch from adding a content type of its own.
    const body = req.body === undefined ? undefined : typeof req.body === 'string' ? Buffer.from(req.body) : req.body;
    const res = await fetch(`${t.server.url}/api/v10${route.path(t)}`, { method: route.method, headers, body, signal: AbortSignal.timeout(15_000) });
    const text = await res.text();
    return { status: res.status, text, contentType: res.headers.get('content-type') ?? '' };
  }

  const describeReq = (route: RouteSpec, req: FuzzRequest) => {
    const b = req.body === undefined ? '<none>' : typeof req.body === 'string' ? req.body : `<${req.body.length} bytes> ${req.body.toString('utf8')}`;
    return `${route.method} ${route.name} as ${req.who} [${req.label}] content-type=${req.contentType} body=${b.length > 300 ? b.slice(0, 300) + `… (${b.length} chars)` : b}`;
  };

  for (const route of ROUTES) {
    test(route.name, { timeout: 180_000 }, async (tc) => {
      const stats = new Map<string, number>();
      // The state before each request: taken once, and again only after a request that may have written.
      let before: Awaited<ReturnType<typeof snapshot>> | null = null;
      await fc.assert(
        fc.asyncProperty(requestFor(route), async (req) => {
          before ??= await snapshot();
          if (process.env.FUZZ_TRACE) process.stderr.write(`FUZZ ${describeReq(route, req).slice(0, 400)}\n`);
          const res = await send(route, req);
          const key = `${res.status}/${/"code":\s*(\d+)/.exec(res.text)?.[1] ?? '-'}`;
          stats.set(key, (stats.get(key) ?? 0) + 1);
          const where = `${describeReq(route, req)}\n  -> ${res.status} ${res.text.slice(0, 300)}`;
          if (res.status < 400 || res.status >= 500) before = null; // it may have written: take a new baseline
          assert.ok(res.status >= 200 && res.status < 500, `never 5xx (nor 1xx/3xx): ${where}`);
          if (res.status < 400) return;
          assert.match(res.contentType, /application\/json/, `4xx is JSON: ${where}`);
          let body: any;
          assert.doesNotThrow(() => { body = JSON.parse(res.text); }, `4xx body parses: ${where}`);
          assert.ok(body && typeof body === 'object' && !Array.isArray(body), `4xx body is an object: ${where}`);
          assert.equal(typeof body.code, 'number', `4xx envelope has a numeric code: ${where}`);
          assert.equal(typeof body.message, 'string', `4xx envelope has a string message: ${where}`);
          const after = await snapshot();
          const unchanged = isDeepStrictEqual(before, after);
          const changes = unchanged ? '' : JSON.stringify(diff(before, after)).slice(0, 2000);
          before = after;
          assert.ok(unchanged, `a 4xx wrote nothing: ${where}\n  changes=${changes}`);
        }),
        { numRuns: NUM_RUNS, seed: SEED, includeErrorInReport: true, interruptAfterTimeLimit: 150_000, markInterruptAsFailure: false },
      );
      const summary = JSON.stringify(Object.fromEntries([...stats].sort()));
      tc.diagnostic(`status/code counts: ${summary}`);
      // The route must exist (not every answer is the router's "404: Not Found"), and the refusal path must have run.
      assert.notEqual(stats.get('404/0') ?? 0, [...stats.values()].reduce((a, b) => a + b, 0), `route not implemented: ${summary}`);
      const fourxx = [...stats].filter(([k]) => Number(k.split('/')[0]) >= 400).reduce((n, [, c]) => n + c, 0);
      assert.ok(fourxx > 0, `some requests were refused: ${summary}`);
    });
  }

  test('a body over the size limit is 413 with the envelope, and writes nothing', { timeout: 60_000 }, async () => {
    const route = ROUTES[0];
    const before = await snapshot();
    const res = await send(route, { who: 'owner', contentType: 'application/json', body: JSON.stringify({ content: 'x'.repeat(27 * 1024 * 1024) }), label: 'too-large' });
    assert.equal(res.status, 413, res.text.slice(0, 200));
    const body = JSON.parse(res.text);
    assert.equal(body.code, 40005);
    assert.equal(typeof body.message, 'string');
    assert.ok(isDeepStrictEqual(before, await snapshot()));
  });
});

/** The keys that differ between two snapshots, for the failure message. */
function diff(a: any, b: any): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(a)) {
    if (!isDeepStrictEqual(a[k], b[k])) out[k] = { before: a[k], after: b[k] };
  }
  return out;
}

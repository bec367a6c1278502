/**
 * Property test over every write route of the HTTP API, enumerated from the server's own route table (POST, PUT,
 * PATCH and DELETE; no hand list): random and malformed bodies (wrong types in the route's known fields, garbage,
 * broken JSON, odd content types, multipart, huge and deep values), sent as each kind of actor the route's auth mode
 * allows or refuses (a user, the bot, an OAuth2 bearer token, nobody), against a rich world (the conformance world).
 *
 * Every answer is 2xx or 4xx (never 5xx); every 4xx carries the error envelope {code: number, message: string}; and a
 * 4xx writes nothing: every table of the store is hashed before and after (all rows, all columns).
 *
 * Size: FUZZ_CASES (default 400) cases in all at most, spread evenly over the routes (at least one each). The nightly form is
 * FUZZ_CASES=100000 (README). FUZZ_SEED replays a run. There is no time cut: a run that cannot finish fails on the
 * test's timeout instead of quietly running fewer cases.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { storeTables } from '../src/store/snapshot.js';
import { startServer, type RunningServer } from '../src/server.js';
import { dropSchema } from '../src/store/postgres.js';
import { allRoutes } from '../src/http/routes/index.js';
import type { RouteDef } from '../src/http/router.js';
import { Harness, buildWorld, extendWorld, bearer, asUser, BOT } from '../conformance/world.js';
import { seedLists } from '../conformance/world-lists.js';
import { FIXTURES } from '../conformance/fixtures.js';
import { loadSpec, type Schema } from '../conformance/spec.js';
import { routeKey } from '../conformance/run.js';

const TOTAL = Number(process.env.FUZZ_CASES ?? 400);
/** Routes of the OAuth2 protocol itself, whose errors are RFC 6749's `{error, error_description}`. */
const OAUTH_PROTOCOL = /^\/oauth2\/(token|token\/revoke|device\/authorize)$/;
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

type Actor = 'user' | 'bot' | 'bearer' | 'none';

/** Routes run last because they end the world for the others (tokens reset, the guild or the bot's membership gone). */
const LATE = [/\/reset$/, /\/bot$/, /^POST \/auth\/logout/, /^DELETE \/users\/@me\/guilds\//, /^DELETE \/guilds\/\{\w+\}$/, /^DELETE \/applications\//];
const lateness = (key: string) => LATE.findIndex((re) => re.test(key)) + 1;

const WRITE_ROUTES: RouteDef[] = allRoutes()
  .filter((r) => r.method !== 'GET')
  .sort((a, b) => lateness(`${a.method} ${a.path}`) - lateness(`${b.method} ${b.path}`));
/** Rounded down, so that the run stays within FUZZ_CASES (rounding up made 594 of the default 400 with 198 routes). */
const PER_ROUTE = Math.max(1, Math.floor(TOTAL / WRITE_ROUTES.length));

/** Which actors to try on a route: the ones its auth mode takes, and one it refuses. */
function actorsFor(def: RouteDef): Actor[] {
  switch (def.auth) {
    case 'none':
      return ['none'];
    case 'optional':
      return ['none', 'user', 'bearer'];
    case 'user':
      return ['user', 'bearer', 'bot'];
    case 'bot':
      return ['bot', 'user'];
    default:
      return ['user', 'bot', 'bearer', 'none'];
  }
}

/** Every scope a test bearer token might need, so bearer routes are reached rather than refused for scope. */
const SCOPES = [
  'identify',
  'email',
  'guilds',
  'guilds.members.read',
  'connections',
  'relationships.read',
  'dm_channels.read',
  'gdm.join',
  'applications.commands.update',
  'applications.commands.permissions.update',
  'applications.entitlements',
  'role_connections.write',
  'lobbies.write',
];

// ---- generators -------------------------------------------------------------------------------------------

const hugeString = fc.tuple(fc.integer({ min: 5_000, max: 300_000 }), fc.constantFrom('x', 'é', '🙂', '\u0000', ' ', '"', '\\')).map(([n, c]) => c.repeat(n));
const nastyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'null',
    'true',
    '0',
    '-1',
    '1e309',
    '99999999999999999999999',
    '18446744073709551616',
    '@everyone',
    '<@1>',
    '__proto__',
    'constructor',
    '../../etc/passwd',
    '%00',
    '\ud800',
    'a'.repeat(33),
    'data:image/png;base64,AAAA',
    '2020-13-45T99:99:99Z',
  ),
);
const nastyNumber = fc.oneof(
  fc.integer(),
  fc.integer().map((i) => i / 7),
  fc.constantFrom(0, -0, -1, 1.5, 2 ** 31, 2 ** 53, 2 ** 63, -(2 ** 63), 1e21, Number.MAX_VALUE, Number.MIN_VALUE),
);
const leaf = fc.oneof(nastyString, nastyNumber, fc.boolean(), fc.constant(null));
const garbage: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { arbitrary: leaf, weight: 60 },
    { arbitrary: fc.array(tie('v'), { maxLength: 5 }), weight: 10 },
    {
      arbitrary: fc.dictionary(fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('__proto__', 'constructor', 'id', 'type')), tie('v'), { maxKeys: 5 }),
      weight: 10,
    },
    { arbitrary: hugeString, weight: 1 },
  ),
})).v;
const nest = (depth: number, arr: boolean) => (arr ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth));
const deepNest = fc.tuple(fc.integer({ min: 50, max: 3000 }), fc.boolean()).map(([depth, arr]) => nest(depth, arr));
/** Nesting inside one of the route's fields, from just under the parser's bound (64) to far past any stack (issue 14). */
const deepIn = (fields: string[]) =>
  fc
    .tuple(
      fc.constantFrom(...(fields.length ? fields : ['name', 'content'])),
      fc.oneof(fc.integer({ min: 30, max: 80 }), fc.integer({ min: 1000, max: 50_000 })),
      fc.boolean(),
    )
    .map(([field, depth, arr]) => `{${JSON.stringify(field)}: ${nest(depth, arr)}}`);

function objectFor(fields: string[]): fc.Arbitrary<Record<string, unknown>> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const f of fields.length ? fields : ['name', 'content', 'id', 'type']) model[f] = garbage;
  return fc.record(model, { requiredKeys: [] });
}

interface FuzzRequest {
  who: Actor;
  contentType: string | null;
  body: string | Buffer | undefined;
  label: string;
}

interface Plan {
  def: RouteDef;
  key: string;
  url: string;
  /** The fields of the route's request body (the spec's schema and a valid body), where garbage goes. */
  fields: string[];
  /** A body the route accepts (from the conformance fixtures), or {}. */
  valid: unknown;
}

function requestFor(plan: Plan): fc.Arbitrary<FuzzRequest> {
  const valid = fc.constant(plan.valid);
  const json = fc.oneof(
    { arbitrary: valid, weight: 2 },
    {
      arbitrary: fc
        .tuple(valid, objectFor(plan.fields))
        .map(([good, bad]) => (good && typeof good === 'object' && !Array.isArray(good) ? { ...good, ...bad } : bad)),
      weight: 4,
    },
    { arbitrary: objectFor(plan.fields), weight: 4 },
    { arbitrary: fc.array(objectFor(plan.fields), { maxLength: 3 }), weight: 1 },
    { arbitrary: garbage, weight: 2 },
    { arbitrary: fc.jsonValue({ maxDepth: 4 }), weight: 1 },
  );
  const jsonText = json.map((v) => JSON.stringify(v) ?? 'null');
  const invalidText = fc.oneof(
    jsonText.chain((s) => fc.integer({ min: 0, max: Math.max(0, s.length - 1) }).map((n) => s.slice(0, n))),
    fc.tuple(jsonText, fc.constantFrom(',', '}', ']', 'x', '\u0000', '"')).map(([s, junk]) => s + junk),
    fc.string({ maxLength: 200 }),
    fc.constantFrom(
      '{',
      '}',
      '[',
      '{"content":',
      "{'content':'single quotes'}",
      'NaN',
      'undefined',
      '{"a":1,}',
      '\ufeff{"content":"bom"}',
      '{"content":"\\ud800"}',
      '{"__proto__":{"admin":true}}',
    ),
    deepNest,
  );
  const bytes = fc.uint8Array({ maxLength: 256 }).map((u) => Buffer.from(u));
  const encoded: fc.Arbitrary<Omit<FuzzRequest, 'who'>> = fc.oneof(
    { arbitrary: jsonText.map((body) => ({ contentType: 'application/json', body, label: 'json' })), weight: 40 },
    { arbitrary: invalidText.map((body) => ({ contentType: 'application/json', body, label: 'invalid-json' })), weight: 15 },
    { arbitrary: deepIn(plan.fields).map((body) => ({ contentType: 'application/json', body, label: 'deep-field' })), weight: 5 },
    { arbitrary: jsonText.map((body) => ({ contentType: 'text/plain', body, label: 'json-as-text/plain' })), weight: 5 },
    {
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            'application/x-www-form-urlencoded',
            'application/octet-stream',
            'application/xml',
            'image/png',
            'application/json; charset=latin1',
            'multipart/form-data',
            'multipart/form-data; boundary=zzz',
            'text/html; charset=utf-8',
            'x/y',
          ),
          fc.oneof(jsonText, invalidText, bytes),
        )
        .map(([contentType, body]) => ({ contentType, body, label: `ct:${contentType}` })),
      weight: 10,
    },
    { arbitrary: fc.oneof(jsonText, bytes).map((body) => ({ contentType: null, body: Buffer.from(body), label: 'no-content-type' })), weight: 5 },
    { arbitrary: multipart(jsonText, invalidText), weight: 5 },
    { arbitrary: fc.constant({ contentType: 'application/json', body: undefined, label: 'empty' }), weight: 1 },
  );
  return fc.record({ who: fc.constantFrom(...actorsFor(plan.def)), enc: encoded }).map(({ who, enc }) => ({ who, ...enc }));
}

function multipart(jsonText: fc.Arbitrary<string>, invalidText: fc.Arbitrary<string>): fc.Arbitrary<Omit<FuzzRequest, 'who'>> {
  const boundary = 'fuzzBoundary7MA4YWxkTrZu0gW';
  return fc
    .record({
      payload: fc.oneof(jsonText, invalidText),
      file: fc.option(fc.uint8Array({ maxLength: 64 }), { nil: undefined }),
      field: fc.constantFrom('files[0]', 'file', 'image'),
      truncate: fc.boolean(),
    })
    .map(({ payload, file, field, truncate }) => {
      const parts: Buffer[] = [
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="payload_json"\r\nContent-Type: application/json\r\n\r\n${payload}\r\n`),
      ];
      if (file)
        parts.push(
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="f.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`),
          Buffer.from(file),
          Buffer.from('\r\n'),
        );
      parts.push(Buffer.from(`--${boundary}--\r\n`));
      let body = Buffer.concat(parts);
      if (truncate) body = body.subarray(0, Math.floor(body.length / 2));
      return { contentType: `multipart/form-data; boundary=${boundary}`, body, label: truncate ? 'multipart-truncated' : 'multipart' };
    });
}

/** The top-level field names of a (zod mini) request schema: object shapes, union members, array items. */
function schemaKeys(schema: Schema | null, depth = 0): string[] {
  const def = (schema as any)?._zod?.def;
  if (!def || depth > 4) return [];
  if (def.shape) return Object.keys(def.shape);
  if (def.options) return [...new Set((def.options as Schema[]).flatMap((o) => schemaKeys(o, depth + 1)))];
  if (def.element) return schemaKeys(def.element, depth + 1);
  if (def.innerType) return schemaKeys(def.innerType, depth + 1);
  return [];
}

// ---- the world and the store ---------------------------------------------------------------------------------

/** Path parameters from the world: a few depend on the route (threads, polls, templates…); unknown ones get a fresh id. */
function paramFor(h: Harness, name: string, routePath: string): string {
  const id = (k: string) => h.ids[k] ?? '1100000000000000000';
  switch (name) {
    case 'guild_id':
      return id('guild');
    case 'channel_id':
      if (/thread-members|\/threads\/search/.test(routePath)) return id('thread');
      if (/followers|crosspost/.test(routePath)) return id('news');
      return id('text');
    case 'message_id':
      return /polls/.test(routePath) ? id('poll') : /crosspost/.test(routePath) ? id('newsMessage') : id('message');
    case 'user_id':
    case 'overwrite_id':
      return id('bob');
    case 'user_id_1':
      return id('alice');
    case 'user_id_2':
      return id('bob');
    case 'role_id':
      return id('role');
    case 'webhook_id':
      return id('webhook');
    case 'webhook_token':
      return id('webhookToken');
    case 'application_id':
      return id('app');
    case 'code':
      return /templates/.test(routePath) ? id('template') : id('invite');
    case 'emoji':
      return encodeURIComponent('👍');
    case 'command_id':
      return /guilds/.test(routePath) ? id('guildCommand') : id('globalCommand');
    case 'guild_scheduled_event_id':
      return id('event');
    case 'request_id':
      return id('joinRequest');
    case 'lobby_id':
      return id('lobby');
    case 'rule_id':
      return id('rule');
    case 'entitlement_id':
      return id('entitlement');
    case 'sku_id':
      return id('sku');
    case 'subscription_id':
      return id('subscription');
    case 'instance_id':
      return id('activityInstance');
    case 'interaction_id':
      return id('interaction');
    case 'interaction_token':
      return id('interactionToken');
    default:
      return crypto.randomInt(1, 2 ** 40).toString() + '000000';
  }
}

/** Every table of the store. */
const tableNames = (server: RunningServer) => storeTables(server.ctx.repos.store.db, server.ctx.repos.store.dialect);

/** A hash of every row of every table (rows sorted, blobs as base64), per table. */
async function snapshot(server: RunningServer, tables: string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of tables) {
    const rows = await server.ctx.repos.store.db
      .selectFrom(table as any)
      .selectAll()
      .execute();
    const lines = rows
      .map((r) =>
        JSON.stringify(r, (_k, v) =>
          Buffer.isBuffer(v) ? v.toString('base64') : v instanceof Uint8Array ? Buffer.from(v).toString('base64') : typeof v === 'bigint' ? v.toString() : v,
        ),
      )
      .sort();
    out[table] = `${rows.length}:${crypto.createHash('sha1').update(lines.join('\n')).digest('hex')}`;
  }
  return out;
}

describe('fuzz: malformed bodies against every write route of the HTTP API', { timeout: 3_600_000 }, () => {
  let server: RunningServer;
  let h: Harness;
  let dataDir: string;
  let schema: string | undefined;
  let tables: string[] = [];
  const plans = new Map<string, Plan>();
  const tokens: Partial<Record<Actor, string | null>> = {};

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'accord-fuzz-'));
    schema = process.env.DATABASE_URL ? `fuzz_${Date.now()}_${crypto.randomBytes(3).toString('hex')}` : undefined;
    server = await startServer({
      port: 0,
      host: '127.0.0.1',
      dataDir,
      rateLimits: false,
      dev: true,
      logLevel: 'silent',
      databaseUrl: process.env.DATABASE_URL || undefined,
      databaseSchema: schema,
    });
    h = await buildWorld(server);
    await extendWorld(h);
    await seedLists(h);
    await extraResources(h);
    tokens.user = await h.token(asUser('alice'));
    tokens.bot = await h.token(BOT);
    tokens.bearer = await h.token(bearer('alice', ...SCOPES));
    tokens.none = null;
    // Valid bodies from the conformance fixtures (their builders may make resources of their own), fields from the spec.
    const spec = await loadSpec();
    const ops = new Map(spec.operations.map((o) => [routeKey(o.method, o.path), o]));
    for (const def of WRITE_ROUTES) {
      const key = routeKey(def.method, def.path);
      const op = ops.get(key);
      let req: { params?: Record<string, string>; body?: unknown } = {};
      const build = op ? FIXTURES[op.operationId]?.build : undefined;
      if (build) {
        try {
          req = (await build(h)) ?? {};
        } catch {
          req = {};
        } // a fixture whose resource is missing here: no valid body
      }
      const body = req.body instanceof FormData ? {} : (req.body ?? {});
      const url = def.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(req.params?.[name] ?? paramFor(h, name, def.path)));
      const fields = [
        ...new Set([...schemaKeys(op?.requestSchema ?? null), ...(body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [])]),
      ];
      plans.set(`${def.method} ${def.path}`, { def, key, url, fields, valid: body });
    }
    tables = await tableNames(server);
    await settle(); // the world's own interactions time out now, not during a case
  });
  after(async () => {
    await h?.close();
    await server?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    if (process.env.DATABASE_URL && schema) await dropSchema(process.env.DATABASE_URL, schema);
  });

  /** Resources the conformance world leaves to its fixtures, so their routes get real targets too. */
  async function extraResources(w: Harness): Promise<void> {
    const G = w.need('guild');
    await w.step('fuzz: scheduled event', ['event'], async () => {
      const start = new Date(Date.now() + 86400_000).toISOString();
      w.ids.event = (
        await w.must('post', `/guilds/${G}/scheduled-events`, {
          body: {
            name: 'fuzz',
            privacy_level: 2,
            entity_type: 3,
            scheduled_start_time: start,
            scheduled_end_time: new Date(Date.now() + 2 * 86400_000).toISOString(),
            entity_metadata: { location: 'here' },
          },
        })
      ).id;
    });
    await w.step('fuzz: automod rule', ['rule'], async () => {
      w.ids.rule = (
        await w.must('post', `/guilds/${G}/auto-moderation/rules`, {
          body: { name: 'fuzz', event_type: 1, trigger_type: 1, trigger_metadata: { keyword_filter: ['fuzzword'] }, actions: [{ type: 1 }] },
        })
      ).id;
    });
    await w.step('fuzz: lobby', ['lobby'], async () => {
      w.ids.lobby = (await w.must('post', '/lobbies', { body: { members: [{ id: w.need('alice') }], idle_timeout_seconds: 604800 } })).id;
    });
    await w.step('fuzz: template', ['template'], async () => {
      w.ids.template = (await w.must('post', `/guilds/${G}/templates`, { auth: asUser('alice'), body: { name: 'fuzz' } })).code;
    });
    await w.step('fuzz: entitlement', ['entitlement'], async () => {
      w.ids.entitlement = (
        await w.must('post', `/applications/${w.need('app')}/entitlements`, { body: { sku_id: w.need('sku'), owner_id: w.need('bob'), owner_type: 2 } })
      ).id;
    });
    await w.step('fuzz: interaction', ['interaction', 'interactionToken'], async () => {
      const i = await w.interaction();
      w.ids.interaction = i.id;
      w.ids.interactionToken = i.token;
    });
  }

  /**
   * After a write: background clocks must not write during a later case's before/after window. Interactions time out
   * 3 s after delivery (wait until none is pending); lobbies expire when idle (move their deadlines out of the run).
   */
  async function settle(): Promise<void> {
    const db = server.ctx.repos.store.db;
    const deadline = Date.now() + 6000;
    while (Date.now() < deadline && (await db.selectFrom('interactions').select('id').where('state', '=', 'pending').executeTakeFirst()))
      await new Promise((r) => setTimeout(r, 100));
    await db
      .updateTable('lobbies')
      .set({ idle_deadline: server.ctx.clock.now() + 30 * 86400_000 })
      .execute();
  }

  async function send(plan: Plan, req: FuzzRequest) {
    const headers: Record<string, string> = {};
    const token = tokens[req.who];
    if (token) headers.authorization = token;
    if (req.contentType) headers['content-type'] = req.contentType;
    const body = req.body === undefined ? undefined : typeof req.body === 'string' ? Buffer.from(req.body) : req.body;
    const res = await fetch(`${server.url}/api/v10${plan.url}`, { method: plan.def.method, headers, body, signal: AbortSignal.timeout(15_000) });
    return { status: res.status, text: await res.text(), contentType: res.headers.get('content-type') ?? '' };
  }

  const describeReq = (plan: Plan, req: FuzzRequest) => {
    const b = req.body === undefined ? '<none>' : typeof req.body === 'string' ? req.body : `<${req.body.length} bytes> ${req.body.toString('utf8')}`;
    return `${plan.def.method} ${plan.url} as ${req.who} [${req.label}] content-type=${req.contentType} body=${b.length > 300 ? b.slice(0, 300) + `… (${b.length} chars)` : b}`;
  };

  test(`the route table gives at least 60 write routes (${WRITE_ROUTES.length}), with user, bot and bearer actors`, () => {
    assert.ok(WRITE_ROUTES.length >= 60, String(WRITE_ROUTES.length));
    const actors = new Set(WRITE_ROUTES.flatMap(actorsFor));
    for (const a of ['user', 'bot', 'bearer', 'none'] as const) assert.ok(actors.has(a), a);
    assert.equal(plans.size, WRITE_ROUTES.length);
    assert.ok(tables.length >= 50, `every table is snapshotted (${tables.length})`);
    assert.ok(tokens.bearer && tokens.bot && tokens.user);
  });

  test('the snapshot sees a single changed cell', async () => {
    const db = server.ctx.repos.store.db;
    const alice = h.need('alice');
    const row = await db.selectFrom('users').select('bio').where('id', '=', alice).executeTakeFirstOrThrow();
    const before = await snapshot(server, tables);
    await db
      .updateTable('users')
      .set({ bio: `${row.bio ?? ''}!` })
      .where('id', '=', alice)
      .execute();
    const changed = await snapshot(server, tables);
    await db.updateTable('users').set({ bio: row.bio }).where('id', '=', alice).execute();
    assert.deepEqual(
      Object.keys(changed).filter((k) => changed[k] !== before[k]),
      ['users'],
    );
    assert.deepEqual(await snapshot(server, tables), before);
  });

  const statsAll = new Map<string, number>();
  for (const def of WRITE_ROUTES) {
    const name = `${def.method} ${def.path}`;
    test(name, { timeout: 600_000 }, async () => {
      const plan = plans.get(name)!;
      let before: Record<string, string> | null = null;
      await fc.assert(
        fc.asyncProperty(requestFor(plan), async (req) => {
          before ??= await snapshot(server, tables);
          if (process.env.FUZZ_TRACE) process.stderr.write(`FUZZ ${describeReq(plan, req).slice(0, 400)}\n`);
          const res = await send(plan, req);
          statsAll.set(String(res.status), (statsAll.get(String(res.status)) ?? 0) + 1);
          const where = `${describeReq(plan, req)}\n  -> ${res.status} ${res.text.slice(0, 300)}`;
          assert.ok(res.status >= 200 && res.status < 500, `never 5xx (nor 1xx/3xx): ${where}`);
          if (res.status < 400) {
            await settle();
            before = null; // it may have written: a new baseline for the next case
            return;
          }
          assert.match(res.contentType, /^application\/json/, `4xx is JSON: ${where}`);
          let body: any;
          assert.doesNotThrow(() => {
            body = JSON.parse(res.text);
          }, `4xx body parses: ${where}`);
          assert.ok(body && typeof body === 'object' && !Array.isArray(body), `4xx body is an object: ${where}`);
          if (OAUTH_PROTOCOL.test(plan.def.path) && typeof body.error === 'string') {
            // The OAuth2 protocol endpoints answer their own errors in RFC 6749's form ({error, error_description}), as
            // the platform's do; errors of the transport (bad JSON, content type) keep the platform's envelope.
            assert.ok(body.error.length > 0, `4xx OAuth2 error has an error code: ${where}`);
          } else {
            assert.equal(typeof body.code, 'number', `4xx envelope has a numeric code: ${where}`);
            assert.equal(typeof body.message, 'string', `4xx envelope has a string message: ${where}`);
          }
          const after = await snapshot(server, tables);
          const changed = Object.keys(after).filter((k) => after[k] !== before![k]);
          before = after;
          assert.deepEqual(changed, [], `a 4xx wrote nothing: ${where}`);
        }),
        { numRuns: PER_ROUTE, seed: SEED, includeErrorInReport: true },
      );
    });
  }

  test("the run reached the routes: answers other than the router's 404, and some successes", () => {
    const total = [...statsAll.values()].reduce((a, b) => a + b, 0);
    assert.ok(total >= WRITE_ROUTES.length, `${total} cases`);
    assert.ok(
      [...statsAll].some(([s, n]) => Number(s) < 300 && n > 0),
      JSON.stringify(Object.fromEntries(statsAll)),
    );
  });

  test('every route (reads too) and the CDN: bad percent-encoding in the path and the query is 4xx in the envelope', { timeout: 600_000 }, async () => {
    const BAD = ['%ff%fe', '%E0%A4%A', '%', '%c0%af', '%00'];
    const token = tokens.user!;
    const seen = new Map<number, number>();
    const check = async (url: string, method: string) => {
      const res = await fetch(`${server.url}${url}`, { method, headers: { authorization: token }, signal: AbortSignal.timeout(15_000) });
      const text = await res.text();
      seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
      const where = `${method} ${url} -> ${res.status} ${text.slice(0, 200)}`;
      assert.ok(res.status >= 200 && res.status < 500, `never 5xx: ${where}`);
      if (res.status < 400) return;
      const body = JSON.parse(text);
      assert.equal(typeof body.code, 'number', `numeric code: ${where}`);
      assert.equal(typeof body.message, 'string', where);
      assert.doesNotMatch(text, /FST_|fastify/i, `the framework is never named: ${where}`);
    };
    await settle();
    const before = await snapshot(server, tables);
    for (const def of allRoutes()) {
      if (!def.path.includes('{')) {
        // Only reads here: a write route without parameters would run (log out, create…) and end the world.
        if (def.method === 'GET') await check(`/api/v10${def.path}?x=${BAD[0]}&${BAD[1]}=1`, def.method);
        continue;
      }
      for (const bad of BAD.slice(0, 3)) {
        let first = true;
        const url = def.path.replace(/\{(\w+)\}/g, (_, name: string) => {
          if (first) {
            first = false;
            return bad;
          }
          return encodeURIComponent(paramFor(h, name, def.path));
        });
        await check(`/api/v10${url}`, def.method);
      }
    }
    for (const path of [
      '/attachments/%ff/%fe/x.png',
      '/emojis/%ff%fe.png',
      '/stickers/%E0%A4%A.png',
      '/app-icons/%ff/x.png',
      '/avatars/%ff/%fe.png',
      '/%c0%af',
      '/app/%ff',
    ])
      await check(path, 'GET');
    assert.ok(seen.size > 0);
    assert.deepEqual(await snapshot(server, tables), before, 'nothing was written');
  });

  test('a body over the size limit is 413 with the envelope, and writes nothing', { timeout: 60_000 }, async () => {
    const plan = plans.get('POST /channels/{channel_id}/messages')!;
    const before = await snapshot(server, tables);
    const res = await send(plan, {
      who: 'user',
      contentType: 'application/json',
      body: JSON.stringify({ content: 'x'.repeat(27 * 1024 * 1024) }),
      label: 'too-large',
    });
    assert.equal(res.status, 413, res.text.slice(0, 200));
    const body = JSON.parse(res.text);
    assert.equal(body.code, 40005);
    assert.equal(typeof body.message, 'string');
    assert.deepEqual(await snapshot(server, tables), before);
  });
});

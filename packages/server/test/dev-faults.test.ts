// engine-independent: faults live in the server's memory and act on requests before any storage is read
/**
 * Dev-mode faults (POST/GET/DELETE /__dev/faults), the API and its HTTP kind: a rule is scoped to one application,
 * kept until deleted, used up or expired, and makes that app's requests answer 429 (exactly as the rate limiter
 * does), a 5xx envelope, or come late. Each fault has two halves: a naive client fails on it (it gets the 429 or the
 * 5xx, or gives up on the late answer), while @discordjs/rest waits out the 429 (of a route or global), retries the
 * 500 and the 503, and waits for the late answer, and the message is sent. Another app's requests are untouched.
 */
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { REST, RESTEvents, type RateLimitData } from '@discordjs/rest';
import { Routes } from 'discord-api-types/v10';
import { devHeaders, startTestServer, type TestServer } from './helpers/server.js';
import { installBot } from './helpers/fixtures.js';
import { addFault, clearFaults, faultsApi } from './helpers/faults.js';

let t: TestServer;
let other: { appId: string; userId: string; token: string };
const POST_MESSAGES = 'POST /channels/:channel_id/messages';

/** A bot's POST of a message, as a client with no retry logic makes it. */
const post = (token: string, content: string) => t.api(`/channels/${t.world.textChannelId}/messages`, { method: 'POST', token, bot: true, body: { content } });
/** The app's bot through @discordjs/rest, with its retries and rate-limit waits: the robust client. */
const botRest = () => new REST({ api: `${t.server.url}/api` }).setToken(t.world.botToken);

before(async () => {
  t = await startTestServer({ overrides: { dev: true } });
  other = await installBot(t, 'bystander', 2048n | 1024n);
});
afterEach(() => clearFaults(t));
after(() => t?.close());

test('a rule answers 201 with its parameters, remaining and expiry; it is listed per application and deleted', async () => {
  const rule = await addFault(t, { application_id: t.world.applicationId, kind: 'http', route: POST_MESSAGES, status: 500, count: 2, ttl_ms: 60_000 });
  assert.match(rule.id, /^\d+$/);
  assert.deepEqual(
    { ...rule, id: 0, expires_at: 0 },
    { id: 0, application_id: t.world.applicationId, kind: 'http', route: POST_MESSAGES, status: 500, remaining: 2, expires_at: 0 },
  );
  const ttl = Date.parse(rule.expires_at) - t.server.ctx.clock.now();
  assert.ok(ttl > 0 && ttl <= 60_000, `expires_at is ttl_ms ahead of the server clock (${ttl})`);
  const mine = await addFault(t, { application_id: other.appId, kind: 'gateway.dispatch', drop: true, events: ['TYPING_START'] });
  assert.deepEqual([mine.remaining, mine.expires_at], [null, null]);

  const listed = await faultsApi(t, 'GET', `?application_id=${t.world.applicationId}`);
  assert.equal(listed.status, 200);
  assert.deepEqual(listed.body, [rule]);
  assert.deepEqual(
    (await faultsApi(t, 'GET')).body.map((r: any) => r.id),
    [rule.id, mine.id],
  );

  assert.equal((await faultsApi(t, 'DELETE', `/${rule.id}`)).status, 204);
  assert.equal((await faultsApi(t, 'DELETE', `/${rule.id}`)).status, 204, 'deleting is idempotent');
  assert.deepEqual((await faultsApi(t, 'GET', `?application_id=${t.world.applicationId}`)).body, []);
  assert.equal((await faultsApi(t, 'DELETE', `?application_id=${other.appId}`)).status, 204);
  assert.deepEqual((await faultsApi(t, 'GET')).body, []);
});

test('bad input: 404 10002 for an unknown application, 400 50035 with field errors for bad parameters', async () => {
  const unknown = await faultsApi(t, 'POST', '', { application_id: '123456789012345678', kind: 'http', status: 500 });
  assert.equal(unknown.status, 404);
  assert.deepEqual(unknown.body, { message: 'Unknown Application', code: 10002 });
  const bad = async (body: Record<string, unknown>, field: string) => {
    const r = await faultsApi(t, 'POST', '', { application_id: t.world.applicationId, ...body });
    assert.equal(r.status, 400, JSON.stringify(r.body));
    assert.equal(r.body.code, 50035);
    assert.ok(r.body.errors[field], `an error on ${field}: ${JSON.stringify(r.body.errors)}`);
  };
  await bad({ kind: 'meteor' }, 'kind');
  await bad({ kind: 'http', status: 418 }, 'status');
  await bad({ kind: 'http' }, 'status'); // a rule that changes nothing
  await bad({ kind: 'http', status: 500, route: 'POST /channels/:channel_id/nope' }, 'route');
  await bad({ kind: 'http', status: 500, count: 0 }, 'count');
  await bad({ kind: 'gateway.close', close_code: 4999 }, 'close_code');
  await bad({ kind: 'gateway.dispatch', drop: true, events: ['message_create'] }, 'events'); // errors.events.0
  await bad({ kind: 'voice', loss: 2 }, 'loss');
  await bad({ kind: 'voice', loss: 0.5, count: 3 }, 'count');
  await bad({ kind: 'webhook_events', status: 200 }, 'status');
  const noToken = await fetch(`${t.server.url}/__dev/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ application_id: t.world.applicationId, kind: 'http', status: 500 }),
  });
  assert.equal(noToken.status, 401, 'the dev guard: no token, no fault');
  assert.deepEqual((await faultsApi(t, 'GET')).body, []);
  const noApp = await faultsApi(t, 'POST', '', { kind: 'http', status: 500 });
  assert.equal(noApp.status, 400);
  assert.ok(noApp.body.errors.application_id);
});

test("http 429 on a route: the platform's exact 429 to a naive client; @discordjs/rest waits it out and sends", async () => {
  await addFault(t, { application_id: t.world.applicationId, kind: 'http', route: POST_MESSAGES, status: 429, retry_after: 1 });
  const naive = await post(t.world.botToken, 'naive');
  assert.equal(naive.status, 429);
  assert.deepEqual(naive.body, { message: 'You are being rate limited.', retry_after: 1, global: false });
  assert.equal(naive.headers.get('retry-after'), '1');
  assert.equal(naive.headers.get('x-ratelimit-scope'), 'user');
  assert.equal(naive.headers.get('x-ratelimit-remaining'), '0');
  assert.equal(naive.headers.get('x-ratelimit-limit'), '5');
  assert.equal(naive.headers.get('x-ratelimit-reset-after'), '1.000');
  assert.match(naive.headers.get('x-ratelimit-bucket') ?? '', /^[0-9a-f]{16}$/);
  assert.equal(naive.headers.get('x-ratelimit-global'), null);
  assert.equal(naive.headers.get('content-type'), 'application/json');
  assert.equal(naive.headers.get('via'), '1.1 google');
  // Another app's bot, and the same bot on another route, are untouched.
  assert.equal((await post(other.token, 'bystander')).status, 200);
  assert.equal((await t.api('/users/@me', { token: t.world.botToken, bot: true })).status, 200);

  // discord.js's REST meets the 429, waits it out, then the message is sent.
  await clearFaults(t);
  await addFault(t, { application_id: t.world.applicationId, kind: 'http', route: POST_MESSAGES, status: 429, retry_after: 1, count: 1 });
  const rest = botRest();
  const limited: RateLimitData[] = [];
  rest.on(RESTEvents.RateLimited, (info) => limited.push(info));
  const started = Date.now();
  const sent = (await rest.post(Routes.channelMessages(t.world.textChannelId), { body: { content: 'robust' } })) as { content: string };
  assert.equal(sent.content, 'robust');
  assert.equal(limited.length, 1, 'the 429 was met');
  // The library's wait is the bucket's reset (1 s after the 429) less the time since, plus its own offset: a loaded
  // machine shortens it, so it is only bounded here, and the send is checked to come after it.
  const [hit] = limited;
  assert.ok(!hit.global && hit.scope === 'user' && hit.limit === 5 && hit.retryAfter > 0 && hit.retryAfter <= 2000, JSON.stringify(limited));
  assert.ok(Date.now() - started >= hit.retryAfter, 'the message went after the wait');
  assert.deepEqual((await faultsApi(t, 'GET')).body, [], 'the rule is used up');
});

test('http 429 global: a naive client gets the global 429 on any route and fails; @discordjs/rest waits out the global limit and passes', async () => {
  await addFault(t, { application_id: t.world.applicationId, kind: 'http', status: 429, retry_after: 2.5, global: true, count: 1 });
  const r = await t.api('/users/@me', { token: t.world.botToken, bot: true });
  assert.equal(r.status, 429);
  assert.deepEqual(r.body, { message: 'You are being rate limited.', retry_after: 2.5, global: true });
  assert.equal(r.headers.get('retry-after'), '3');
  assert.equal(r.headers.get('x-ratelimit-global'), 'true');
  assert.equal(r.headers.get('x-ratelimit-scope'), 'global');
  assert.equal(r.headers.get('x-ratelimit-bucket'), null);
  assert.equal((await t.api('/users/@me', { token: t.world.botToken, bot: true })).status, 200, 'count 1: the next one passes');

  // discord.js's REST marks the whole client globally limited for Retry-After, waits, then sends.
  await addFault(t, { application_id: t.world.applicationId, kind: 'http', status: 429, retry_after: 1, global: true, count: 1 });
  const rest = botRest();
  const limited: RateLimitData[] = [];
  rest.on(RESTEvents.RateLimited, (info) => limited.push(info));
  const started = Date.now();
  const sent = (await rest.post(Routes.channelMessages(t.world.textChannelId), { body: { content: 'after a global 429' } })) as { content: string };
  assert.equal(sent.content, 'after a global 429');
  const global = limited.filter((l) => l.global);
  assert.equal(global.length, 1, `the global limit was met: ${JSON.stringify(limited)}`);
  assert.ok(global[0].retryAfter >= 900, `it waited about retry_after: ${global[0].retryAfter}`);
  assert.ok(Date.now() - started >= 1000, 'the message went after the global limit reset');
  assert.deepEqual((await faultsApi(t, 'GET')).body, [], 'the rule is used up');
});

test('http 500 once: the naive client gets the 5xx envelope, @discordjs/rest retries and succeeds', async () => {
  await addFault(t, { application_id: t.world.applicationId, kind: 'http', route: POST_MESSAGES, status: 500, count: 1 });
  const naive = await post(t.world.botToken, 'naive');
  assert.equal(naive.status, 500);
  assert.deepEqual(naive.body, { message: '500: Internal Server Error', code: 0 });
  for (const status of [502, 503, 504] as const) {
    await addFault(t, { application_id: t.world.applicationId, kind: 'http', route: POST_MESSAGES, status, count: 1 });
    const r = await post(t.world.botToken, 'naive');
    assert.equal(r.status, status);
    assert.equal(r.body.code, 0);
  }

  await addFault(t, { application_id: t.world.applicationId, kind: 'http', route: POST_MESSAGES, status: 500, count: 1 });
  const rest = botRest();
  const statuses: number[] = [];
  rest.on(RESTEvents.Response, (_req, res) => statuses.push(res.status));
  const sent = (await rest.post(Routes.channelMessages(t.world.textChannelId), { body: { content: 'after a 500' } })) as { id: string };
  assert.deepEqual(statuses, [500, 200]);
  const stored = await t.api(`/channels/${t.world.textChannelId}/messages/${sent.id}`, { token: t.world.botToken, bot: true });
  assert.equal(stored.body.content, 'after a 500');
});

test('http 503 on a bucket: a naive client gets the 503 and fails; @discordjs/rest retries the 5xx and passes', async () => {
  // The bucket's hash, as a 429 on the route names it (rate limits are off in tests, so a 200 carries none).
  await addFault(t, { application_id: t.world.applicationId, kind: 'http', route: POST_MESSAGES, status: 429, count: 1 });
  const bucket = (await post(t.world.botToken, 'x')).headers.get('x-ratelimit-bucket');
  assert.ok(bucket);
  await addFault(t, { application_id: t.world.applicationId, kind: 'http', bucket, status: 503, count: 1 });
  const naive = await post(t.world.botToken, 'naive');
  assert.equal(naive.status, 503);
  assert.deepEqual(naive.body, { message: '503: Service Unavailable', code: 0 });

  await addFault(t, { application_id: t.world.applicationId, kind: 'http', bucket, status: 503, count: 2 });
  const rest = botRest();
  const statuses: number[] = [];
  rest.on(RESTEvents.Response, (_req, res) => statuses.push(res.status));
  const sent = (await rest.post(Routes.channelMessages(t.world.textChannelId), { body: { content: 'after two 503s' } })) as { id: string };
  assert.deepEqual(statuses, [503, 503, 200], 'two 503s met, then retried through');
  const stored = await t.api(`/channels/${t.world.textChannelId}/messages/${sent.id}`, { token: t.world.botToken, bot: true });
  assert.equal(stored.body.content, 'after two 503s');
});

test('http latency_ms: a naive client with a 200 ms timeout gives up and fails; @discordjs/rest (15 s timeout) waits and passes', async () => {
  const url = `${t.server.url}/api/v10${Routes.channelMessages(t.world.textChannelId)}`;
  await addFault(t, { application_id: t.world.applicationId, kind: 'http', route: POST_MESSAGES, latency_ms: 1000, count: 1 });
  await assert.rejects(
    fetch(url, {
      method: 'POST',
      headers: { authorization: `Bot ${t.world.botToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'naive' }),
      signal: AbortSignal.timeout(200),
    }),
    { name: 'TimeoutError' },
  );

  await addFault(t, { application_id: t.world.applicationId, kind: 'http', route: POST_MESSAGES, latency_ms: 1000, count: 1 });
  const rest = botRest();
  const started = Date.now();
  const sent = (await rest.post(Routes.channelMessages(t.world.textChannelId), { body: { content: 'late but sent' } })) as { content: string };
  assert.equal(sent.content, 'late but sent');
  assert.ok(Date.now() - started >= 1000, 'the answer came after latency_ms');
});

test('a bucket names every route that shares it; latency alone delays and then serves', async () => {
  // The bucket of POST messages (from its 429's X-RateLimit-Bucket) is also the bucket of message edits.
  await addFault(t, { application_id: t.world.applicationId, kind: 'http', route: POST_MESSAGES, status: 429, count: 1 });
  const bucket = (await post(t.world.botToken, 'x')).headers.get('x-ratelimit-bucket');
  const msg = await post(t.world.botToken, 'to edit');
  assert.equal(msg.status, 200);
  await addFault(t, { application_id: t.world.applicationId, kind: 'http', bucket, status: 503 });
  const edit = await t.api(`/channels/${t.world.textChannelId}/messages/${msg.body.id}`, {
    method: 'PATCH',
    token: t.world.botToken,
    bot: true,
    body: { content: 'edited' },
  });
  assert.equal(edit.status, 503);
  assert.equal(edit.headers.get('retry-after'), '1');
  assert.equal((await t.api('/users/@me', { token: t.world.botToken, bot: true })).status, 200, 'another bucket is untouched');
  await clearFaults(t);

  await addFault(t, { application_id: t.world.applicationId, kind: 'http', route: 'GET /users/@me', latency_ms: 200, count: 1 });
  const slow = await t.api('/users/@me', { token: t.world.botToken, bot: true });
  assert.equal(slow.status, 200);
  assert.equal(slow.body.id, t.world.botUserId);
  assert.deepEqual((await faultsApi(t, 'GET')).body, [], 'the slow request used the rule');
});

test('a rule ends when the server clock passes its ttl', async () => {
  await addFault(t, { application_id: t.world.applicationId, kind: 'http', status: 503, ttl_ms: 60_000 });
  assert.equal((await post(t.world.botToken, 'x')).status, 503);
  const clock = await fetch(`${t.server.url}/__dev/clock`, {
    method: 'POST',
    headers: { ...devHeaders(t), 'content-type': 'application/json' },
    body: JSON.stringify({ advance_ms: 61_000 }),
  });
  assert.equal(clock.status, 200);
  try {
    assert.equal((await post(t.world.botToken, 'x')).status, 200);
    assert.deepEqual((await faultsApi(t, 'GET')).body, []);
  } finally {
    t.server.ctx.clock.set(Date.now());
  }
});

test('a server without --dev has no faults routes and no fault book', async () => {
  const plain = await startTestServer();
  try {
    assert.equal(plain.server.ctx.faults, null);
    const r = await fetch(`${plain.server.url}/__dev/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-accord-dev-token': 'x' },
      body: JSON.stringify({ application_id: plain.world.applicationId, kind: 'http', status: 500 }),
    });
    assert.equal(r.status, 404);
  } finally {
    await plain.close();
  }
});

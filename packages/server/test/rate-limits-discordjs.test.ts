import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { REST, RESTEvents, Routes } from 'discord.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/**
 * With `--rate-limits real`, discord.js's REST client meets each kind of 429 the platform answers (a route bucket, a
 * sub-limit of scope shared, the global limit) and waits it out; past the invalid-request limit an IP is refused.
 * Each 429 is provoked by a second client with the same token, as a second process of one bot would, so that
 * discord.js cannot foresee it from the headers it saw.
 */
let t: TestServer;
before(async () => {
  t = await startTestServer({ rateLimits: 'real' });
});
after(async () => {
  await t?.close();
});

interface Seen {
  method: string;
  path: string;
  status: number;
  scope: string | null;
  retryAfter: string | null;
}

function client(): { rest: REST; seen: Seen[] } {
  const rest = new REST({ api: `${t.server.url}/api`, retries: 0, timeout: 30_000 }).setToken(t.world.botToken);
  const seen: Seen[] = [];
  rest.on(RESTEvents.Response, (req, res) =>
    seen.push({
      method: req.method.toUpperCase(),
      path: req.path,
      status: res.status,
      scope: res.headers.get('x-ratelimit-scope'),
      retryAfter: res.headers.get('retry-after'),
    }),
  );
  return { rest, seen };
}

test('the 6th message in 5 s in one channel is a 429 (limit 5), and discord.js waits it out', { timeout: 60_000 }, async () => {
  const other = client();
  const bot = client();
  const channel = t.world.textChannelId;
  for (let i = 1; i <= 5; i++) await other.rest.post(Routes.channelMessages(channel), { body: { content: `other ${i}` } });
  assert.deepEqual(
    other.seen.map((s) => s.status),
    [200, 200, 200, 200, 200],
  );
  const started = Date.now();
  const sixth = (await bot.rest.post(Routes.channelMessages(channel), { body: { content: 'the sixth' } })) as { content: string };
  assert.equal(sixth.content, 'the sixth');
  assert.deepEqual(
    bot.seen.map((s) => [s.status, s.scope]),
    [
      [429, 'user'],
      [200, null],
    ],
    'a 429 of scope user, then the retry',
  );
  assert.ok(Number(bot.seen[0].retryAfter) >= 1, 'Retry-After');
  assert.ok(Date.now() - started >= 100, 'discord.js waited before retrying');
  // The limit is per channel: another channel takes messages at once.
  const created = (await bot.rest.post(Routes.guildChannels(t.world.guildId), { body: { name: 'second', type: 0 } })) as { id: string };
  await bot.rest.post(Routes.channelMessages(created.id), { body: { content: 'elsewhere' } });
  assert.equal(bot.seen.at(-1)!.status, 200);
});

test('reactions are 1 per 250 ms; discord.js waits out the 429', { timeout: 60_000 }, async () => {
  const other = client();
  const bot = client();
  const msg = (await other.rest.post(Routes.channelMessages(t.world.textChannelId), { body: { content: 'react' } }).catch(async () => {
    await new Promise((r) => setTimeout(r, 5100));
    return other.rest.post(Routes.channelMessages(t.world.textChannelId), { body: { content: 'react' } });
  })) as { id: string };
  await other.rest.put(Routes.channelMessageOwnReaction(t.world.textChannelId, msg.id, encodeURIComponent('👍')));
  await bot.rest.put(Routes.channelMessageOwnReaction(t.world.textChannelId, msg.id, encodeURIComponent('👎')));
  const statuses = bot.seen.map((s) => s.status);
  assert.equal(statuses.at(-1), 204);
  assert.ok(statuses[0] === 429 || statuses[0] === 204, String(statuses));
  // Two reactions at once from one client: the second waits for the bucket, it never fails.
  const both = client();
  await Promise.all(['🍎', '🍐'].map((e) => both.rest.put(Routes.channelMessageOwnReaction(t.world.textChannelId, msg.id, encodeURIComponent(e)))));
  assert.ok(both.seen.every((s) => s.status === 204 || s.status === 429));
  assert.equal(both.seen.filter((s) => s.status === 204).length, 2);
});

test('channel name and topic edits are 2 per 10 minutes per channel (scope shared); discord.js waits out the 429', { timeout: 60_000 }, async () => {
  const other = client();
  const bot = client();
  const created = (await other.rest.post(Routes.guildChannels(t.world.guildId), { body: { name: 'renamed-0', type: 0 } })) as { id: string };
  const windowFrom = Date.now(); // the window opens with the first edit, at this time or just after
  await other.rest.patch(Routes.channel(created.id), { body: { name: 'renamed-1' } });
  await other.rest.patch(Routes.channel(created.id), { body: { topic: 'topic 2' } });
  // Other edits have their own limit (10 per 15 s) and still go through.
  await other.rest.patch(Routes.channel(created.id), { body: { nsfw: true } });
  assert.deepEqual(
    other.seen.map((s) => s.status),
    [201, 200, 200, 200],
  );
  // Move the server clock to half a second before the window ends, so waiting it out takes half a second (counted from
  // the first edit: on a loaded machine the edits above can take longer than that).
  const window = 10 * 60_000;
  t.server.ctx.clock.advance(windowFrom + window - 500 - Date.now());
  const renamed = (await bot.rest.patch(Routes.channel(created.id), { body: { name: 'renamed-3' } })) as { name: string };
  assert.equal(renamed.name, 'renamed-3');
  assert.deepEqual(
    bot.seen.map((s) => [s.status, s.scope]),
    [
      [429, 'shared'],
      [200, null],
    ],
  );
});

test('the global limit is 50 requests per second per bot; discord.js waits out a global 429', { timeout: 60_000 }, async () => {
  const bot = client();
  let global429 = 0;
  bot.rest.on(RESTEvents.Response, (_req, res) => {
    if (res.status === 429 && res.headers.get('x-ratelimit-global') === 'true') global429++;
  });
  for (let attempt = 0; attempt < 5 && global429 === 0; attempt++) {
    // Exhaust the second with bare requests (another process of the bot), then let discord.js make its call.
    const burst = await Promise.all(
      Array.from({ length: 60 }, () => fetch(`${t.server.url}/api/v10/users/@me`, { headers: { authorization: `Bot ${t.world.botToken}` } })),
    );
    if (!burst.some((r) => r.status === 429)) continue;
    const me = (await bot.rest.get(Routes.user())) as { id: string };
    assert.equal(me.id, t.world.botUserId);
  }
  assert.ok(global429 >= 1, 'discord.js met a global 429');
  assert.equal(bot.seen.at(-1)!.status, 200);
});

test('an IP past 10,000 invalid requests in 10 minutes is refused by the edge (HTML 429 without Via)', { timeout: 120_000 }, async () => {
  const bad = { headers: { authorization: 'Bot not-a-token' } };
  let sent = 0;
  while (sent < 10_000) {
    const batch = Math.min(50, 10_000 - sent);
    const rs = await Promise.all(Array.from({ length: batch }, () => fetch(`${t.server.url}/api/v10/users/@me`, bad).then((r) => r.status)));
    assert.ok(
      rs.every((s) => s === 401 || s === 429),
      String(rs),
    );
    sent += batch;
  }
  const banned = await fetch(`${t.server.url}/api/v10/users/@me`, { headers: { authorization: `Bot ${t.world.botToken}` } });
  assert.equal(banned.status, 429);
  assert.equal(banned.headers.get('via'), null);
  assert.match(banned.headers.get('content-type') ?? '', /^text\/html/);
  assert.ok(Number(banned.headers.get('retry-after')) > 0);
  // The restriction ends with its window (the server clock decides).
  t.server.ctx.clock.advance(60 * 60_000 + 1000);
  assert.equal((await fetch(`${t.server.url}/api/v10/users/@me`, { headers: { authorization: `Bot ${t.world.botToken}` } })).status, 200);
});

test('--rate-limits takes real (default), relaxed or off, with true/false as aliases', async () => {
  const { loadConfig } = await import('../src/config.js');
  assert.equal(loadConfig([]).rateLimits, 'real');
  assert.equal(loadConfig(['--rate-limits', 'relaxed']).rateLimits, 'relaxed');
  assert.equal(loadConfig(['--rate-limits=off']).rateLimits, 'off');
  assert.equal(loadConfig(['--rate-limits=false']).rateLimits, 'off');
  assert.equal(loadConfig(['--rate-limits']).rateLimits, 'real');
  assert.equal(loadConfig([], { ACCORD_RATE_LIMITS: 'true' }).rateLimits, 'real');
  assert.throws(() => loadConfig(['--rate-limits=fast']), /real, relaxed or off/);
});

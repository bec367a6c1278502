/**
 * Developer powers behind the web client's dev tools (--dev only): the inspector's live feed per application (HTTP
 * requests with route, status, bucket and timing; Gateway dispatches, secrets redacted), "act as user", and app icons
 * uploaded through the portal.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer, devHeaders } from './helpers/server.js';
import { RawGateway } from './helpers/gateway-client.js';
import { until } from './helpers/wait.js';

let t: TestServer;
let bot: RawGateway;

/** An open SSE stream of the inspector: its raw text and the parsed entries so far. */
interface Feed {
  text: string;
  entries: any[];
  ready: boolean;
  close(): void;
}

async function openFeed(appId: string): Promise<Feed> {
  const ctl = new AbortController();
  const res = await fetch(`${t.server.url}/__dev/inspector/stream?application_id=${appId}&backlog=0`, { signal: ctl.signal, headers: devHeaders(t) });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
  const feed: Feed = { text: '', entries: [], ready: false, close: () => ctl.abort() };
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        const chunk = decoder.decode(value, { stream: true });
        feed.text += chunk;
        buf += chunk;
        let i: number;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event === 'ready') feed.ready = true;
          if (event === 'entry' && data) feed.entries.push(JSON.parse(data));
        }
      }
    } catch {
      /* aborted */
    }
  })();
  await until(() => feed.ready, 5000, 'the stream to be ready');
  return feed;
}

before(async () => {
  t = await startTestServer({ overrides: { dev: true } });
});
after(async () => {
  bot?.close();
  await t?.close();
});

test("the inspector streams the app's HTTP requests and Gateway dispatches, with no token in them", async () => {
  const appId = t.world.applicationId;
  const feed = await openFeed(appId);
  try {
    bot = await RawGateway.connect(t.server.url);
    await bot.identify(t.world.botToken, { intents: (1 << 0) | (1 << 9) | (1 << 15) });
    const sent = await t.api(`/channels/${t.world.textChannelId}/messages`, {
      method: 'POST',
      token: t.world.botToken,
      bot: true,
      body: { content: 'seen by the inspector' },
    });
    assert.equal(sent.status, 200, sent.text);
    const missing = await t.api('/channels/1/messages', { token: t.world.botToken, bot: true });
    assert.equal(missing.status, 404);

    const post = await until(
      () => feed.entries.find((e) => e.kind === 'http' && e.method === 'POST' && e.route === '/channels/{channel_id}/messages'),
      5000,
      'the POST',
    );
    assert.equal(post.status, 200);
    assert.equal(post.path, `/channels/${t.world.textChannelId}/messages`);
    assert.match(post.bucket, /^[0-9a-f]{16}$/);
    assert.equal(typeof post.duration_ms, 'number');
    assert.equal(post.via, 'bot');
    assert.ok(!Number.isNaN(Date.parse(post.at)));
    const notFound = await until(() => feed.entries.find((e) => e.kind === 'http' && e.method === 'GET' && e.path === '/channels/1/messages'), 5000, 'the 404');
    assert.equal(notFound.status, 404);

    const ready = await until(() => feed.entries.find((e) => e.kind === 'gateway' && e.t === 'READY'), 5000, 'READY');
    assert.equal(ready.seq, 1);
    assert.equal(ready.d.session_id, '[redacted]');
    assert.equal(ready.d.user.id, t.world.botUserId);
    const created = await until(
      () => feed.entries.find((e) => e.kind === 'gateway' && e.t === 'MESSAGE_CREATE' && e.d?.id === sent.body.id),
      5000,
      'MESSAGE_CREATE',
    );
    assert.equal(created.guild_id, t.world.guildId);
    assert.ok(created.bytes > 0);

    // An interaction: its token reaches the bot, never the feed; the callback is attributed to the app by its id.
    const put = await t.api(`/applications/${appId}/commands`, {
      method: 'PUT',
      token: t.world.botToken,
      bot: true,
      body: [{ name: 'ping', description: 'Ping' }],
    });
    assert.equal(put.status, 200, put.text);
    const invoked = await t.api('/interactions', {
      method: 'POST',
      token: t.world.users[0].token,
      body: {
        type: 2,
        application_id: appId,
        guild_id: t.world.guildId,
        channel_id: t.world.textChannelId,
        session_id: 's',
        nonce: '1',
        data: { id: put.body[0].id, name: 'ping', type: 1, version: put.body[0].version },
      },
    });
    assert.equal(invoked.status, 204, invoked.text);
    const interaction = await bot.dispatch('INTERACTION_CREATE');
    assert.ok(interaction.token.length > 20);
    const answered = await t.api(`/interactions/${interaction.id}/${interaction.token}/callback`, {
      method: 'POST',
      body: { type: 4, data: { content: 'pong' } },
    });
    assert.equal(answered.status, 204, answered.text);
    const seen = await until(() => feed.entries.find((e) => e.kind === 'gateway' && e.t === 'INTERACTION_CREATE'), 5000, 'INTERACTION_CREATE');
    assert.equal(seen.d.token, '[redacted]');
    const callback = await until(
      () => feed.entries.find((e) => e.kind === 'http' && e.route === '/interactions/{interaction_id}/{interaction_token}/callback'),
      5000,
      'the callback',
    );
    assert.equal(callback.via, 'interaction');
    assert.equal(callback.path, `/interactions/${interaction.id}/{interaction_token}/callback`);
    assert.equal(feed.text.includes(interaction.token), false, 'the interaction token is not in the feed');
    assert.equal(feed.text.includes(t.world.botToken), false, 'the bot token is not in the feed');
    assert.equal(feed.text.includes(t.world.botToken.split('.')[2]), false);

    // A person's own requests are not an app's.
    assert.equal(
      feed.entries.some((e) => e.kind === 'http' && e.route === '/interactions' && e.method === 'POST'),
      false,
    );
  } finally {
    feed.close();
  }

  // The backlog is kept for a stream opened later; the application list carries the counts.
  const later = await fetch(`${t.server.url}/__dev/inspector/stream?application_id=${appId}&backlog=5`, { headers: devHeaders(t) });
  const reader = later.body!.getReader();
  let text = '';
  while (!text.includes('event: ready')) text += new TextDecoder().decode((await reader.read()).value);
  await reader.cancel();
  assert.equal(text.split('event: entry').length - 1, 5);
  const apps = await fetch(`${t.server.url}/__dev/inspector/applications`, { headers: devHeaders(t) }).then((r): Promise<any> => r.json());
  const mine = apps.find((a: any) => a.id === appId);
  assert.equal(mine.name, 'Dev Bot');
  assert.ok(mine.counts.http >= 4 && mine.counts.gateway >= 3, JSON.stringify(mine.counts));

  const bad = await fetch(`${t.server.url}/__dev/inspector/stream?application_id=nope`, { headers: devHeaders(t) });
  assert.equal(bad.status, 400);
  assert.equal(((await bad.json()) as any).code, 50035);
});

test('act as user: the seeded people are listed first and a token is issued for one of them', async () => {
  const users = await fetch(`${t.server.url}/__dev/users`, { headers: devHeaders(t) }).then((r): Promise<any> => r.json());
  const [alice, bob] = t.world.users;
  assert.deepEqual(
    users.slice(0, 2).map((u: any) => [u.id, u.seeded]),
    [
      [alice.id, true],
      [bob.id, true],
    ],
  );
  assert.equal(
    users.some((u: any) => u.id === t.world.botUserId),
    false,
  );
  assert.equal(JSON.stringify(users).includes('@accord.local'), false, 'no email on the list');

  const issued = await fetch(`${t.server.url}/__dev/users/${bob.id}/token`, { method: 'POST', headers: devHeaders(t) }).then((r): Promise<any> => r.json());
  assert.equal(issued.user_id, bob.id);
  const me = await t.api('/users/@me', { token: issued.token });
  assert.equal(me.status, 200);
  assert.equal(me.body.id, bob.id);

  const botRefused = await fetch(`${t.server.url}/__dev/users/${t.world.botUserId}/token`, { method: 'POST', headers: devHeaders(t) });
  assert.equal(botRefused.status, 404);
  assert.equal(((await botRefused.json()) as any).code, 10013);
});

test('without --dev, none of the dev routes exist', async () => {
  const plain = await startTestServer();
  try {
    for (const [method, path] of [
      ['GET', '/__dev/users'],
      ['GET', '/__dev/inspector/applications'],
      ['POST', `/__dev/users/${plain.world.users[0].id}/token`],
      ['GET', '/__dev/clock'],
    ]) {
      const r = await fetch(`${plain.server.url}${path}`, { method });
      assert.equal(r.status, 404, `${method} ${path}`);
    }
  } finally {
    await plain.close();
  }
});

test('an app icon uploaded as a data URI is served by the CDN under its hash; bad images are refused', async () => {
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
  const owner = t.world.users[0].token;
  const appId = t.world.applicationId;
  const r = await t.api(`/applications/${appId}`, { method: 'PATCH', token: owner, body: { icon: `data:image/png;base64,${png.toString('base64')}` } });
  assert.equal(r.status, 200, r.text);
  assert.match(r.body.icon, /^[0-9a-f]{32}$/);
  const served = await fetch(`${t.server.url}/app-icons/${appId}/${r.body.icon}.png?size=128`);
  assert.equal(served.status, 200);
  assert.equal(served.headers.get('content-type'), 'image/png');
  assert.deepEqual(Buffer.from(await served.arrayBuffer()), png);
  assert.equal((await fetch(`${t.server.url}/app-icons/${appId}/${'0'.repeat(32)}.png`)).status, 404);

  const bad = await t.api(`/applications/${appId}`, { method: 'PATCH', token: owner, body: { icon: 'data:image/png;base64,aGVsbG8=' } });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.errors.icon._errors[0].code, 'IMAGE_INVALID');
  const still = await t.api(`/applications/${appId}`, { token: owner });
  assert.equal(still.body.icon, r.body.icon);
});

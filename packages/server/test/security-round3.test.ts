/**
 * Issue 20, security third round: each attack and note has a test here that failed before its fix.
 * 1. Encoded dot segments, slashes and backslashes in a proxied path are refused (400), never sent upstream.
 * 2. The outgoing policy checks the resolved address BEFORE any connection: a listening loopback socket records
 *    whether anything connected, and nothing may.
 * 3. The proxy-ticket endpoint accepts only its own proxy origin (403, no cookie otherwise).
 * 4. Moderation metadata of a DM message: 404 unless the message is one of the calling app's game DMs.
 * 5. A reused authorization code revokes the tokens issued from it.
 * 6. Wrong device-flow user codes are throttled (429).
 * 7. Another app's DELETE /lobbies/{id} is refused like an unknown lobby.
 * 8. The proxy host's app id label must be canonical (`0<appid>` is not the proxy).
 * Nothing leaves 127.0.0.1.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { startTestServer, type TestServer } from './helpers/server.js';
import { expectError, installBot } from './helpers/fixtures.js';
import { upstreamRequest, upstreamUpgrade, UpstreamError } from '../src/activities/upstream.js';
import { OutgoingClient, RefusedByPolicy } from '../src/core/outgoing.js';
import { AllowList } from '../src/core/address-policy.js';
import { register } from '../src/services/identity/users.js';
import { issueToken } from '../src/services/identity/tokens.js';
import { recordGrant } from '../src/services/identity/oauth2/grants.js';
import { getApplication } from '../src/services/identity/applications.js';

const T = { timeout: 60_000 };

interface Seen {
  method: string;
  url: string;
}

/** A stand-in Activity backend that records every request path it receives. */
async function startUpstream() {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url! });
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path: req.url }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A loopback TCP listener that only counts the connections that reach it. */
async function startTrap() {
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    connections++;
    sockets.add(s);
    s.on('error', () => {});
    s.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    connections: () => connections,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** A raw request to the server's port with any Host header and any request target (no normalisation on the way). */
function raw(port: number, path: string, opts: { method?: string; headers?: Record<string, string>; body?: string; host: string }) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method: opts.method ?? 'GET', headers: { host: opts.host, ...opts.headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => {
        text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

describe('security, third round (issue 20)', { timeout: 180_000 }, () => {
  let t: TestServer;
  let up: Awaited<ReturnType<typeof startUpstream>>;
  let appId: string;
  let proxyHost: string;
  const owner = () => t.world.users[0];
  const viaProxy = (path: string, opts: { method?: string; headers?: Record<string, string>; body?: string; host?: string } = {}) =>
    raw(t.server.port, path, { ...opts, host: opts.host ?? proxyHost });

  before(async () => {
    t = await startTestServer();
    up = await startUpstream();
    appId = t.world.applicationId;
    proxyHost = `${appId}.localhost:${t.server.port}`;
    const app = (await t.api(`/applications/${appId}`, { token: owner().token })).body;
    const on = await t.api(`/applications/${appId}`, {
      token: owner().token,
      method: 'PATCH',
      body: { flags: app.flags | (1 << 17), proxy_config: { url_map: [{ prefix: '/api', target: `http://127.0.0.1:${up.port}/public` }] } },
    });
    assert.equal(on.status, 200, on.text);
  });
  after(async () => {
    await up?.close();
    await t?.close();
  });

  test('1. encoded dot segments, slashes and backslashes never leave the mapped base: 400, nothing sent upstream', T, async () => {
    const ok = await viaProxy('/api/a/b%20c?x=%2e%2e%2f');
    assert.equal(ok.status, 200, ok.text);
    assert.equal(up.seen.at(-1)!.url, '/public/a/b%20c?x=%2e%2e%2f', 'an ordinary path (and any query) still passes');
    const before = up.seen.length;
    const attacks = [
      '/api/..%2f..%2fadmin',
      '/api/..%2F..%2Fadmin',
      '/api/%2e%2e%2fadmin',
      '/api/%2E%2E%2Fadmin',
      '/api/%2e%2e%5cadmin',
      '/api/..%5c..%5cadmin',
      '/api/%2e%2e/admin',
      '/api/.%2e/admin',
      '/api/x/%2e%2e/%2e%2e/admin',
      '/api/x%2f..%2f..%2fadmin',
      '/api/..\\..\\admin',
      '/api/%252e%252e%252fadmin',
      '/api/../admin',
      '/api/./x',
      '/.proxy/api/..%2f..%2fadmin',
      '/.proxy/api/%2e%2e%2fadmin',
      '/.proxy/api/%2e%2e%5cadmin',
      '/.proxy/..%2fapi',
      '/.proxy%2fapi/x',
      '/%2e%2e/api/x',
    ];
    for (const path of attacks) {
      const res = await viaProxy(path);
      assert.equal(res.status, 400, `${path}: ${res.status} ${res.text}`);
      const body = JSON.parse(res.text);
      assert.equal(body.code, 0, path);
      assert.match(body.message, /path/i, path);
    }
    assert.deepEqual(
      up.seen.slice(before).map((s) => s.url),
      [],
      'nothing reached the upstream',
    );
    // WebSocket upgrades follow the same rules.
    const ws = await raw(t.server.port, '/api/..%2f..%2fadmin', {
      host: proxyHost,
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': crypto.randomBytes(16).toString('base64') },
    });
    assert.equal(ws.status, 400);
    assert.equal(up.seen.length, before);
  });

  test('2. the outgoing policy refuses before connecting: a loopback trap sees no connection', T, async () => {
    const trap = await startTrap();
    try {
      const none = new OutgoingClient(new AllowList([]));
      const targets = [
        `https://127.0.0.1:${trap.port}/`,
        `https://[::ffff:7f00:1]:${trap.port}/`,
        `https://2130706433:${trap.port}/`,
        `https://[::ffff:127.0.0.1]:${trap.port}/`,
        `https://localhost:${trap.port}/`,
        `http://127.0.0.1:${trap.port}/`,
        `https://0x7f.1:${trap.port}/`,
      ];
      for (const url of targets) {
        // The Activity proxy's client (node's http/https), requests and upgrades.
        await assert.rejects(upstreamRequest(none, new URL(url), 'GET', {}, null), (e: unknown) => e instanceof UpstreamError && e.status === 502, url);
        const client = new net.Socket();
        const ended = new Promise<void>((r) => {
          (client as any).end = () => r();
          (client as any).write = () => true;
        });
        upstreamUpgrade(none, new URL(url), {}, client, Buffer.alloc(0));
        await ended;
        // The guarded client (interactions endpoint, event webhooks, OIDC discovery and JWKS).
        await assert.rejects(none.request(url, { timeoutMs: 2000, maxBytes: 1024 }), (e: unknown) => e instanceof RefusedByPolicy, url);
      }
      await new Promise((r) => setTimeout(r, 100)); // let any stray connection arrive before counting
      assert.equal(trap.connections(), 0, 'no TCP connection was opened to a refused address');

      // A server with --outgoing-allow none refuses such a mapping when it is saved.
      const strict = await startTestServer({ outgoingAllow: 'none' });
      try {
        const app = (await strict.api(`/applications/${strict.world.applicationId}`, { token: strict.world.users[0].token })).body;
        for (const target of [`127.0.0.1:${trap.port}`, `[::ffff:7f00:1]:${trap.port}`, `2130706433:${trap.port}`, `https://10.0.0.1/x`, `169.254.169.254`]) {
          const res = await strict.api(`/applications/${app.id}`, {
            token: strict.world.users[0].token,
            method: 'PATCH',
            body: { flags: app.flags | (1 << 17), proxy_config: { url_map: [{ prefix: '/api', target }] } },
          });
          expectError(res, 400, 50035);
          assert.equal(res.body.errors.proxy_config.url_map['0'].target._errors[0].code, 'URL_MAPPING_TARGET_INVALID', target);
          assert.match(res.body.errors.proxy_config.url_map['0'].target._errors[0].message, /refused by/, target);
        }
        const fine = await strict.api(`/applications/${app.id}`, {
          token: strict.world.users[0].token,
          method: 'PATCH',
          body: { flags: app.flags | (1 << 17), proxy_config: { url_map: [{ prefix: '/api', target: 'activity.example/x' }] } },
        });
        assert.equal(fine.status, 200, fine.text);
      } finally {
        await strict.close();
      }
      assert.equal(trap.connections(), 0);
    } finally {
      await trap.close();
    }
  });

  test('3. the proxy-ticket endpoint accepts only a POST from its own proxy origin: 403 and no cookie otherwise', T, async () => {
    const other = await installBot(t, 'other-activity', 0n);
    const bogusTicket = `${Buffer.from('{}').toString('base64url')}.${'0'.repeat(128)}`;
    const origins = [
      'http://evil.example',
      'null',
      `http://${other.appId}.localhost:${t.server.port}`,
      t.server.url,
      `https://${proxyHost}`,
      `http://${proxyHost}.evil.example`,
    ];
    for (const origin of [...origins, undefined]) {
      const res = await viaProxy('/.well-known/accord/proxy-ticket', { method: 'POST', body: bogusTicket, headers: origin === undefined ? {} : { origin } });
      assert.equal(res.status, 403, `${origin}: ${res.status} ${res.text}`);
      assert.equal(res.headers['set-cookie'], undefined, String(origin));
      const body = JSON.parse(res.text);
      assert.equal(typeof body.message, 'string');
      assert.equal(body.code, 0);
    }
    // From its own origin, the ticket is judged (a bad one is a 401, as before).
    const same = await viaProxy('/.well-known/accord/proxy-ticket', { method: 'POST', body: bogusTicket, headers: { origin: `http://${proxyHost}` } });
    assert.equal(same.status, 401, same.text);
    // The bridge page plants a ticket only for a navigation (a frame or a window), never for a fetch from elsewhere.
    const fetched = await viaProxy(`/.well-known/accord/activity-bridge.html?accord_ticket=${encodeURIComponent(bogusTicket)}`, {
      headers: { 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'empty', 'sec-fetch-site': 'cross-site' },
    });
    assert.equal(fetched.status, 200);
    assert.equal(fetched.headers['set-cookie'], undefined);
  });

  test("4. moderation metadata of a DM message: the same 404 unless it is one of the calling app's game DMs", T, async () => {
    const ctx = t.server.ctx;
    const other = await installBot(t, 'other-moderator', 0n);
    const [alice, bob] = [t.world.users[0], t.world.users[1]];
    // An ordinary DM between two users.
    const dm = await t.api('/users/@me/channels', { token: alice.token, method: 'POST', body: { recipient_id: bob.id } });
    assert.ok(dm.status < 300, dm.text);
    const msg = await t.api(`/channels/${dm.body.id}/messages`, { token: alice.token, method: 'POST', body: { content: 'private' } });
    assert.ok(msg.status < 300, msg.text);
    // A game DM of the seeded app between two of its players.
    const players = [];
    for (const name of ['gdm_a', 'gdm_b']) {
      const username = `${name}_${crypto.randomBytes(3).toString('hex')}`;
      const { user } = await register(ctx, { username, globalName: name, email: `${username}@accord.local`, password: `password-${name}` });
      const app = (await getApplication(ctx, appId))!;
      await recordGrant(ctx, app, user, ['openid', 'sdk.social_layer'], 1);
      const bearer = await issueToken(ctx, user.id, 'bearer', {
        applicationId: appId,
        scopes: ['sdk.social_layer', 'dm_channels.messages.write', 'dm_channels.messages.read'],
        expiresAt: ctx.clock.now() + 86400_000,
      });
      players.push({ id: user.id, bearer: `Bearer ${bearer}` });
    }
    const game = await t.api(`/users/@me/dms/${players[1].id}/messages`, { token: players[0].bearer, method: 'POST', body: { content: 'gg' } });
    assert.ok(game.status < 300, game.text);

    const put = (token: string, a: string, b: string, id: string) =>
      t.api(`/partner-sdk/dms/${a}/${b}/messages/${id}/moderation-metadata`, { method: 'PUT', token, bot: true, body: { verdict: 'x' } });
    const refusals = [
      put(other.token, alice.id, bob.id, msg.body.id), // another app, a real message of an ordinary DM
      put(other.token, alice.id, bob.id, '123456789012345678'), // another app, no such message
      put(other.token, alice.id, players[0].id, msg.body.id), // another app, no DM between the two
      put(other.token, players[0].id, players[1].id, game.body.id), // another app, someone else's game DM
      put(t.world.botToken, alice.id, bob.id, msg.body.id), // the app itself, but not its game DM
      put(t.world.botToken, players[0].id, bob.id, game.body.id), // the app's message, other users named
    ];
    for (const res of await Promise.all(refusals)) expectError(res, 404, 10008);
    const ok = await put(t.world.botToken, players[1].id, players[0].id, game.body.id);
    assert.equal(ok.status, 204, ok.text);

    // The lobby route: another app's lobby and an unknown lobby answer alike.
    const lobby = await t.api('/lobbies', { method: 'POST', token: t.world.botToken, bot: true, body: {} });
    assert.equal(lobby.status, 201, lobby.text);
    const lm = await t.api(`/lobbies/${lobby.body.id}/messages`, { method: 'POST', token: t.world.botToken, bot: true, body: { content: 'hi' } });
    assert.ok(lm.status < 300, lm.text);
    const lput = (token: string, l: string, m: string) =>
      t.api(`/lobbies/${l}/messages/${m}/moderation-metadata`, { method: 'PUT', token, bot: true, body: { k: 'v' } });
    expectError(await lput(other.token, lobby.body.id, lm.body.id), 404, 10031);
    expectError(await lput(other.token, '123456789012345678', lm.body.id), 404, 10031);
  });

  test('5. a reused authorization code revokes the tokens already issued from it', T, async () => {
    const REDIRECT = 'http://localhost:5173/callback';
    assert.equal((await t.api(`/applications/${appId}`, { method: 'PATCH', token: owner().token, body: { redirect_uris: [REDIRECT] } })).status, 200);
    const secret = (await t.api(`/applications/${appId}/reset`, { method: 'POST', token: owner().token })).body.secret;
    const basic = { authorization: `Basic ${Buffer.from(`${appId}:${secret}`).toString('base64')}` };
    const form = (fields: Record<string, string>) =>
      t.api('/oauth2/token', {
        method: 'POST',
        body: new URLSearchParams(fields).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...basic },
      });
    const codeFor = async () => {
      const res = await t.api(
        `/oauth2/authorize?${new URLSearchParams({ client_id: appId, response_type: 'code', scope: 'identify', redirect_uri: REDIRECT })}`,
        { method: 'POST', token: owner().token, body: { authorize: true } },
      );
      assert.equal(res.status, 200, res.text);
      return new URL(res.body.location).searchParams.get('code')!;
    };
    // Another session of the same user and app: not issued from the reused code, it keeps working.
    const otherSession = await form({ grant_type: 'authorization_code', code: await codeFor(), redirect_uri: REDIRECT });
    assert.equal(otherSession.status, 200, otherSession.text);
    const code = await codeFor();
    const first = await form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
    assert.equal(first.status, 200, first.text);
    const refreshed = await form({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
    assert.equal(refreshed.status, 200, refreshed.text);
    const me = (token: string) => t.api('/users/@me', { headers: { authorization: `Bearer ${token}` } });
    assert.equal((await me(first.body.access_token)).status, 200);

    const again = await form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
    assert.equal(again.status, 400);
    assert.equal(again.body.error, 'invalid_grant');
    assert.equal((await me(first.body.access_token)).status, 401, 'the access token issued from the code is revoked');
    assert.equal((await me(refreshed.body.access_token)).status, 401, 'and the one refreshed from it');
    assert.equal(
      (await form({ grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token })).body.error,
      'invalid_grant',
      'its refresh token too',
    );
    assert.equal((await me(otherSession.body.access_token)).status, 200, 'other sessions stay');
    assert.equal((await form({ grant_type: 'refresh_token', refresh_token: otherSession.body.refresh_token })).status, 200);
  });

  test("6. wrong device-flow user codes are throttled: 429 in the platform's format", T, async () => {
    const guesser = t.world.users[1];
    const statuses: number[] = [];
    let limited: any = null;
    const letters = 'BCDFGHJKLMNPQRSTVWXZ';
    for (let i = 0; i < 40; i++) {
      const code = Array.from(crypto.randomBytes(8), (b) => letters[b % letters.length]).join('');
      const res = await t.api('/oauth2/device/verify', { method: 'POST', token: guesser.token, body: { user_code: `${code.slice(0, 4)}-${code.slice(4)}` } });
      statuses.push(res.status);
      if (res.status === 429 && !limited) limited = res;
    }
    assert.ok(limited, `throttled within 40 guesses: ${statuses.join(',')}`);
    assert.ok(statuses.indexOf(429) <= 10, `throttled after at most 10 wrong guesses: ${statuses.join(',')}`);
    assert.equal(limited.body.code, 0);
    assert.equal(typeof limited.body.message, 'string');
    assert.equal(typeof limited.body.retry_after, 'number');
    assert.ok(limited.headers.get('retry-after'));
    // Finishing is throttled alike.
    expectError(await t.api('/oauth2/device/finish', { method: 'POST', token: guesser.token, body: { user_code: 'BCDF-GHJK', result: 'granted' } }), 429, 0);
  });

  test("7. another app's DELETE /lobbies/{id} is refused as an unknown lobby, and changes nothing", T, async () => {
    const other = await installBot(t, 'other-lobbies', 0n);
    const lobby = await t.api('/lobbies', { method: 'POST', token: t.world.botToken, bot: true, body: {} });
    assert.equal(lobby.status, 201, lobby.text);
    expectError(await t.api(`/lobbies/${lobby.body.id}`, { token: other.token, bot: true }), 404, 10031);
    expectError(await t.api(`/lobbies/${lobby.body.id}`, { method: 'DELETE', token: other.token, bot: true }), 404, 10031);
    expectError(await t.api('/lobbies/123456789012345678', { method: 'DELETE', token: other.token, bot: true }), 404, 10031);
    assert.equal((await t.api(`/lobbies/${lobby.body.id}`, { token: t.world.botToken, bot: true })).status, 200, 'the lobby is still there');
    assert.equal((await t.api(`/lobbies/${lobby.body.id}`, { method: 'DELETE', token: t.world.botToken, bot: true })).status, 204);
    expectError(await t.api(`/lobbies/${lobby.body.id}`, { method: 'DELETE', token: t.world.botToken, bot: true }), 404, 10031);
  });

  test("8. the proxy host's app id label is canonical: 0<appid> and other spellings are not the proxy", T, async () => {
    const before = up.seen.length;
    assert.equal((await viaProxy('/api/x')).status, 200);
    assert.equal(up.seen.length, before + 1);
    for (const label of [`0${appId}`, `00${appId}`, `+${appId}`, `${appId}%00`, '18446744073709551616', '99999999999999999999']) {
      const res = await viaProxy('/api/x', { host: `${label}.localhost:${t.server.port}` });
      assert.notEqual(res.status, 200, `${label}: ${res.text}`);
    }
    assert.equal(up.seen.length, before + 1, 'no other spelling reached the Activity');
  });

  test('9. (same class) linking a lobby to a channel the caller cannot see answers as an unknown channel, whatever its type', T, async () => {
    // A guild the app's bot is not in, with a text and a voice channel.
    const stranger = t.world.users[1];
    const g = await t.api('/guilds', { method: 'POST', token: stranger.token, body: { name: 'elsewhere' } });
    assert.equal(g.status, 201, g.text);
    const voice = await t.api(`/guilds/${g.body.id}/channels`, { method: 'POST', token: stranger.token, body: { name: 'v', type: 2 } });
    const text = await t.api(`/guilds/${g.body.id}/channels`, { method: 'POST', token: stranger.token, body: { name: 't', type: 0 } });
    assert.ok(voice.status < 300 && text.status < 300, voice.text + text.text);
    const lobby = await t.api('/lobbies', { method: 'POST', token: t.world.botToken, bot: true, body: {} });
    const link = (channel_id: string) =>
      t.api(`/lobbies/${lobby.body.id}/channel-linking`, { method: 'PATCH', token: t.world.botToken, bot: true, body: { channel_id } });
    for (const id of [voice.body.id, text.body.id, '123456789012345678']) expectError(await link(id), 404, 10003);
  });

  test('10. (same class as 8) an id in an API path has one spelling: 0<id> shares the rate-limit bucket of <id>', T, async () => {
    const limited = await startTestServer({ rateLimits: 'real' });
    try {
      const ch = limited.world.textChannelId;
      const post = (id: string) =>
        limited.api(`/channels/${id}/messages`, { method: 'POST', token: limited.world.botToken, bot: true, body: { content: 'x' } });
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await post(ch)).status); // the bucket's 5 per 5 s
      for (const spelling of [`0${ch}`, `00${ch}`]) statuses.push((await post(spelling)).status);
      assert.deepEqual(statuses.slice(5), [429, 429], `another spelling of the channel id is not a fresh bucket: ${statuses.join(',')}`);
    } finally {
      await limited.close();
    }
  });
});

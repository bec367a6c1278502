/**
 * Activities on the server: settings and the Launch entry point, instances (launch, join, leave, end, errors), and
 * the proxy host (URL mappings, /.proxy, CSP and headers, bounds, WebSockets, the bridge page, proxy tickets).
 * The browser side, with the real Embedded App SDK, is in packages/web/test/activities*.test.ts.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RawGateway } from './helpers/gateway-client.js';
import { expectError, register } from './helpers/fixtures.js';
import { upstreamRequest, UpstreamError } from '../src/activities/upstream.js';
import { OutgoingClient } from '../src/core/outgoing.js';
import { AllowList, LOOPBACK_CIDRS } from '../src/core/address-policy.js';

/** The proxy's guarded client as a loopback server has it (tests' upstreams listen on 127.0.0.1). */
const loopbackGuard = new OutgoingClient(new AllowList(LOOPBACK_CIDRS));

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A stand-in Activity backend: records what reaches it, answers by path. */
async function startUpstream(): Promise<{ url: string; port: number; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      if (req.url!.startsWith('/hang')) return; // never answers
      if (req.url!.startsWith('/big')) {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        return void res.end(Buffer.alloc(2048));
      }
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-security-policy': 'default-src *',
        'x-frame-options': 'DENY',
        'set-cookie': 'sid=1; Domain=upstream.example; Path=/; HttpOnly',
      });
      res.end(JSON.stringify({ path: req.url, method: req.method, body }));
    });
  });
  const wss = new WebSocketServer({ server });
  wss.on('connection', (ws, req) => {
    if (req.url!.includes('whoami')) return void ws.send(`signed=${req.headers['x-discord-proxy-payload'] !== undefined}`);
    ws.on('message', (m) => ws.send(`echo ${req.url} ${m}`));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    close: () =>
      new Promise((r) => {
        wss.close();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe('activities: settings, instances, proxy host', { timeout: 120_000 }, () => {
  let t: TestServer;
  let up: Awaited<ReturnType<typeof startUpstream>>;
  let appId: string;
  let proxyHost: string;
  const alice = () => t.world.users[0];
  const bob = () => t.world.users[1];

  /** A request to the app's proxy origin (Host header `<app>.localhost:<port>`), as a browser would send it. */
  function viaProxy(path: string, opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer; host?: string } = {}) {
    return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: t.server.port,
          path,
          method: opts.method ?? 'GET',
          headers: { host: opts.host ?? proxyHost, ...opts.headers },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c) => {
            text += c;
          });
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
        },
      );
      req.on('error', reject);
      req.end(opts.body);
    });
  }

  before(async () => {
    t = await startTestServer();
    up = await startUpstream();
    appId = t.world.applicationId;
    proxyHost = `${appId}.localhost:${t.server.port}`;
  });
  after(async () => {
    await up?.close();
    await t?.close();
  });

  test('enabling Activities gives the app its Launch entry point; settings are validated and shown', async () => {
    const owner = { token: alice().token };
    const before = await t.api(`/applications/${appId}/commands`, { token: t.world.botToken, bot: true });
    assert.equal(
      before.body.some((c: any) => c.type === 4),
      false,
    );
    const app = (await t.api(`/applications/${appId}`, owner)).body;
    const on = await t.api(`/applications/${appId}`, {
      ...owner,
      method: 'PATCH',
      body: {
        flags: app.flags | (1 << 17),
        embedded_activity_config: { supported_platforms: ['web', 'ios'], default_orientation_lock_state: 3, requires_age_gate: false },
        proxy_config: {
          url_map: [
            { prefix: '/', target: `http://127.0.0.1:${up.port}/app` },
            { prefix: '/api', target: `http://127.0.0.1:${up.port}/backend` },
          ],
        },
      },
    });
    assert.equal(on.status, 200, on.text);
    assert.equal(on.body.flags & (1 << 17), 1 << 17);
    assert.deepEqual(on.body.embedded_activity_config.supported_platforms, ['web', 'ios']);
    assert.equal(on.body.embedded_activity_config.default_orientation_lock_state, 3);
    const cmds = await t.api(`/applications/${appId}/commands`, { token: t.world.botToken, bot: true });
    const entry = cmds.body.filter((c: any) => c.type === 4);
    assert.equal(entry.length, 1);
    assert.equal(entry[0].name, 'Launch');
    assert.equal(entry[0].handler, 2);
    // Enabling again does not add a second one.
    await t.api(`/applications/${appId}`, { ...owner, method: 'PATCH', body: { flags: on.body.flags } });
    assert.equal((await t.api(`/applications/${appId}/commands`, { token: t.world.botToken, bot: true })).body.filter((c: any) => c.type === 4).length, 1);

    const config = await t.api(`/applications/${appId}/embedded-activity-config`, owner);
    assert.equal(config.body.application_id, appId);
    assert.deepEqual(config.body.client_platform_config.ios, { label_type: 0, label_until: null, release_phase: 'global_launch' });
    const proxy = await t.api(`/applications/${appId}/proxy-config`, owner);
    assert.equal(proxy.body.url_map.length, 2);

    const reserved = await t.api(`/applications/${appId}/proxy-config`, {
      ...owner,
      method: 'PATCH',
      body: { url_map: [{ prefix: '/.proxy/x', target: 'example.com' }] },
    });
    expectError(reserved, 400, 50035);
    assert.equal(reserved.body.errors.proxy_config.url_map['0'].prefix._errors[0].code, 'URL_MAPPING_PREFIX_RESERVED');
    const badTarget = await t.api(`/applications/${appId}/proxy-config`, {
      ...owner,
      method: 'PATCH',
      body: { url_map: [{ prefix: '/x', target: 'ftp://a b' }] },
    });
    expectError(badTarget, 400, 50035);
    const badOrientation = await t.api(`/applications/${appId}/embedded-activity-config`, {
      ...owner,
      method: 'PATCH',
      body: { default_orientation_lock_state: 7 },
    });
    expectError(badOrientation, 400, 50035);
    expectError(await t.api(`/applications/${appId}/proxy-config`, { token: bob().token }), 403, 20012);
  });

  test('launch, join, leave: the instance route and EMBEDDED_ACTIVITY_UPDATE_V2 follow the participants', async () => {
    const gwA = await RawGateway.connect(t.server.url);
    const readyA = await gwA.identify(alice().token);
    const gwB = await RawGateway.connect(t.server.url);
    const readyB = await gwB.identify(bob().token);
    const botGw = await RawGateway.connect(t.server.url);
    await botGw.identify(t.world.botToken, { intents: 1 | 512 });
    const ch = t.world.textChannelId;

    const launch = await t.api(`/activities/${ch}/${appId}`, { token: alice().token, method: 'POST', body: { session_id: readyA.session_id, nonce: 'n-1' } });
    assert.equal(launch.status, 204, launch.text);
    const first = await gwA.dispatch('EMBEDDED_ACTIVITY_UPDATE_V2', (d) => d.participants.length === 1);
    assert.match(first.instance_id, new RegExp(`^i-\\d+-gc-${t.world.guildId}-${ch}$`));
    assert.equal(first.composite_instance_id, first.instance_id);
    assert.deepEqual(first.location, { id: `gc-${t.world.guildId}-${ch}`, kind: 'gc', channel_id: ch, guild_id: t.world.guildId });
    assert.deepEqual(first.participants, [{ user_id: alice().id, session_id: readyA.session_id, nonce: 'n-1' }]);
    await gwB.dispatch('EMBEDDED_ACTIVITY_UPDATE_V2', (d) => d.instance_id === first.instance_id);

    // Bob launches the same app in the same channel: he joins Alice's instance.
    assert.equal((await t.api(`/activities/${ch}/${appId}`, { token: bob().token, method: 'POST', body: { session_id: readyB.session_id } })).status, 204);
    const both = await gwA.dispatch('EMBEDDED_ACTIVITY_UPDATE_V2', (d) => d.participants.length === 2);
    assert.equal(both.instance_id, first.instance_id);
    const read = await t.api(`/applications/${appId}/activity-instances/${first.instance_id}`, { token: t.world.botToken, bot: true });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, {
      application_id: appId,
      instance_id: first.instance_id,
      launch_id: first.launch_id,
      location: first.location,
      users: [alice().id, bob().id],
    });
    // A third session of the guild sees running instances in GUILD_CREATE.
    const gwC = await RawGateway.connect(t.server.url);
    await gwC.identify(bob().token);
    const gc = await gwC.dispatch('GUILD_CREATE', (d) => d.id === t.world.guildId);
    assert.equal(gc.activity_instances[0].instance_id, first.instance_id);
    gwC.ws.close(1000);

    const loc = first.location.id;
    assert.deepEqual(
      (
        await t.api(`/applications/${appId}/activities/${loc}/instances/${first.instance_id}/leave`, {
          token: bob().token,
          method: 'POST',
          body: { session_id: readyB.session_id },
        })
      ).body,
      {},
    );
    await gwA.dispatch('EMBEDDED_ACTIVITY_UPDATE_V2', (d) => d.participants.length === 1 && d !== both);
    assert.deepEqual((await t.api(`/applications/${appId}/activity-instances/${first.instance_id}`, { token: t.world.botToken, bot: true })).body.users, [
      alice().id,
    ]);
    // Alice's session ends: the last participant is gone, so is the instance.
    gwA.ws.close(1000);
    await gwB.dispatch('EMBEDDED_ACTIVITY_UPDATE_V2', (d) => d.instance_id === first.instance_id && d.participants.length === 0);
    const ended = await t.api(`/applications/${appId}/activity-instances/${first.instance_id}`, { token: t.world.botToken, bot: true });
    assert.deepEqual([ended.status, ended.body], [404, { message: '404: Not Found', code: 0 }]);
    expectError(
      await t.api(`/applications/${appId}/activities/${loc}/instances/${first.instance_id}/leave`, { token: bob().token, method: 'POST', body: {} }),
      404,
      0,
    );
    // Bots are not told about instances.
    assert.equal(
      botGw.frames.some((f) => f.t === 'EMBEDDED_ACTIVITY_UPDATE_V2'),
      false,
    );
    gwB.ws.close(1000);
    botGw.ws.close(1000);
  });

  test('launch errors: unknown app, app without EMBEDDED, a channel the user cannot see, missing permission', async () => {
    const ch = t.world.textChannelId;
    const body = { session_id: 's' };
    expectError(await t.api(`/activities/${ch}/123456789012345678`, { token: alice().token, method: 'POST', body }), 404, 10002);
    const plainApp = (await t.api('/applications', { token: alice().token, method: 'POST', body: { name: 'No Activity' } })).body;
    expectError(await t.api(`/activities/${ch}/${plainApp.id}`, { token: alice().token, method: 'POST', body }), 400, 50039);
    const stranger = await register(t, `stranger_${crypto.randomBytes(3).toString('hex')}`);
    expectError(await t.api(`/activities/${ch}/${appId}`, { token: stranger.token, method: 'POST', body }), 404, 10003);
    // A channel Bob cannot view, then one where @everyone lacks USE_EMBEDDED_ACTIVITIES.
    const hidden = await t.api(`/guilds/${t.world.guildId}/channels`, {
      token: alice().token,
      method: 'POST',
      body: { name: 'hidden', type: 0, permission_overwrites: [{ id: t.world.guildId, type: 0, deny: String(1 << 10) }] },
    });
    expectError(await t.api(`/activities/${hidden.body.id}/${appId}`, { token: bob().token, method: 'POST', body }), 403, 50001);
    const noActivities = await t.api(`/guilds/${t.world.guildId}/channels`, {
      token: alice().token,
      method: 'POST',
      body: { name: 'no-activities', type: 0, permission_overwrites: [{ id: t.world.guildId, type: 0, deny: String(1n << 39n) }] },
    });
    expectError(await t.api(`/activities/${noActivities.body.id}/${appId}`, { token: bob().token, method: 'POST', body }), 403, 50013);
    expectError(await t.api(`/activities/${ch}/${appId}`, { token: alice().token, method: 'POST', body: { session_id: '' } }), 400, 50035);
    // The instance route is the app's own.
    expectError(await t.api(`/applications/${plainApp.id}/activity-instances/i-1-pc-2`, { token: t.world.botToken, bot: true }), 403, 50001);
  });

  test('the Launch entry point (handler 2) and a LAUNCH_ACTIVITY callback (handler 1) both launch', async () => {
    const gw = await RawGateway.connect(t.server.url);
    const ready = await gw.identify(alice().token);
    const cmds = (await t.api(`/applications/${appId}/commands`, { token: t.world.botToken, bot: true })).body;
    const entry = cmds.find((c: any) => c.type === 4);
    const r = await t.api('/interactions', {
      token: alice().token,
      method: 'POST',
      body: {
        type: 2,
        application_id: appId,
        guild_id: t.world.guildId,
        channel_id: t.world.textChannelId,
        session_id: ready.session_id,
        nonce: 'entry-1',
        data: { id: entry.id, name: entry.name, type: 4 },
      },
    });
    assert.equal(r.status, 204, r.text);
    const ok = await gw.dispatch('INTERACTION_SUCCESS', (d) => d.nonce === 'entry-1');
    const upd = await gw.dispatch('EMBEDDED_ACTIVITY_UPDATE_V2', (d) => d.participants.some((p: any) => p.nonce === 'entry-1'));
    assert.equal(upd.launch_id, ok.id);
    assert.equal(upd.instance_id, `i-${ok.id}-gc-${t.world.guildId}-${t.world.textChannelId}`);
    const msg = await gw.dispatch('MESSAGE_CREATE', (d) => d.interaction_metadata?.id === ok.id);
    assert.match(msg.content, /launched/);

    // The app takes the entry point over (handler 1) and answers with LAUNCH_ACTIVITY: Bob joins the same instance.
    const patched = await t.api(`/applications/${appId}/commands/${entry.id}`, { token: t.world.botToken, bot: true, method: 'PATCH', body: { handler: 1 } });
    assert.equal(patched.body.handler, 1, patched.text);
    const botGw = await RawGateway.connect(t.server.url);
    await botGw.identify(t.world.botToken, { intents: 1 });
    const gwB = await RawGateway.connect(t.server.url);
    const readyB = await gwB.identify(bob().token);
    await t.api('/interactions', {
      token: bob().token,
      method: 'POST',
      body: {
        type: 2,
        application_id: appId,
        guild_id: t.world.guildId,
        channel_id: t.world.textChannelId,
        session_id: readyB.session_id,
        nonce: 'entry-2',
        data: { id: entry.id, name: entry.name, type: 4 },
      },
    });
    const i = await botGw.dispatch('INTERACTION_CREATE', (d) => d.data?.id === entry.id);
    const cb = await t.api(`/interactions/${i.id}/${i.token}/callback?with_response=true`, { method: 'POST', body: { type: 12 } });
    assert.equal(cb.status, 200, cb.text);
    assert.equal(cb.body.interaction.activity_instance_id, upd.instance_id);
    assert.deepEqual(cb.body.resource, { type: 12, activity_instance: { id: upd.instance_id } });
    const joined = await gwB.dispatch('EMBEDDED_ACTIVITY_UPDATE_V2', (d) => d.participants.some((p: any) => p.nonce === 'entry-2'));
    assert.deepEqual(joined.participants.map((p: any) => p.user_id).sort(), [alice().id, bob().id].sort());
    await t.api(`/applications/${appId}/commands/${entry.id}`, { token: t.world.botToken, bot: true, method: 'PATCH', body: { handler: 2 } });
    for (const g of [gw, gwB, botGw]) g.ws.close(1000);
    await gwB.closed;
  });

  test('the proxy routes by URL mapping, with or without /.proxy, and nowhere else', async () => {
    const root = await viaProxy('/?frame_id=f&instance_id=i&platform=desktop');
    assert.equal(root.status, 200);
    assert.equal(JSON.parse(root.text).path, '/app/?frame_id=f&instance_id=i&platform=desktop');
    const api = await viaProxy('/api/token', {
      method: 'POST',
      body: 'code=abc',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '6.6.6.6', 'x-signature-ed25519': 'forged' },
    });
    assert.deepEqual(JSON.parse(api.text), { path: '/backend/token', method: 'POST', body: 'code=abc' });
    const seen = up.seen.at(-1)!;
    assert.equal(seen.headers.host, `127.0.0.1:${up.port}`);
    assert.equal(seen.headers['x-forwarded-host'], proxyHost);
    assert.equal(seen.headers['x-forwarded-for'], undefined, 'the client address is hidden');
    assert.equal(seen.headers['x-signature-ed25519'], undefined, 'the client cannot forge the proxy signature');
    const viaPrefix = await viaProxy('/.proxy/api/token', { method: 'POST', body: 'code=abc' });
    assert.equal(viaPrefix.text, api.text);
    // Headers to the browser: the proxy's CSP replaces the Activity's; framing rules and cookie domains are dropped.
    assert.match(String(api.headers['content-security-policy']), new RegExp(`frame-ancestors 'self' ${t.server.url}`));
    assert.equal(api.headers['x-frame-options'], undefined);
    assert.deepEqual(api.headers['set-cookie'], ['sid=1; Path=/; HttpOnly']);

    // Nothing unmapped is reachable: other paths of the backend, absolute-form targets, other apps, other hosts.
    const noRoot = await t.api(`/applications/${appId}/proxy-config`, {
      token: alice().token,
      method: 'PATCH',
      body: { url_map: [{ prefix: '/api', target: `http://127.0.0.1:${up.port}/backend` }] },
    });
    assert.equal(noRoot.status, 200);
    assert.equal((await viaProxy('/anything')).status, 404);
    assert.equal((await viaProxy('/api/../secret')).status, 400); // dot segments are refused before matching (issue 20)
    assert.equal((await viaProxy(`http://127.0.0.1:${up.port}/backend/x`)).status, 400);
    assert.equal((await viaProxy('/api/x', { host: `999999999999999999.localhost:${t.server.port}` })).status, 404);
    const count = up.seen.length;
    await viaProxy('/api%2F..%2F..%2Fsecret');
    assert.ok(up.seen.slice(count).every((s) => s.url.startsWith('/backend/')));
    // The API itself is untouched on the plain host.
    assert.equal((await t.api('/gateway')).status, 200);
    await t.api(`/applications/${appId}/proxy-config`, {
      token: alice().token,
      method: 'PATCH',
      body: {
        url_map: [
          { prefix: '/', target: `http://127.0.0.1:${up.port}/app` },
          { prefix: '/api', target: `http://127.0.0.1:${up.port}/backend` },
        ],
      },
    });
  });

  test('bodies and waits are bounded', async () => {
    const big = await viaProxy('/api/upload', {
      method: 'POST',
      body: Buffer.alloc(10 * 1024 * 1024 + 1),
      headers: { 'content-type': 'application/octet-stream' },
    });
    assert.equal(big.status, 413);
    const limits = { headersTimeoutMs: 300, idleTimeoutMs: 300, maxRequestBytes: 1024, maxResponseBytes: 1024 };
    await assert.rejects(
      upstreamRequest(loopbackGuard, new URL(`${up.url}/hang`), 'GET', {}, null, limits),
      (e: unknown) => e instanceof UpstreamError && e.status === 504,
    );
    const res = await upstreamRequest(loopbackGuard, new URL(`${up.url}/big`), 'GET', {}, null, limits);
    await assert.rejects(
      async () => {
        for await (const _ of res.body) {
          /* drain */
        }
      },
      (e: unknown) => e instanceof UpstreamError && e.status === 502,
    );
    await assert.rejects(
      upstreamRequest(loopbackGuard, new URL(`${up.url}/x`), 'POST', {}, Readable.from([Buffer.alloc(2048)]), limits),
      (e: unknown) => e instanceof UpstreamError && e.status === 413,
    );
    await assert.rejects(
      upstreamRequest(loopbackGuard, new URL('http://127.0.0.1:1/'), 'GET', {}, null, limits),
      (e: unknown) => e instanceof UpstreamError && e.status === 502,
    );
  });

  test('WebSockets pass through, on mapped paths only', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${t.server.port}/.proxy/api/socket`, { headers: { host: proxyHost } });
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    ws.send('hello');
    const [reply] = await new Promise<any[]>((resolve) => ws.once('message', (...a) => resolve(a)));
    assert.equal(String(reply), 'echo /backend/socket hello');
    ws.close();
    const refused = new WebSocket(`ws://127.0.0.1:${t.server.port}/nowhere`, { headers: { host: `999999999999999999.localhost:${t.server.port}` } });
    const status = await new Promise<number>((resolve) => refused.once('unexpected-response', (_req, res) => resolve(res.statusCode!)));
    assert.equal(status, 404);
  });

  // A forgery must differ from the real signature: changing the last hex digit always does (writing "00" did not, 1 time in 256).
  const flipLastHex = (ticket: string) => ticket.slice(0, -1) + (ticket.endsWith('0') ? '1' : '0');

  test('the bridge page and proxy tickets: signed headers reach the Activity, verifiable with its public key', async () => {
    const bridge = await viaProxy('/.well-known/accord/activity-bridge.html?frame_id=f&instance_id=i&platform=desktop');
    assert.equal(bridge.status, 200);
    assert.match(String(bridge.headers['content-security-policy']), new RegExp(`frame-ancestors ${t.server.url}(;|$)`));
    assert.match(bridge.text, /event\.source === frame\.contentWindow && event\.origin === location\.origin/);
    assert.match(bridge.text, new RegExp(JSON.stringify(t.server.url).replace(/[/.]/g, '\\$&')));

    const gw = await RawGateway.connect(t.server.url);
    const ready = await gw.identify(alice().token);
    await t.api(`/activities/${t.world.textChannelId}/${appId}`, { token: alice().token, method: 'POST', body: { session_id: ready.session_id } });
    const inst = await gw.dispatch('EMBEDDED_ACTIVITY_UPDATE_V2');
    const minted = await t.api(`/applications/${appId}/activity-instances/${inst.instance_id}/proxy-ticket`, { token: alice().token, method: 'POST' });
    assert.equal(minted.status, 200, minted.text);
    expectError(await t.api(`/applications/${appId}/activity-instances/${inst.instance_id}/proxy-ticket`, { token: bob().token, method: 'POST' }), 404, 0);

    assert.equal(minted.body.origin, `http://${proxyHost}`);
    // Given to the bridge page, the ticket becomes the origin's cookie with the page itself.
    const framed = await viaProxy(
      `/.well-known/accord/activity-bridge.html?frame_id=f&instance_id=i&platform=desktop&accord_ticket=${encodeURIComponent(minted.body.ticket)}`,
    );
    assert.match(String(framed.headers['set-cookie']), /^accord_proxy_ticket=.+; HttpOnly; Secure; SameSite=None; Partitioned$/);
    assert.equal((await viaProxy('/.well-known/accord/activity-bridge.html?accord_ticket=forged.00')).headers['set-cookie'], undefined);
    const stored = await viaProxy('/.well-known/accord/proxy-ticket', { method: 'POST', body: minted.body.ticket, headers: { origin: `http://${proxyHost}` } });
    assert.equal(stored.status, 204);
    const cookie = stored.headers['set-cookie']![0];
    assert.match(cookie, /^accord_proxy_ticket=.+; Path=\/; Max-Age=\d+; HttpOnly; Secure; SameSite=None; Partitioned$/);
    assert.equal(
      (
        await viaProxy('/.well-known/accord/proxy-ticket', {
          method: 'POST',
          body: flipLastHex(minted.body.ticket),
          headers: { origin: `http://${proxyHost}` },
        })
      ).status,
      401,
    );

    await viaProxy('/api/me', { headers: { cookie: `${cookie.split(';')[0]}; other=1` } });
    const h = up.seen.at(-1)!.headers;
    assert.equal(h.cookie, 'other=1', 'the ticket cookie stays with the proxy');
    const payloadBytes = Buffer.from(String(h['x-discord-proxy-payload']), 'base64');
    const payload = JSON.parse(payloadBytes.toString('utf8'));
    assert.equal(String(payload.created_at), h['x-signature-timestamp']);
    assert.equal(payload.user_id, alice().id);
    assert.equal(payload.instance_id, inst.instance_id);
    assert.ok(payload.expires_at > payload.created_at);
    const verifyKey = (await t.api(`/applications/${appId}`, { token: alice().token })).body.verify_key;
    const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(verifyKey, 'hex')]);
    const key = crypto.createPublicKey({ key: spki, format: 'der', type: 'spki' });
    assert.equal(crypto.verify(null, payloadBytes, key, Buffer.from(String(h['x-signature-ed25519']), 'hex')), true);

    // The person's ticket signs only requests from the Activity's own origin (issue 20): another origin (another app's
    // Activity framed in the same client shares the partitioned cookie jar) reaches the upstream unsigned.
    const jar = cookie.split(';')[0];
    const signed = async (headers: Record<string, string>, method = 'POST') => {
      await viaProxy('/api/transfer', { method, body: method === 'POST' ? 'x' : undefined, headers: { cookie: jar, ...headers } });
      return up.seen.at(-1)!.headers['x-discord-proxy-payload'] !== undefined;
    };
    assert.equal(await signed({ origin: `http://${proxyHost}`, 'sec-fetch-site': 'same-origin' }), true);
    assert.equal(await signed({}, 'GET'), true, 'no Fetch Metadata: not a browser, or an old one');
    assert.equal(await signed({ origin: 'http://evil.example' }), false);
    assert.equal(await signed({ origin: 'null' }), false);
    assert.equal(await signed({ origin: `http://123456789012345678.localhost:${t.server.port}`, 'sec-fetch-site': 'same-site' }), false);
    assert.equal(await signed({ 'sec-fetch-site': 'cross-site' }, 'GET'), false);
    assert.equal(await signed({ 'sec-fetch-site': 'same-site' }, 'GET'), false);
    const wsSigned = async (origin: string) => {
      const ws = new WebSocket(`ws://127.0.0.1:${t.server.port}/api/whoami`, { headers: { host: proxyHost, cookie: jar, origin } });
      const [msg] = await new Promise<any[]>((resolve, reject) => {
        ws.once('message', (...a) => resolve(a));
        ws.once('error', reject);
      });
      ws.close();
      return String(msg);
    };
    assert.equal(await wsSigned(`http://${proxyHost}`), 'signed=true');
    assert.equal(await wsSigned('http://evil.example'), 'signed=false', 'no cross-site WebSocket hijacking of the ticket');
    gw.ws.close(1000);
  });
});

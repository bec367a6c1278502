/**
 * The dev routes' guard (issue 14, defect 8): `isLoopback` parses addresses and never matches a host name; with --dev
 * the /__dev/ routes need the dev token as well as a loopback caller; --trust-proxy makes X-Forwarded-For the caller's
 * address (and only then); the web client's page carries the token only for a local page on a loopback Host.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { startTestServer, devHeaders, type TestServer } from './helpers/server.js';
import { isLoopback, loadConfig } from '../src/config.js';
import { addFault, clearFaults, faultsApi } from './helpers/faults.js';

const T = { timeout: 60_000 };
let t: TestServer;

before(async () => {
  t = await startTestServer({ dev: true });
});
after(() => t.close());

/** A GET with any Host header (fetch may not set it). */
function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, text, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('isLoopback takes addresses only: 127/8, ::1 and ::ffff:127.x; never a host name', () => {
  for (const a of ['127.0.0.1', '127.255.0.9', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '::ffff:7f00:2']) assert.equal(isLoopback(a), true, a);
  for (const a of ['127.example.com', '127.0.0.1.nip.io', 'localhost', '10.0.0.1', '::ffff:10.0.0.1', '::2', '128.0.0.1', '1.127.0.0', '', '127.0.0.256'])
    assert.equal(isLoopback(a), false, a);
  assert.throws(() => loadConfig(['--dev', '--host', '127.example.com'], {}), /non-loopback/);
  assert.equal(loadConfig(['--dev', '--host', 'localhost'], {}).dev, true);
  assert.equal(loadConfig(['--dev', '--host', '::1'], {}).dev, true);
});

test('settings: --trust-proxy (flag, value, env) and the dev token (random, or ACCORD_DEV_TOKEN; none without --dev)', () => {
  assert.equal(loadConfig([], {}).trustProxy, false);
  assert.equal(loadConfig(['--trust-proxy'], {}).trustProxy, true);
  assert.equal(loadConfig(['--trust-proxy', '--dev'], {}).trustProxy, true);
  assert.equal(loadConfig(['--trust-proxy', '10.0.0.0/8,127.0.0.1'], {}).trustProxy, '10.0.0.0/8,127.0.0.1');
  assert.equal(loadConfig(['--trust-proxy=2'], {}).trustProxy, 2);
  assert.equal(loadConfig([], { ACCORD_TRUST_PROXY: 'true' }).trustProxy, true);
  assert.equal(loadConfig([], { ACCORD_TRUST_PROXY: 'false' }).trustProxy, false);
  const a = loadConfig(['--dev'], {}).devToken!;
  const b = loadConfig(['--dev'], {}).devToken!;
  assert.ok(a.length >= 32 && a !== b);
  assert.equal(loadConfig(['--dev'], { ACCORD_DEV_TOKEN: 'a-fixed-dev-token-for-scripts' }).devToken, 'a-fixed-dev-token-for-scripts');
  assert.equal(loadConfig([], { ACCORD_DEV_TOKEN: 'a-fixed-dev-token-for-scripts' }).devToken, undefined);
  assert.throws(() => loadConfig(['--dev'], { ACCORD_DEV_TOKEN: 'short' }), /ACCORD_DEV_TOKEN/);
});

test('with --dev, a loopback caller without the dev token is refused (401); with it, served', T, async () => {
  const bare = await fetch(`${t.server.url}/__dev/clock`);
  assert.equal(bare.status, 401);
  assert.match(((await bare.json()) as any).message, /dev token/);
  const wrong = await fetch(`${t.server.url}/__dev/users`, { headers: { 'x-accord-dev-token': 'x'.repeat(32) } });
  assert.equal(wrong.status, 401);
  const token = await fetch(`${t.server.url}/__dev/users/${t.world.users[1].id}/token`, { method: 'POST' });
  assert.equal(token.status, 401, 'no user token without the dev token');
  // Refused means not done: the route behind the guard never runs. A call without a body is the case that matters:
  // with one, reading the body gave the 401 time to be written before the route could start.
  const rule = await addFault(t, { application_id: t.world.applicationId, kind: 'http', status: 500 });
  const refused = await fetch(`${t.server.url}/__dev/faults/${rule.id}`, { method: 'DELETE' });
  assert.equal(refused.status, 401);
  await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(
    (await faultsApi(t, 'GET', `?application_id=${t.world.applicationId}`)).body.map((r: any) => r.id),
    [rule.id],
    'the refused DELETE left the rule in place',
  );
  await clearFaults(t);
  const ok = await fetch(`${t.server.url}/__dev/clock`, { headers: devHeaders(t) });
  assert.equal(ok.status, 200);
  // The monetization dev routes (registered by the events-out runtime) are guarded the same way.
  assert.equal((await fetch(`${t.server.url}/__dev/monetization/run`, { method: 'POST' })).status, 401);
  assert.equal((await fetch(`${t.server.url}/__dev/monetization/run`, { method: 'POST', headers: devHeaders(t) })).status, 200);
});

test('X-Forwarded-For is ignored without --trust-proxy; with it, a proxied caller from elsewhere is not local (404 even with the token)', T, async () => {
  const forwarded = { ...devHeaders(t), 'x-forwarded-for': '203.0.113.9' };
  assert.equal((await fetch(`${t.server.url}/__dev/clock`, { headers: forwarded })).status, 200, "the header is a client's word here");
  const proxied = await startTestServer({ dev: true, trustProxy: true });
  try {
    const far = await fetch(`${proxied.server.url}/__dev/clock`, { headers: { ...devHeaders(proxied), 'x-forwarded-for': '203.0.113.9' } });
    assert.equal(far.status, 404);
    const near = await fetch(`${proxied.server.url}/__dev/clock`, { headers: { ...devHeaders(proxied), 'x-forwarded-for': '127.0.0.1' } });
    assert.equal(near.status, 200);
    assert.equal((await fetch(`${proxied.server.url}/__dev/clock`, { headers: { 'x-forwarded-for': '127.0.0.1' } })).status, 401);
  } finally {
    await proxied.close();
  }
});

test("the web client's page carries the dev token only on a loopback Host, never without --dev", T, async () => {
  const token = t.server.ctx.config.devToken!;
  const local = await get(`${t.server.url}/app`);
  assert.equal(local.status, 200);
  assert.ok(local.text.includes(`<meta name="accord-dev-token" content="${token}">`));
  assert.equal(local.headers['cache-control'], 'no-store');
  const named = await get(`${t.server.url}/app`, { host: `localhost:${t.server.port}` });
  assert.ok(named.text.includes(token));
  // A DNS name rebound to 127.0.0.1 is another origin's page: no token in it.
  const rebound = await get(`${t.server.url}/app`, { host: `127.example.com:${t.server.port}` });
  assert.equal(rebound.status, 200);
  assert.equal(rebound.text.includes('accord-dev-token'), false);
  const plain = await startTestServer();
  try {
    const page = await get(`${plain.server.url}/app`);
    assert.equal(page.status, 200);
    assert.equal(page.text.includes('accord-dev-token'), false);
    assert.equal(plain.server.ctx.config.devToken, undefined);
  } finally {
    await plain.close();
  }
});

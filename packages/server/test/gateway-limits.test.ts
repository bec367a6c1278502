/**
 * Gateway limits (issue 14, item 9): a cap on open Gateway connections per client address (a refused upgrade is an
 * HTTP 429, never a WebSocket), counted by the address --trust-proxy names; and the Identify timeout: a socket that
 * sends neither Identify nor Resume is closed with 4003 Not authenticated once it runs out.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { startTestServer } from './helpers/server.js';
import { RawGateway } from './helpers/gateway-client.js';
import { until } from './helpers/wait.js';

const T = { timeout: 60_000 };

/** Opens a Gateway socket: resolves 'open', or the HTTP status the upgrade was refused with. */
function tryOpen(url: string, headers: Record<string, string> = {}): Promise<{ ws: WebSocket; status: number | 'open' }> {
  const ws = new WebSocket(url.replace(/^http/, 'ws') + '/?v=10&encoding=json', { headers });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, status: 'open' }));
    ws.once('unexpected-response', (_req, res) => resolve({ ws, status: res.statusCode ?? 0 }));
    ws.once('error', (err) => reject(err));
  });
}

test('at most N Gateway connections per address: the next upgrade gets 429 until one closes', T, async () => {
  const t = await startTestServer({ gatewayConnectionsPerIp: 3 });
  try {
    const open = [];
    for (let i = 0; i < 3; i++) {
      const r = await tryOpen(t.server.url);
      assert.equal(r.status, 'open');
      open.push(r.ws);
    }
    const refused = await tryOpen(t.server.url);
    assert.equal(refused.status, 429);
    // A forged X-Forwarded-For buys nothing without --trust-proxy.
    assert.equal((await tryOpen(t.server.url, { 'x-forwarded-for': '203.0.113.1' })).status, 429);
    open[0].close(1000);
    await until(() => (t.server.gateway.perIp.get('127.0.0.1') ?? 0) < 3, 20_000, 'the closed socket to be uncounted');
    const again = await tryOpen(t.server.url);
    assert.equal(again.status, 'open');
    for (const ws of [...open.slice(1), again.ws]) ws.close(1000);
    await until(() => t.server.gateway.perIp.size === 0, 20_000, 'every socket to be uncounted');
  } finally {
    await t.close();
  }
});

test('behind a trusted proxy the cap counts the forwarded client addresses', T, async () => {
  const t = await startTestServer({ gatewayConnectionsPerIp: 1, trustProxy: true });
  try {
    const a = await tryOpen(t.server.url, { 'x-forwarded-for': '198.51.100.1' });
    const b = await tryOpen(t.server.url, { 'x-forwarded-for': '198.51.100.2' });
    assert.equal(a.status, 'open');
    assert.equal(b.status, 'open');
    assert.equal((await tryOpen(t.server.url, { 'x-forwarded-for': '198.51.100.1' })).status, 429);
    a.ws.close(1000);
    b.ws.close(1000);
  } finally {
    await t.close();
  }
});

test('a socket that never identifies is closed with 4003 once the Identify timeout runs out; an identified one stays', T, async () => {
  const t = await startTestServer({ identifyTimeoutMs: 300 });
  try {
    // Opened first, so its own timer was due before the idle socket's: when that one closes, this one has passed it.
    const identified = await RawGateway.connect(t.server.url);
    await identified.identify(t.world.botToken, { intents: 1 });
    const idle = await RawGateway.connect(t.server.url);
    await idle.wait((f) => f.op === 10);
    idle.send(1, null); // heartbeats do not count as identifying
    assert.equal(await idle.closed, 4003);
    identified.send(1, null);
    await identified.wait((f) => f.op === 11);
    identified.close();
    // A refused Resume (op 9) starts the wait again: the client must Identify next.
    const stale = await RawGateway.connect(t.server.url);
    await stale.wait((f) => f.op === 10);
    stale.send(6, { token: t.world.botToken, session_id: 'no-such-session', seq: 1 });
    assert.equal((await stale.wait((f) => f.op === 9)).d, false);
    assert.equal(await stale.closed, 4003);
  } finally {
    await t.close();
  }
});

test('defaults: 100 connections per address and a 20 s Identify timeout; --dev raises the cap for local load', async () => {
  const { loadConfig } = await import('../src/config.js');
  assert.equal(loadConfig([], {}).gatewayConnectionsPerIp, 100);
  assert.equal(loadConfig([], {}).identifyTimeoutMs, 20_000);
  assert.equal(loadConfig(['--dev'], {}).gatewayConnectionsPerIp, 10_000);
  assert.equal(loadConfig(['--dev', '--gateway-connections-per-ip', '5'], {}).gatewayConnectionsPerIp, 5);
});

/**
 * The guarded outgoing client (core/outgoing.ts, core/address-policy.ts; issue 14): every refused address class, a DNS
 * answer that changes between check and connect, oversized and slow answers, and redirects.
 *
 * No packet leaves loopback: the resolver's answers are injected, and the socket opener is replaced by one that
 * records the address it was asked for and then connects to a local test server instead. A refused address must
 * never reach the opener, so a broken check fails these tests and still sends nothing to a private address.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { OutgoingClient, OutgoingError, RefusedByPolicy, allowListOf, type Resolved, type SocketConnector } from '../src/core/outgoing.js';
import { AllowList, LOOPBACK_CIDRS, addressClass } from '../src/core/address-policy.js';
import { urlIssue } from '../src/core/url-policy.js';

/** The one local server every "connection" really lands on. */
let local: http.Server;
let localPort = 0;
const release: (() => void)[] = [];
before(async () => {
  local = http.createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/big')
      return void res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(1024 * 1024) }).end(Buffer.alloc(1024 * 1024, 0x20));
    if (path === '/big-chunked') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      for (let i = 0; i < 64; i++) res.write(Buffer.alloc(16 * 1024, 0x61));
      return void res.end();
    }
    if (path === '/slow-head') return void release.push(() => res.destroy()); // never answers until the test ends
    if (path === '/slow-body') {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100' });
      res.write('x'); // then silence
      return void release.push(() => res.destroy());
    }
    if (path === '/redirect') return void res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, host: req.headers.host }));
  });
  await new Promise<void>((r) => local.listen(0, '127.0.0.1', r));
  localPort = (local.address() as AddressInfo).port;
});
after(async () => {
  for (const r of release) r();
  local.closeAllConnections();
  await new Promise((r) => local.close(r));
});

interface Attempt {
  address: string;
  port: string;
  servername?: string;
  protocol: string;
}

/** An opener that records the address and connects to the local server whatever it was asked (plain TCP, also for https). */
function fakeNetwork() {
  const attempts: Attempt[] = [];
  const connect: SocketConnector = (opts, cb) => {
    attempts.push({ address: opts.hostname, port: opts.port, servername: opts.servername, protocol: opts.protocol });
    const socket = net.connect(localPort, '127.0.0.1');
    socket.once('connect', () => cb(null, socket));
    socket.once('error', (err) => cb(err, null));
  };
  return { attempts, connect };
}

const answers = (...ips: string[]): Resolved[] => ips.map((address) => ({ address, family: net.isIP(address) as 4 | 6 }));

function client(resolve: (host: string) => Promise<Resolved[]>, allow: string[] = []) {
  const net = fakeNetwork();
  return { c: new OutgoingClient(new AllowList(allow), { resolve, connect: net.connect }), attempts: net.attempts };
}

const PUBLIC_V4 = '93.184.216.34';
const PUBLIC_V6 = '2606:2800:220:1:248:1893:25c8:1946';

/** One address of every refused class, IPv4 and IPv6. */
const REFUSED: [string, string][] = [
  ['127.0.0.1', 'loopback'],
  ['127.255.0.9', 'loopback'],
  ['::1', 'loopback'],
  ['10.0.0.1', 'private'],
  ['172.16.5.4', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['fc00::1', 'private'],
  ['fd12:3456::1', 'private'],
  ['169.254.169.254', 'link-local'],
  ['169.254.0.1', 'link-local'],
  ['fe80::1', 'link-local'],
  ['100.64.0.1', 'cgnat'],
  ['100.127.255.254', 'cgnat'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['ff02::1', 'multicast'],
  ['ff05::2', 'multicast'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['::', 'unspecified'],
  ['255.255.255.255', 'broadcast'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:10.1.2.3', 'private'],
  ['::ffff:a9fe:a9fe', 'link-local'],
  ['64:ff9b::c0a8:101', 'private'],
  ['64:ff9b::7f00:1', 'loopback'],
  ['2002:a00:1::1', 'private'],
  ['192.0.2.1', 'documentation'],
  ['240.0.0.1', 'reserved'],
  ['198.18.0.1', 'reserved'],
];

test('address classes: every special range is named, ordinary public addresses are not', () => {
  for (const [ip, cls] of REFUSED) assert.equal(addressClass(ip), cls, ip);
  for (const ip of [PUBLIC_V4, '8.8.8.8', '1.1.1.1', PUBLIC_V6, '::ffff:8.8.8.8', '64:ff9b::808:808', '172.32.0.1', '100.128.0.1', '11.0.0.1'])
    assert.equal(addressClass(ip), null, ip);
});

test('every refused class is refused, by name and as a literal, and nothing is ever connected', async () => {
  for (const [ip] of REFUSED) {
    const { c, attempts } = client(async () => answers(ip));
    await assert.rejects(
      c.request('https://target.example/hook', { timeoutMs: 5000, maxBytes: 1024 }),
      (e: unknown) => e instanceof RefusedByPolicy && (e as Error).message === 'refused by policy',
      ip,
    );
    const literal = net.isIP(ip) === 6 ? `[${ip}]` : ip;
    await assert.rejects(c.request(`https://${literal}/hook`, { timeoutMs: 5000, maxBytes: 1024 }), (e: unknown) => e instanceof RefusedByPolicy, literal);
    assert.deepEqual(attempts, [], `no connection to ${ip}`);
    assert.ok(c.literalRefusal(ip, 'https:'), `literal check for node's own client: ${ip}`);
    await c.close();
  }
});

test('a public address is reached, on the address checked, with the original name for TLS', async () => {
  for (const ip of [PUBLIC_V4, PUBLIC_V6]) {
    const { c, attempts } = client(async () => answers(ip));
    const res = await c.request('https://api.example.com/x', { timeoutMs: 10_000, maxBytes: 1024 });
    assert.equal(res.status, 200);
    assert.deepEqual(
      attempts.map((a) => [a.address, a.servername]),
      [[ip, 'api.example.com']],
    );
    await c.close();
  }
});

test('a mixed answer connects only to its public address', async () => {
  const { c, attempts } = client(async () => answers('10.0.0.7', '169.254.169.254', PUBLIC_V4));
  assert.equal((await c.request('https://mixed.example/x', { timeoutMs: 10_000, maxBytes: 1024 })).status, 200);
  assert.deepEqual(
    attempts.map((a) => a.address),
    [PUBLIC_V4],
  );
  await c.close();
});

test('the operator allow list opens exactly its ranges; plain http goes only to them', async () => {
  const { c, attempts } = client(
    async (host) => answers(host === 'db.internal' ? '10.1.2.3' : host === 'nas.lan' ? '192.168.1.10' : PUBLIC_V4),
    ['10.0.0.0/8'],
  );
  assert.equal((await c.request('https://db.internal/x', { timeoutMs: 10_000, maxBytes: 1024 })).status, 200);
  assert.equal((await c.request('http://db.internal/x', { timeoutMs: 10_000, maxBytes: 1024 })).status, 200);
  await assert.rejects(c.request('https://nas.lan/x', { timeoutMs: 5000, maxBytes: 1024 }), RefusedByPolicy);
  await assert.rejects(c.request('http://public.example/x', { timeoutMs: 5000, maxBytes: 1024 }), RefusedByPolicy, 'plain http to a public address');
  await assert.rejects(c.request('ftp://public.example/x', { timeoutMs: 5000, maxBytes: 1024 }), RefusedByPolicy);
  assert.deepEqual(
    attempts.map((a) => a.address),
    ['10.1.2.3', '10.1.2.3'],
  );
  await c.close();
});

test('the default allow list: loopback when the server listens on loopback or runs --dev, else nothing', () => {
  assert.ok(allowListOf({ host: '127.0.0.1', dev: false }).has('127.0.0.1'));
  assert.ok(allowListOf({ host: '::1', dev: false }).has('::1'));
  assert.ok(allowListOf({ host: 'localhost', dev: false }).has('127.0.0.1'));
  assert.ok(allowListOf({ host: '127.0.0.1', dev: true }).has('::1'));
  assert.equal(allowListOf({ host: '0.0.0.0', dev: false }).has('127.0.0.1'), false);
  assert.equal(allowListOf({ host: '192.0.2.10', dev: false }).has('127.0.0.1'), false);
  assert.equal(allowListOf({ host: '127.0.0.1', dev: true, outgoingAllow: 'none' }).has('127.0.0.1'), false);
  assert.ok(allowListOf({ host: '0.0.0.0', dev: false, outgoingAllow: '10.0.0.0/8, fd00::/8' }).has('fd00::5'));
  assert.ok(allowListOf({ host: '0.0.0.0', dev: false, outgoingAllow: '10.0.0.0/8' }).has('::ffff:10.9.9.9'));
  assert.throws(() => AllowList.parse('10.0.0.0/33'));
  assert.throws(() => AllowList.parse('example.com/8'));
  assert.deepEqual(new AllowList(LOOPBACK_CIDRS).cidrs, LOOPBACK_CIDRS);
});

test('DNS rebinding: an answer that changes between the check and the connection is judged at connect time', async () => {
  let calls = 0;
  const { c, attempts } = client(async () => (calls++ === 0 ? answers(PUBLIC_V4) : answers('169.254.169.254')));
  // The check (as a save-time validation would do it) sees a public address…
  assert.equal((await c.pick('rebind.example', 'https:')).address, PUBLIC_V4);
  assert.equal(urlIssue('https://rebind.example/hook', 'fetch', c), null);
  // …and the connection, which resolves again, finds the metadata address and is refused before any socket.
  await assert.rejects(c.request('https://rebind.example/hook', { timeoutMs: 5000, maxBytes: 1024 }), RefusedByPolicy);
  assert.deepEqual(attempts, []);

  let flips = 0;
  const other = client(async () => (flips++ % 2 === 0 ? answers(PUBLIC_V4) : answers('10.0.0.1')));
  assert.equal((await other.c.request('https://flip.example/a', { timeoutMs: 10_000, maxBytes: 1024 })).status, 200);
  await other.c.close(); // a fresh connection for the next request
  const again = new OutgoingClient(new AllowList([]), { resolve: async () => answers('10.0.0.1'), connect: fakeNetwork().connect });
  await assert.rejects(again.request('https://flip.example/b', { timeoutMs: 5000, maxBytes: 1024 }), RefusedByPolicy);
  assert.deepEqual(
    other.attempts.map((a) => a.address),
    [PUBLIC_V4],
  );
  await c.close();
  await again.close();
});

test("node's own client (the Activity proxy) gets the same checks through lookup", async () => {
  const { c } = client(async (host) => answers(host === 'ok.example' ? PUBLIC_V4 : '192.168.0.1'));
  const lookup = c.lookupFor('https:');
  const one = (host: string) =>
    new Promise<{ err: unknown; address?: string }>((resolve) =>
      (lookup as any)(host, { all: true }, (err: unknown, list: Resolved[]) => resolve({ err, address: list?.[0]?.address })),
    );
  assert.equal((await one('ok.example')).address, PUBLIC_V4);
  assert.ok((await one('evil.example')).err instanceof RefusedByPolicy);
  assert.ok(c.literalRefusal('10.0.0.1', 'https:'));
  assert.equal(c.literalRefusal(PUBLIC_V4, 'https:'), null);
  assert.ok(c.literalRefusal(PUBLIC_V4, 'http:'), 'plain http only to allowed addresses');
  await c.close();
});

test('an answer over the cap fails with "size", declared or streamed', async () => {
  const { c } = client(async () => answers(PUBLIC_V4));
  await assert.rejects(
    c.request('https://big.example/big', { timeoutMs: 10_000, maxBytes: 64 * 1024 }),
    (e: unknown) => e instanceof OutgoingError && e.kind === 'size',
  );
  await assert.rejects(
    c.request('https://big.example/big-chunked', { timeoutMs: 10_000, maxBytes: 64 * 1024 }),
    (e: unknown) => e instanceof OutgoingError && e.kind === 'size',
  );
  assert.equal((await c.request('https://big.example/big', { timeoutMs: 10_000, maxBytes: 2 * 1024 * 1024 })).body.length, 1024 * 1024);
  await c.close();
});

test('a slow head or a stalled body ends at the deadline with "timeout"', async () => {
  const { c } = client(async () => answers(PUBLIC_V4));
  await assert.rejects(
    c.request('https://slow.example/slow-head', { timeoutMs: 300, maxBytes: 1024 }),
    (e: unknown) => e instanceof OutgoingError && e.kind === 'timeout' && /no answer within 300 ms/.test((e as Error).message),
  );
  await assert.rejects(
    c.request('https://slow.example/slow-body', { timeoutMs: 300, maxBytes: 1024 }),
    (e: unknown) => e instanceof OutgoingError && e.kind === 'timeout',
  );
  await c.close();
});

test('redirects are answered as they are, never followed', async () => {
  const { c, attempts } = client(async () => answers(PUBLIC_V4));
  const res = await c.request('https://redir.example/redirect', { timeoutMs: 10_000, maxBytes: 1024 });
  assert.equal(res.status, 302);
  assert.match(res.headers.location, /169\.254\.169\.254/);
  assert.deepEqual(
    attempts.map((a) => a.address),
    [PUBLIC_V4],
    'one connection: the redirect target was never tried',
  );
  await c.close();
});

test("failures read in fixed words, never the network's own error", async () => {
  const refused = new OutgoingClient(new AllowList([]), {
    resolve: async () => answers(PUBLIC_V4),
    connect: (_opts, cb) => cb(Object.assign(new Error('connect ECONNREFUSED 93.184.216.34:443'), { code: 'ECONNREFUSED' }), null),
  });
  await assert.rejects(
    refused.request('https://down.example/', { timeoutMs: 5000, maxBytes: 1024 }),
    (e: unknown) => e instanceof OutgoingError && (e as Error).message === 'connection refused',
  );
  const nx = new OutgoingClient(new AllowList([]), {
    resolve: async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND x'), { code: 'ENOTFOUND' });
    },
    connect: fakeNetwork().connect,
  });
  await assert.rejects(
    nx.request('https://nx.example/', { timeoutMs: 5000, maxBytes: 1024 }),
    (e: unknown) => e instanceof OutgoingError && (e as Error).message === 'host not found',
  );
  await refused.close();
  await nx.close();
});

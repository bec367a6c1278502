import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { startTestServer, type TestServer } from './helpers/server.js';
import { RawGateway } from './helpers/gateway-client.js';
import { until } from './helpers/wait.js';
import { loadConfig } from '../src/config.js';
import { hasPart } from '../src/core/roles.js';
import { mainCommand } from './helpers/main-command.js';

/**
 * Node roles (`--role`) and the health endpoints. The split deployment runs on the real engines (DATABASE_URL and
 * REDIS_URL, the CI's Redis run); the single process and the refusals run everywhere.
 */
const REDIS_URL = process.env.REDIS_URL;
const distributed = !!REDIS_URL && !!process.env.DATABASE_URL;
const GUILDS = 1;
const GUILD_MESSAGES = 1 << 9;
const MESSAGE_CONTENT = 1 << 15;

const getJson = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as any, type: res.headers.get('content-type') };
};

test('roles: each runs its parts; every role but all needs distributed mode', () => {
  assert.deepEqual(
    ['http', 'gateway', 'voice', 'background'].filter((p) => hasPart('all', p as any)),
    ['http', 'gateway', 'voice', 'background'],
  );
  assert.equal(hasPart('api', 'http'), true);
  assert.equal(hasPart('api', 'gateway'), false);
  assert.equal(hasPart('gateway', 'background'), false);
  assert.equal(hasPart('worker', 'background'), true);
  assert.equal(hasPart('worker', 'http'), false);
  assert.equal(loadConfig([], {}).role, 'all');
  const pg = { DATABASE_URL: 'postgres://x/y', REDIS_URL: 'redis://x' };
  assert.equal(loadConfig(['--role', 'gateway'], pg).role, 'gateway');
  assert.equal(loadConfig([], { ...pg, ACCORD_ROLE: 'Worker' }).role, 'worker');
  assert.throws(() => loadConfig(['--role', 'edge'], pg), /--role: edge is not one of all, api, gateway, voice, worker/);
  assert.throws(() => loadConfig(['--role', 'api'], { DATABASE_URL: 'postgres://x/y' }), /--role api needs --database-url \(PostgreSQL\) and --redis-url/);
});

test('a role other than all on SQLite is refused at start, with the reason', { timeout: 60_000 }, async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'accord-roles-'));
  const env: NodeJS.ProcessEnv = { ...process.env, ACCORD_DATA: dataDir, ACCORD_PORT: '0', ACCORD_ROLE: 'gateway' };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const child = spawn(process.execPath, [...mainCommand(), 'start'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (b) => (out += b));
  child.stderr!.on('data', (b) => (out += b));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
  assert.equal(code, 1);
  assert.match(out, /accord: --role gateway needs --database-url \(PostgreSQL\) and --redis-url/);
  assert.doesNotMatch(out, /listening on/);
});

test('the default single process answers /healthz and /readyz', async () => {
  const t = await startTestServer();
  try {
    const health = await getJson(`${t.server.url}/healthz`);
    assert.equal(health.status, 200);
    assert.deepEqual(health.body, { status: 'ok', role: 'all' });
    assert.equal(health.type, 'application/json');
    const ready = await getJson(`${t.server.url}/readyz`);
    assert.equal(ready.status, 200);
    const checks = t.server.ctx.config.redisUrl ? { store: 'ok', redis: 'ok' } : { store: 'ok' };
    assert.deepEqual(ready.body, { status: 'ready', role: 'all', checks });
  } finally {
    await t.close();
  }
});

/** A TCP relay to Redis that can be cut and restored on the same port: a real outage seen by the node. */
async function redisRelay(target: URL) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  const up = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((c) => {
        const r = net.connect(Number(target.port || 6379), target.hostname);
        for (const s of [c, r]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => {});
        }
        c.pipe(r).pipe(c);
        c.on('close', () => r.destroy());
        r.on('close', () => c.destroy());
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as net.AddressInfo).port;
        resolve();
      });
    });
  const down = () =>
    new Promise<void>((resolve) => {
      server!.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
  await up();
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return { url: url.toString(), up, down };
}

describe('a split deployment: api, gateway, voice and worker nodes', { skip: !distributed && 'needs REDIS_URL and DATABASE_URL' }, () => {
  let api: TestServer;
  let voice: TestServer;
  let gateway: TestServer;
  let worker: TestServer;
  const open: RawGateway[] = [];
  before(async () => {
    api = await startTestServer({ role: 'api' });
    voice = await startTestServer({ role: 'voice', join: api });
    gateway = await startTestServer({ role: 'gateway', join: api });
    worker = await startTestServer({ role: 'worker', join: api });
  });
  after(async () => {
    for (const g of open) g.ws.terminate();
    for (const t of [worker, gateway, voice]) await t?.close();
    await api?.close();
  });

  test('the api node refuses Gateway upgrades with a clear 421', async () => {
    const ws = new WebSocket(`${api.server.url.replace(/^http/, 'ws')}/?v=10&encoding=json`);
    const [status, body] = await new Promise<[number, string]>((resolve, reject) => {
      ws.once('unexpected-response', (_req, res) => {
        let text = '';
        res.on('data', (b) => (text += b));
        res.on('end', () => resolve([res.statusCode ?? 0, text]));
      });
      ws.once('open', () => reject(new Error('the api node accepted a Gateway connection')));
      ws.once('error', () => {});
    });
    assert.equal(status, 421);
    assert.match(JSON.parse(body).message, /role api\) does not serve the Gateway/);
    assert.throws(() => api.server.gateway, /role api\) runs no Gateway/);
  });

  test('the gateway node accepts Identify and receives a message posted through the api node; it serves no API', async () => {
    const { world } = api;
    const bot = await RawGateway.connect(gateway.server.url);
    open.push(bot);
    const ready = await bot.identify(world.botToken, { intents: GUILDS | GUILD_MESSAGES | MESSAGE_CONTENT });
    assert.equal(ready.user.id, world.botUserId);
    const posted = await api.api(`/channels/${world.textChannelId}/messages`, {
      method: 'POST',
      token: world.users[0].token,
      body: { content: 'through the api node' },
    });
    assert.equal(posted.status, 200);
    const got = await bot.dispatch('MESSAGE_CREATE', (d) => d.id === posted.body.id, 15_000);
    assert.equal(got.content, 'through the api node');
    const refused = await gateway.api('/users/@me', { token: world.botToken, bot: true });
    assert.equal(refused.status, 404);
    assert.equal(refused.body.code, 0);
  });

  test("op 4 on the gateway node answers with the voice node's endpoint (announced in Redis)", async () => {
    const { world } = api;
    const alice = await RawGateway.connect(gateway.server.url);
    open.push(alice);
    await alice.identify(world.users[0].token);
    alice.send(4, { guild_id: world.guildId, channel_id: world.voiceChannelId, self_mute: false, self_deaf: false });
    const update = await alice.dispatch('VOICE_SERVER_UPDATE', (d) => d.guild_id === world.guildId, 15_000);
    assert.equal(update.endpoint, `127.0.0.1:${voice.server.voice.port}`);
    // The voice node holds the grant the gateway node wrote (the voice-state store in Redis).
    assert.equal((await voice.server.voice.states.grant(update.token))?.userId, world.users[0].id);
    alice.send(4, { guild_id: world.guildId, channel_id: null, self_mute: false, self_deaf: false });
  });

  test("a poll posted through the api node is ended by the worker node's clock", async () => {
    const { world } = api;
    const made = await api.api(`/channels/${world.textChannelId}/messages`, {
      method: 'POST',
      token: world.users[0].token,
      body: { poll: { question: { text: 'Split?' }, answers: [{ poll_media: { text: 'A' } }, { poll_media: { text: 'B' } }], duration: 1 } },
    });
    assert.equal(made.status, 200);
    assert.equal(made.body.poll.results.is_finalized, false);
    // Only the worker's clock passes the expiry: the api node runs no poll clock, and the worker learns of the poll
    // from the api node's announcement (it was posted after the worker started).
    worker.server.ctx.clock.advance(2 * 3600_000);
    try {
      const ended = await until(
        async () => {
          const m = await api.api(`/channels/${world.textChannelId}/messages/${made.body.id}`, { token: world.users[0].token });
          return m.body.poll?.results?.is_finalized ? m.body : null;
        },
        30_000,
        'the poll to be finalized',
        200,
      );
      assert.equal(ended.poll.results.is_finalized, true);
    } finally {
      worker.server.ctx.clock.advance(-2 * 3600_000);
    }
  });

  test('every role answers /healthz and /readyz with its role', async () => {
    for (const [t, role] of [
      [api, 'api'],
      [gateway, 'gateway'],
      [voice, 'voice'],
      [worker, 'worker'],
    ] as const) {
      const health = await getJson(`${t.server.url}/healthz`);
      assert.deepEqual([health.status, health.body], [200, { status: 'ok', role }]);
      const ready = await getJson(`${t.server.url}/readyz`);
      assert.deepEqual([ready.status, ready.body], [200, { status: 'ready', role, checks: { store: 'ok', redis: 'ok' } }], role);
    }
    assert.equal((await fetch(`${worker.server.url}/api/v10/gateway`)).status, 404, 'a worker node has only the probes');
  });

  test('/readyz says 503, naming Redis, while Redis cannot be reached, and 200 again once it can', { timeout: 90_000 }, async () => {
    const relay = await redisRelay(new URL(REDIS_URL!));
    const node = await startTestServer({ role: 'worker', join: api, redisUrl: relay.url });
    try {
      assert.equal((await getJson(`${node.server.url}/readyz`)).status, 200);
      await relay.down();
      const down = await until(
        async () => {
          const r = await getJson(`${node.server.url}/readyz`);
          return r.status === 503 ? r : null;
        },
        30_000,
        '/readyz to say 503',
        200,
      );
      assert.equal(down.body.status, 'unavailable');
      assert.equal(down.body.role, 'worker');
      assert.equal(down.body.checks.store, 'ok');
      assert.ok(['failed', 'timeout', 'down'].includes(down.body.checks.redis), JSON.stringify(down.body));
      assert.doesNotMatch(JSON.stringify(down.body), /redis:\/\/|127\.0\.0\.1|ECONN/, 'no addresses or error texts');
      assert.equal((await getJson(`${node.server.url}/healthz`)).status, 200, 'the process is alive all the same');
      await relay.up();
      await until(async () => (await getJson(`${node.server.url}/readyz`)).status === 200, 30_000, '/readyz to recover', 200);
    } finally {
      await node.close();
      await relay.down();
    }
  });
});

import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RawGateway } from './helpers/gateway-client.js';
import { dropSchema } from '../src/store/postgres.js';
import { connectRedis, deleteKeys } from '../src/store/redis.js';
import { loadConfig } from '../src/config.js';
import { workerCount, workerOverrides } from '../src/workers.js';
import { mainCommand } from './helpers/main-command.js';

/** `accord start --workers N`: processes of one machine on one port, nodes of distributed mode. */
const REDIS_URL = process.env.REDIS_URL;
const DATABASE_URL = process.env.DATABASE_URL;

/** Starts `accord start` with these flags and environment; collects stdout and stderr. */
function accord(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [...mainCommand(), 'start', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const waiters: { pred: () => boolean; resolve: () => void }[] = [];
  const check = () => {
    for (const w of [...waiters]) {
      if (!w.pred()) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };
  child.stdout!.on('data', (b) => ((out += b), check()));
  child.stderr!.on('data', (b) => ((err += b), check()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const until = (pred: () => boolean, what: string, ms = 60_000) =>
    pred()
      ? Promise.resolve()
      : new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}; stderr: ${err.slice(-500)}`)), ms);
          waiters.push({ pred, resolve: () => (clearTimeout(timer), resolve()) });
        });
  return { child, exited, until, out: () => out, err: () => err };
}

const withoutEngines = (): NodeJS.ProcessEnv => {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  return env;
};

test('each worker has voice ports of its own; 0 workers means one per core', () => {
  const cfg = (...argv: string[]) => loadConfig(argv, {});
  assert.deepEqual(workerOverrides(cfg('--port', '8080'), 0), { voicePort: 8081, voiceUdpPort: 8081 });
  assert.deepEqual(workerOverrides(cfg('--port', '8080'), 1), { voicePort: 8082, voiceUdpPort: 8082 });
  assert.deepEqual(workerOverrides(cfg('--port', '8080', '--voice-workers', '2'), 1), { voicePort: 8082, voiceUdpPort: 8083 });
  assert.deepEqual(workerOverrides(cfg('--port', '8080', '--voice-port', '9000', '--voice-udp-port', '10000'), 2), { voicePort: 9002, voiceUdpPort: 10002 });
  assert.deepEqual(workerOverrides(cfg('--port', '0'), 1), { voicePort: 0, voiceUdpPort: 0 });
  assert.equal(workerCount(cfg('--workers', '0')), os.availableParallelism());
  assert.equal(workerCount(cfg()), 1);
  assert.throws(() => cfg('--workers', '-1'), /invalid --workers/);
});

test('more than one worker on SQLite is refused: it takes writes from one process', { timeout: 60_000 }, async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'accord-workers-'));
  try {
    const p = accord(['--workers', '2', '--port', '0', '--data', dataDir], withoutEngines());
    assert.equal(await p.exited, 1);
    assert.match(p.err(), /--workers 2 needs --database-url \(PostgreSQL\) and --redis-url/);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

/**
 * `accord start --workers 2` on its own schema and Redis prefix for the enclosing describe block, with the dev world;
 * the Gateway clients pushed to `open`, the process, the schema, the keys and the data folder go after its tests.
 */
function twoWorkers(prefix: string) {
  const id = `${prefix}_${Date.now()}_${crypto.randomBytes(3).toString('hex')}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'accord-workers-'));
  const open: RawGateway[] = [];
  let p: ReturnType<typeof accord> | null = null;
  after(async () => {
    for (const g of open) g.ws.terminate();
    if (p && p.child.exitCode === null) {
      p.child.kill('SIGKILL');
      await p.exited;
    }
    await dropSchema(DATABASE_URL!, id);
    const r = await connectRedis(REDIS_URL!, 'accord-test-cleanup');
    await deleteKeys(r, `${id}:`).finally(() => r.quit());
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const start = () =>
    (p = accord(['--workers', '2', '--port', '0', '--data', dataDir, '--database-schema', id, '--redis-prefix', `${id}:`, '--seed'], {
      ...process.env,
      ACCORD_RATE_LIMITS: 'off',
    }));
  return { id, open, start };
}

describe('two workers on one port', { skip: !(REDIS_URL && DATABASE_URL) && 'needs REDIS_URL and DATABASE_URL' }, () => {
  const { id, open, start } = twoWorkers('w');

  test(
    'sessions on both workers get a message posted through either, once; a killed worker is started again; SIGTERM stops them all',
    { timeout: 120_000 },
    async () => {
      const p = start();
      const listening = () => [...p!.out().matchAll(/listening on (\S+) \(worker (\d), pid (\d+)/g)];
      await p.until(() => listening().length === 2 && /user \S+\s+\d+\s+token \S+/.test(p!.out()), 'two workers and the dev world');
      const urls = new Set(listening().map((m) => m[1]));
      assert.equal(urls.size, 1, 'one port for both workers');
      assert.deepEqual(
        listening()
          .map((m) => m[2])
          .sort(),
        ['0', '1'],
      );
      const url = [...urls][0];
      const users = [...p.out().matchAll(/user (\S+)\s+(\d+)\s+token (\S+)/g)].map((m) => ({ id: m[2], token: m[3] }));
      const channelId = /#general (\d+)/.exec(p.out())![1];
      const [alice, bob] = users;

      // Sessions of alice until both workers hold one: then both listen on her user channel.
      const redis = await connectRedis(REDIS_URL!, 'accord-test-numsub');
      try {
        const subscribers = async () => Number(((await redis.pubsub('NUMSUB', `${id}:bus:user:${alice.id}`)) as [string, number])[1]);
        for (let i = 0; i < 16 && (await subscribers()) < 2; i++) {
          const gw = await RawGateway.connect(url);
          open.push(gw);
          await gw.identify(alice.token);
        }
        assert.equal(await subscribers(), 2, 'sessions on both workers');
      } finally {
        await redis.quit();
      }

      const post = async (content: string) => {
        const r = await fetch(`${url}/api/v10/channels/${channelId}/messages`, {
          method: 'POST',
          headers: { authorization: bob.token, 'content-type': 'application/json' },
          body: JSON.stringify({ content }),
        });
        assert.equal(r.status, 200);
        return (await r.json()) as { id: string };
      };
      const first = await post('to every worker');
      const second = await post('barrier');
      for (const gw of open) {
        await gw.dispatch('MESSAGE_CREATE', (d) => d.id === first.id, 15_000);
        await gw.dispatch('MESSAGE_CREATE', (d) => d.id === second.id, 15_000);
        assert.equal(gw.frames.filter((f) => f.t === 'MESSAGE_CREATE' && f.d.id === first.id).length, 1);
      }

      // A worker that dies is started again, on the same port.
      const pidOf1 = Number(/worker 1, pid (\d+)/.exec(p.out())![1]);
      process.kill(pidOf1, 'SIGKILL');
      await p.until(() => /worker 1 exited \(SIGKILL\); starting it again/.test(p!.err()), 'the primary noticing');
      await p.until(() => listening().filter((m) => m[2] === '1').length === 2, 'worker 1 listening again');
      assert.deepEqual(new Set(listening().map((m) => m[1])), urls);
      const again = await fetch(`${url}/api/v10/gateway`);
      assert.equal(again.status, 200);

      p.child.kill('SIGTERM');
      assert.equal(await p.exited, 0);
    },
  );
});

describe('a rule of the deployment on two workers', { skip: !(REDIS_URL && DATABASE_URL) && 'needs REDIS_URL and DATABASE_URL' }, () => {
  const { id, open, start } = twoWorkers('wr');

  test('Request Guild Members for all members: a bot session on the other worker is RATE_LIMITED within 30 s', { timeout: 240_000 }, async () => {
    const p = start();
    const listening = () => [...p!.out().matchAll(/listening on (\S+) \(worker (\d), pid (\d+)/g)];
    await p.until(() => listening().length === 2 && /bot token\s+\S+/.test(p!.out()) && /guild\s+\d+/.test(p!.out()), 'two workers and the dev world', 150_000);
    const url = listening()[0][1];
    const botToken = /bot token\s+(\S+)/.exec(p.out())![1];
    const botId = Buffer.from(botToken.split('.')[0], 'base64').toString();
    const guildId = /guild\s+(\d+)/.exec(p.out())![1];
    const GUILDS = 1;
    const GUILD_MEMBERS = 1 << 1;

    // Bot sessions until the second worker holds one: the session that makes both workers listen on the bot's user
    // channel is on the other worker than the first.
    const redis = await connectRedis(REDIS_URL!, 'accord-test-numsub');
    let first: RawGateway | null = null;
    let other: RawGateway | null = null;
    try {
      const subscribers = async () => Number(((await redis.pubsub('NUMSUB', `${id}:bus:user:${botId}`)) as [string, number])[1]);
      for (let i = 0; i < 16 && !other; i++) {
        const gw = await RawGateway.connect(url);
        open.push(gw);
        await gw.identify(botToken, { intents: GUILDS | GUILD_MEMBERS });
        await gw.dispatch('GUILD_CREATE', (d) => d.id === guildId, 15_000);
        if (!first) first = gw;
        else if ((await subscribers()) === 2) other = gw;
      }
    } finally {
      await redis.quit();
    }
    assert.ok(first && other, 'bot sessions on both workers');

    first.send(8, { guild_id: guildId, query: '', limit: 0, nonce: 'one' });
    const chunk = await first.dispatch('GUILD_MEMBERS_CHUNK', (d) => d.nonce === 'one', 15_000);
    assert.ok(chunk.members.length > 0);
    other.send(8, { guild_id: guildId, query: '', limit: 0, nonce: 'two' });
    const limited = await other.dispatch('RATE_LIMITED', (d) => d.meta?.nonce === 'two', 15_000);
    assert.equal(limited.opcode, 8);
    assert.ok(limited.retry_after > 0 && limited.retry_after <= 30);
    assert.ok(!other.frames.some((f) => f.t === 'GUILD_MEMBERS_CHUNK' && f.d.nonce === 'two'));

    p.child.kill('SIGTERM');
    assert.equal(await p.exited, 0);
  });
});

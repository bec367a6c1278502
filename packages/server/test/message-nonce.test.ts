import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from './helpers/server.js';
import { twoNodes } from './helpers/two-nodes.js';
import { dropSchema } from '../src/store/postgres.js';
import { connectRedis, deleteKeys } from '../src/store/redis.js';
import { mainCommand } from './helpers/main-command.js';

/**
 * `enforce_nonce` exactly once: concurrent creates with one enforced nonce make one message, every time, on one server
 * (any engine) and on two processes sharing PostgreSQL and Redis (`accord start --workers 2`), where no in-memory lock
 * can help: the database's uniqueness of (author, nonce) decides.
 */
const ROUNDS = 10;
const AT_ONCE = 16;
const REDIS_URL = process.env.REDIS_URL;
const DATABASE_URL = process.env.DATABASE_URL;

type Post = (body: Record<string, unknown>) => Promise<{ status: number; body: any }>;

/** ROUNDS rounds of AT_ONCE concurrent creates sharing a fresh enforced nonce: each answers the same one message. */
async function rounds(post: Post, count: (nonce: string) => Promise<number>): Promise<void> {
  for (let round = 0; round < ROUNDS; round++) {
    const nonce = `n${crypto.randomBytes(6).toString('hex')}`;
    const answers = await Promise.all(Array.from({ length: AT_ONCE }, (_, i) => post({ content: `round ${round} try ${i}`, nonce, enforce_nonce: true })));
    for (const a of answers) assert.equal(a.status, 200, JSON.stringify(a.body));
    const ids = new Set(answers.map((a) => a.body.id));
    assert.equal(ids.size, 1, `round ${round}: every create answers the same message (got ${ids.size})`);
    assert.equal(await count(nonce), 1, `round ${round}: one message stored`);
    // Later retries still get it; without enforce_nonce the nonce is only echoed.
    assert.equal((await post({ content: 'retry', nonce, enforce_nonce: true })).body.id, [...ids][0]);
    const plain = await post({ content: 'not enforced', nonce });
    assert.notEqual(plain.body.id, [...ids][0]);
  }
}

describe('enforce_nonce on one server', () => {
  let t: TestServer;
  after(async () => t?.close());

  test(`${AT_ONCE} concurrent creates with one enforced nonce make one message, ${ROUNDS} rounds out of ${ROUNDS}`, { timeout: 120_000 }, async () => {
    t = await startTestServer();
    const post: Post = (body) => t.api(`/channels/${t.world.textChannelId}/messages`, { method: 'POST', token: t.world.botToken, bot: true, body });
    const count = async (nonce: string) =>
      Number(
        (
          await t.server.ctx.repos.store.db
            .selectFrom('messages')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('nonce', '=', nonce)
            .executeTakeFirstOrThrow()
        ).n,
      );
    // `count` runs before the unenforced create of the same nonce: only the enforced message holds it then.
    await rounds(post, count);
  });

  test('a claim past the 5-minute window, or whose message was deleted, is taken by the next create', { timeout: 60_000 }, async () => {
    const channel = t.world.textChannelId;
    const post: Post = (body) => t.api(`/channels/${channel}/messages`, { method: 'POST', token: t.world.botToken, bot: true, body });
    const nonce = `n${crypto.randomBytes(6).toString('hex')}`;
    const first = await post({ content: 'first', nonce, enforce_nonce: true });
    const deleted = await t.api(`/channels/${channel}/messages/${first.body.id}`, { method: 'DELETE', token: t.world.botToken, bot: true });
    assert.equal(deleted.status, 204);
    const second = await post({ content: 'second', nonce, enforce_nonce: true });
    assert.notEqual(second.body.id, first.body.id, 'the deleted message no longer holds the nonce');
    assert.equal((await post({ content: 'third', nonce, enforce_nonce: true })).body.id, second.body.id);
    t.server.ctx.clock.advance(5 * 60_000 + 1000);
    const fourth = await post({ content: 'fourth', nonce, enforce_nonce: true });
    assert.notEqual(fourth.body.id, second.body.id, 'past the window the nonce is free again');
  });
});

describe(
  'enforce_nonce on two processes',
  { skip: !(REDIS_URL && DATABASE_URL) && 'needs REDIS_URL and DATABASE_URL (two workers share PostgreSQL and Redis)' },
  () => {
    const id = `nonce_${Date.now()}_${crypto.randomBytes(3).toString('hex')}`;
    let dataDir = '';
    let child: ReturnType<typeof spawn> | null = null;
    let exited: Promise<void> = Promise.resolve();
    after(async () => {
      if (child && child.exitCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      await dropSchema(DATABASE_URL!, id);
      const r = await connectRedis(REDIS_URL!, 'accord-test-cleanup');
      await deleteKeys(r, `${id}:`).finally(() => r.quit());
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    });

    test(
      `--workers 2: ${AT_ONCE} concurrent creates with one enforced nonce make one message, ${ROUNDS} rounds out of ${ROUNDS}`,
      { timeout: 180_000 },
      async () => {
        dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'accord-nonce-'));
        const proc = spawn(
          process.execPath,
          [...mainCommand(), 'start', '--workers', '2', '--port', '0', '--data', dataDir, '--database-schema', id, '--redis-prefix', `${id}:`, '--seed'],
          { env: { ...process.env, ACCORD_RATE_LIMITS: 'off' }, stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let out = '';
        let err = '';
        child = proc;
        proc.stdout!.on('data', (b) => (out += b));
        proc.stderr!.on('data', (b) => (err += b));
        exited = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
        const listening = () => [...out.matchAll(/listening on (\S+) \(worker (\d), pid (\d+)/g)];
        const deadline = Date.now() + 120_000;
        while (!(listening().length === 2 && /#general (\d+)/.test(out) && /bot token\s+(\S+)/.test(out))) {
          if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`the workers did not start: ${err.slice(-800)}`);
          await new Promise((r) => setTimeout(r, 100));
        }
        const url = listening()[0][1];
        const channelId = /#general (\d+)/.exec(out)![1];
        const bot = /bot token\s+(\S+)/.exec(out)![1];
        const post: Post = async (body) => {
          // A connection per request: the primary hands connections to the workers in turn, so both take creates.
          const r = await fetch(`${url}/api/v10/channels/${channelId}/messages`, {
            method: 'POST',
            headers: { authorization: `Bot ${bot}`, 'content-type': 'application/json', connection: 'close' },
            body: JSON.stringify(body),
          });
          return { status: r.status, body: await r.json() };
        };
        const pg = await import('pg');
        const client = new pg.default.Client({ connectionString: DATABASE_URL, options: `-c search_path=${id}` });
        await client.connect();
        try {
          await rounds(post, async (nonce) => Number((await client.query('select count(*) as n from messages where nonce = $1', [nonce])).rows[0].n));
        } finally {
          await client.end();
        }
      },
    );
  },
);

describe(
  'enforce_nonce on two nodes',
  { skip: !(REDIS_URL && DATABASE_URL) && 'needs REDIS_URL and DATABASE_URL (two nodes share PostgreSQL and Redis)' },
  () => {
    const nodes = twoNodes();

    test(
      `${AT_ONCE} concurrent creates with one enforced nonce, half to each node, make one message, ${ROUNDS} rounds out of ${ROUNDS}`,
      { timeout: 120_000 },
      async () => {
        const { a, b } = nodes;
        let turn = 0;
        const post: Post = (body) => {
          const node = turn++ % 2 ? b : a;
          return node.api(`/channels/${a.world.textChannelId}/messages`, { method: 'POST', token: a.world.botToken, bot: true, body });
        };
        const count = async (nonce: string) =>
          Number(
            (
              await a.server.ctx.repos.store.db
                .selectFrom('messages')
                .select((eb) => eb.fn.countAll<number>().as('n'))
                .where('nonce', '=', nonce)
                .executeTakeFirstOrThrow()
            ).n,
          );
        await rounds(post, count);
      },
    );
  },
);

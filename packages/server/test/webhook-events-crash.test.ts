/**
 * The outbox survives a crash: the platform runs as a child process, 100 webhook events pile up while the app's
 * endpoint is down, the child is killed with SIGKILL, and after a restart on the same data (SQLite file, or PostgreSQL
 * schema when DATABASE_URL is set) with the endpoint back up, all 100 arrive. Duplicates are allowed (at least once)
 * and reported.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { WebhookReceiver } from './helpers/webhook-receiver.js';
import { until, sleep } from './helpers/wait.js';
import { mainCommand } from './helpers/main-command.js';

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const EVENTS = 100;

interface Child {
  proc: ChildProcess;
  url: string;
  out: string[];
}

/** Starts `src/main.ts start` as a child and resolves once it listens (with --seed, the printed world too). */
async function startChild(dataDir: string, env: NodeJS.ProcessEnv, seed: boolean): Promise<Child> {
  const args = [...mainCommand(), 'start', '--port', '0', '--data', dataDir, '--dev', ...(seed ? ['--seed'] : [])];
  const proc = spawn(process.execPath, args, { cwd: SERVER_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const out: string[] = [];
  proc.stdout!.on('data', (b: Buffer) => out.push(b.toString()));
  proc.stderr!.on('data', (b: Buffer) => out.push(b.toString()));
  const url = await until(() => /accord: listening on (http:\/\/\S+)/.exec(out.join(''))?.[1], 60_000, `the child to listen\n${out.join('')}`);
  // With --dev the server prints the token its dev routes need (a new one each start).
  devTokens.set(url, await until(() => /accord: dev token (\S+)/.exec(out.join(''))?.[1], 60_000, 'the dev token'));
  return { proc, url, out };
}

function worldOf(out: string): { applicationId: string; botToken: string; users: { id: string; token: string }[]; guildId: string } {
  const applicationId = /application\s+(\d+)/.exec(out)![1];
  const botToken = /bot token\s+(\S+)/.exec(out)![1];
  const guildId = /guild\s+(\d+)/.exec(out)![1];
  const users = [...out.matchAll(/user \S+\s+(\d+)\s+token (\S+)/g)].map((m) => ({ id: m[1], token: m[2] }));
  return { applicationId, botToken, users, guildId };
}

/** The dev token of each child, by its URL. */
const devTokens = new Map<string, string>();

async function api(base: string, p: string, opts: { method?: string; token?: string; bot?: boolean; body?: unknown } = {}) {
  const headers: Record<string, string> = p.startsWith('/__dev') ? { 'x-accord-dev-token': devTokens.get(base) ?? '' } : {};
  if (opts.token) headers.authorization = opts.bot ? `Bot ${opts.token}` : opts.token;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${p.startsWith('/__dev') ? '' : '/api/v10'}${p}`, {
    method: opts.method ?? 'GET',
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, text };
}

/** Stops the child (SIGTERM, then SIGKILL), the endpoint, and removes the data (directory or PostgreSQL schema). */
async function cleanUp(
  child: Child | null,
  receiver: WebhookReceiver,
  dataDir: string,
  databaseUrl: string | undefined,
  schema: string | undefined,
): Promise<void> {
  if (child) {
    child.proc.kill('SIGTERM');
    await Promise.race([killed(child), sleep(5000)]);
    if (child.proc.exitCode === null && child.proc.signalCode === null) child.proc.kill('SIGKILL');
  }
  await receiver.close().catch(() => {});
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (databaseUrl && schema) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }
}

function killed(c: Child): Promise<void> {
  return new Promise((resolve) => {
    if (c.proc.exitCode !== null || c.proc.signalCode !== null) return resolve();
    c.proc.once('exit', () => resolve());
  });
}

test('100 events pending in the outbox survive a SIGKILL and are all delivered after the restart', { timeout: 240_000 }, async (t) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'accord-crash-'));
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const schema = databaseUrl ? `crash_${Date.now()}_${crypto.randomBytes(3).toString('hex')}` : undefined;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ACCORD_WEBHOOK_BACKOFF_MS: '200',
    ACCORD_WEBHOOK_BACKOFF_MAX_MS: '1000',
    ACCORD_RATE_LIMITS: 'false',
    ...(schema ? { ACCORD_DATABASE_SCHEMA: schema } : {}),
  };
  let receiver = await WebhookReceiver.start();
  const port = Number(new URL(receiver.url).port);
  let child: Child | null = null;
  try {
    // ---- first run: seed, configure the endpoint (the PING needs it up), then take the endpoint down ----
    child = await startChild(dataDir, env, true);
    const world = worldOf(child.out.join(''));
    const owner = world.users[0];
    const app = await api(child.url, `/applications/${world.applicationId}`, { token: owner.token });
    receiver.publicKey = app.body.verify_key;
    const set = await api(child.url, `/applications/${world.applicationId}`, {
      method: 'PATCH',
      token: owner.token,
      body: { event_webhooks_url: receiver.url, event_webhooks_status: 2, event_webhooks_types: ['ENTITLEMENT_CREATE', 'QUEST_USER_ENROLLMENT'] },
    });
    assert.equal(set.status, 200, set.text);
    const publicKey = receiver.publicKey;
    await receiver.close(); // DOWN: connections refused from now on

    // ---- 100 events: 60 test entitlements (20 SKUs × 2 users + guild) and 40 quest enrollments ----
    const expected = new Set<string>();
    const owners = [
      { id: world.users[0].id, type: 2 },
      { id: world.users[1].id, type: 2 },
      { id: world.guildId, type: 1 },
    ];
    for (let i = 0; i < 20; i++) {
      const sku = await api(child.url, `/applications/${world.applicationId}/skus`, {
        method: 'POST',
        token: owner.token,
        body: { name: `Crash item ${i}`, type: 2, published: true },
      });
      assert.equal(sku.status, 201, sku.text);
      for (const o of owners) {
        const e = await api(child.url, `/applications/${world.applicationId}/entitlements`, {
          method: 'POST',
          token: world.botToken,
          bot: true,
          body: { sku_id: sku.body.id, owner_id: o.id, owner_type: o.type },
        });
        assert.equal(e.status, 200, e.text);
        expected.add(`ENTITLEMENT_CREATE:${e.body.id}`);
      }
    }
    for (let i = 0; i < EVENTS - 60; i++) {
      const questId = String(9_000_000_000_000_000n + BigInt(i));
      const q = await api(child.url, '/__dev/quests/enroll', {
        method: 'POST',
        body: { application_id: world.applicationId, user_id: world.users[1].id, quest_id: questId },
      });
      assert.equal(q.status, 200, q.text);
      assert.ok(q.body.event_id);
      expected.add(`QUEST_USER_ENROLLMENT:${questId}`);
    }
    assert.equal(expected.size, EVENTS);

    // ---- they are pending, and have been tried (and failed) at least once ----
    const outbox = await until(
      async () => {
        const r = await api(child!.url, `/__dev/event-webhooks/outbox?application_id=${world.applicationId}`);
        const tried = r.body.events.filter((e: any) => e.attempts >= 1).length;
        return r.body.events.length === EVENTS && tried === EVENTS && r.body;
      },
      30_000,
      'every event to be tried once',
    );
    assert.equal((outbox.counts.pending ?? 0) + (outbox.counts.delivering ?? 0), EVENTS, JSON.stringify(outbox.counts));
    assert.equal(outbox.counts.delivered ?? 0, 0);
    assert.ok(
      outbox.events.every((e: any) => /^connection refused$/.test(e.last_error ?? '')),
      outbox.events[0].last_error,
    );
    t.diagnostic(`before the kill: ${JSON.stringify(outbox.counts)}; attempts so far: ${outbox.events.reduce((n: number, e: any) => n + e.attempts, 0)}`);

    // ---- SIGKILL ----
    child.proc.kill('SIGKILL');
    await killed(child);
    assert.equal(child.proc.signalCode, 'SIGKILL');
    child = null;

    // ---- the endpoint comes back, the platform restarts on the same data ----
    receiver = await WebhookReceiver.start(port);
    receiver.publicKey = publicKey;
    child = await startChild(dataDir, env, false);
    const keyOf = (b: any) => `${b.event.type}:${b.event.type === 'ENTITLEMENT_CREATE' ? b.event.data.id : b.event.data.quest_id}`;
    await until(() => new Set(receiver.events().map((r) => keyOf(r.body))).size >= EVENTS, 60_000, 'all 100 events after the restart');
    // Barrier: once the outbox records all 100 as delivered, the worker sends none of them again.
    const after = await until(
      async () => {
        const r = await api(child!.url, `/__dev/event-webhooks/outbox?application_id=${world.applicationId}`);
        return r.body.counts.delivered === EVENTS && r.body;
      },
      10_000,
      'the outbox to show 100 delivered',
    );
    assert.deepEqual(after.counts, { delivered: EVENTS });

    const got = receiver.events().map((r) => keyOf(r.body));
    const distinct = new Set(got);
    assert.deepEqual(
      [...expected].filter((k) => !distinct.has(k)),
      [],
      'no event lost',
    );
    assert.equal(distinct.size, EVENTS);
    assert.ok(
      got.every((k) => expected.has(k)),
      'nothing unexpected arrived',
    );
    assert.ok(
      receiver.received.every((r) => r.verified),
      'every delivery is signed with the app key',
    );
    for (const r of receiver.events()) {
      assert.equal(r.body.version, 1);
      assert.equal(r.body.application_id, world.applicationId);
    }
    const duplicates = got.length - distinct.size;
    t.diagnostic(`delivered after the restart: ${got.length} requests, ${distinct.size} distinct events, ${duplicates} duplicates`);
  } finally {
    await cleanUp(child, receiver, dataDir, databaseUrl, schema);
  }
});

test(
  'SIGKILL while a delivery hangs mid-request: after the restart the lease expires and the event is delivered exactly once',
  { timeout: 240_000 },
  async (t) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'accord-crash-'));
    const databaseUrl = process.env.DATABASE_URL || undefined;
    const schema = databaseUrl ? `crash_${Date.now()}_${crypto.randomBytes(3).toString('hex')}` : undefined;
    const env: NodeJS.ProcessEnv = { ...process.env, ACCORD_RATE_LIMITS: 'false', ...(schema ? { ACCORD_DATABASE_SCHEMA: schema } : {}) };
    const receiver = await WebhookReceiver.start();
    let child: Child | null = null;
    try {
      child = await startChild(dataDir, env, true);
      const world = worldOf(child.out.join(''));
      const owner = world.users[0];
      receiver.publicKey = (await api(child.url, `/applications/${world.applicationId}`, { token: owner.token })).body.verify_key;
      const set = await api(child.url, `/applications/${world.applicationId}`, {
        method: 'PATCH',
        token: owner.token,
        body: { event_webhooks_url: receiver.url, event_webhooks_status: 2, event_webhooks_types: ['QUEST_USER_ENROLLMENT'] },
      });
      assert.equal(set.status, 200, set.text);

      // The endpoint holds its answer to the first event: the delivery is in flight (leased) when the platform dies.
      let arrived!: () => void;
      const inFlight = new Promise<void>((r) => {
        arrived = r;
      });
      receiver.answer = (_body, nth) => {
        if (nth === 1) {
          arrived();
          return 'hang';
        }
        return 204;
      };
      const questId = '9100000000000000001';
      const enroll = await api(child.url, '/__dev/quests/enroll', {
        method: 'POST',
        body: { application_id: world.applicationId, user_id: world.users[1].id, quest_id: questId },
      });
      assert.equal(enroll.status, 200, enroll.text);
      await inFlight;
      child.proc.kill('SIGKILL'); // well inside the 3 s answer window: the attempt is never recorded
      await killed(child);
      assert.equal(child.proc.signalCode, 'SIGKILL');
      child = null;

      child = await startChild(dataDir, env, false);
      const outbox = async () => (await api(child!.url, `/__dev/event-webhooks/outbox?application_id=${world.applicationId}`)).body;
      const row = (await outbox()).events.find((e: any) => e.id === enroll.body.event_id);
      assert.equal(row.status, 'delivering', 'the crash left the event leased');
      // Nobody may take a leased event before its lease ends; the platform clock passing it frees the event.
      const moved = await fetch(`${child.url}/__dev/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-accord-dev-token': devTokens.get(child.url) ?? '' },
        body: JSON.stringify({ advance_ms: 11_000 }),
      });
      assert.equal(moved.status, 200);
      await until(
        async () => (await outbox()).events.find((e: any) => e.id === enroll.body.event_id)?.status === 'delivered',
        30_000,
        'the event delivered after the restart',
      );

      // Barrier: a later event delivered means the worker has passed the first one for good.
      const sentinel = await api(child.url, '/__dev/quests/enroll', {
        method: 'POST',
        body: { application_id: world.applicationId, user_id: world.users[1].id, quest_id: '9100000000000000002' },
      });
      await until(
        async () => (await outbox()).events.find((e: any) => e.id === sentinel.body.event_id)?.status === 'delivered',
        30_000,
        'the sentinel delivered',
      );
      const copies = receiver.events('QUEST_USER_ENROLLMENT').filter((r) => r.body.event.data.quest_id === questId);
      t.diagnostic(`arrivals of the event: ${copies.map((c) => c.status).join(', ')}`);
      assert.equal(copies.filter((c) => c.status === 204).length, 1, 'delivered (answered 2xx) exactly once');
      assert.equal(copies.length, 2, 'the hung attempt and the one after the restart');
      const final = (await outbox()).events.find((e: any) => e.id === enroll.body.event_id);
      assert.equal(final.status, 'delivered');
    } finally {
      await cleanUp(child, receiver, dataDir, databaseUrl, schema);
    }
  },
);

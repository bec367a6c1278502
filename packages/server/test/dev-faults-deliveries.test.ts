// engine-independent: the faults act in the deliverers, before any request leaves; the outbox is covered on each engine by webhook-events
/**
 * Dev faults on an application's outgoing deliveries: webhook events and the HTTP interactions endpoint fail as if
 * the app's endpoint answered an error, never answered, or was slow. Webhook events are then retried by the outbox
 * and arrive; a person's interaction fails as on the platform (INTERACTION_FAILURE). Another app's deliveries are
 * untouched. The two halves of each fault: an app that grants premium on ENTITLEMENT_CREATE alone does not grant it
 * while deliveries fail, one that also asks GET /entitlements does; an app that works before answering misses the
 * 3 s window under delay_ms, one that defers at once and edits its answer later gets through. A 500 or a timeout of
 * the interactions endpoint has no app-side fix (the platform never redelivers): the person's retry is what passes.
 */
import { describe, test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyKey } from 'discord-interactions';
import { startTestServer, type TestServer } from './helpers/server.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';
import { RawGateway } from './helpers/gateway-client.js';
import { installBot } from './helpers/fixtures.js';
import { addFault, clearFaults, faultsApi } from './helpers/faults.js';
import { sleep, until } from './helpers/wait.js';

const T = { timeout: 30_000 };
type Bot = { appId: string; userId: string; token: string };

describe('webhook_events faults', () => {
  let t: TestServer;
  let other: Bot;
  const receivers: Record<string, WebhookReceiver> = {};
  const owner = () => t.world.users[0];

  async function enable(appId: string): Promise<void> {
    const receiver = (receivers[appId] = await WebhookReceiver.start());
    receiver.publicKey = (await t.api(`/applications/${appId}`, { token: owner().token })).body.verify_key;
    const r = await t.api(`/applications/${appId}`, {
      method: 'PATCH',
      token: owner().token,
      body: { event_webhooks_url: receiver.url, event_webhooks_status: 2, event_webhooks_types: ['ENTITLEMENT_CREATE'] },
    });
    assert.equal(r.status, 200, r.text);
  }
  /** An ENTITLEMENT_CREATE event for the app: its bot grants users[1] a test entitlement of a new SKU. */
  async function entitlement(appId: string, botToken: string): Promise<{ id: string; sku_id: string }> {
    const sku = await t.api(`/applications/${appId}/skus`, {
      method: 'POST',
      token: owner().token,
      body: { name: `Item ${Math.random()}`, type: 2, published: true },
    });
    assert.equal(sku.status, 201, sku.text);
    const e = await t.api(`/applications/${appId}/entitlements`, {
      method: 'POST',
      token: botToken,
      bot: true,
      body: { sku_id: sku.body.id, owner_id: t.world.users[1].id, owner_type: 2 },
    });
    assert.equal(e.status, 200, e.text);
    return e.body;
  }
  const deliveries = async (appId: string) =>
    (await t.api(`/applications/${appId}/event-webhooks/deliveries?event_type=ENTITLEMENT_CREATE`, { token: owner().token })).body.reverse();

  before(async () => {
    t = await startTestServer({ overrides: { dev: true, webhookBackoffMs: 100, webhookBackoffMaxMs: 200 } });
    other = await installBot(t, 'bystander', 0n);
    await enable(t.world.applicationId);
    await enable(other.appId);
  });
  afterEach(() => clearFaults(t));
  after(async () => {
    await t?.close();
    for (const r of Object.values(receivers)) await r.close();
  });

  test('status 500 then a timeout: each attempt fails as the endpoint would have, the outbox retries, the event arrives', T, async () => {
    const app = t.world.applicationId;
    await addFault(t, { application_id: app, kind: 'webhook_events', status: 500, count: 1 });
    await addFault(t, { application_id: app, kind: 'webhook_events', timeout: true, count: 1 });
    const { id } = await entitlement(app, t.world.botToken);
    const { id: bystanderId } = await entitlement(other.appId, other.token);
    await until(() => receivers[other.appId].events('ENTITLEMENT_CREATE').some((r) => r.body.event.data.id === bystanderId), 10_000, "the other app's event");
    await until(async () => (await deliveries(app)).length >= 3, 20_000, 'three attempts');
    const log = await deliveries(app);
    assert.deepEqual(
      log.map((d: any) => [d.attempt, d.ok, d.status_code, d.error]),
      [
        [1, false, 500, 'HTTP 500'],
        [2, false, null, 'no answer within 3000 ms'],
        [3, true, 204, null],
      ],
    );
    const arrived = receivers[app].events('ENTITLEMENT_CREATE');
    assert.equal(arrived.length, 1, 'the failed attempts never reached the endpoint');
    assert.equal(arrived[0].body.event.data.id, id);
    assert.deepEqual(
      (await deliveries(other.appId)).map((d: any) => [d.attempt, d.ok]),
      [[1, true]],
      "the other app's first attempt succeeded",
    );
  });

  test('status 500 until deleted: a naive app granting premium on ENTITLEMENT_CREATE alone fails; a robust one also asking REST passes', T, async () => {
    const app = t.world.applicationId;
    const buyer = t.world.users[1].id;
    const rule = await addFault(t, { application_id: app, kind: 'webhook_events', status: 500 });
    const seen = (await deliveries(app)).length;
    const { sku_id: premium } = await entitlement(app, t.world.botToken);
    // The naive app trusts the event alone; the robust one also asks the API, which knows at once.
    const naiveGrants = () =>
      receivers[app].events('ENTITLEMENT_CREATE').some((r) => r.body.event.data.sku_id === premium && r.body.event.data.user_id === buyer);
    const robustGrants = async () =>
      naiveGrants() ||
      (await t.api(`/applications/${app}/entitlements?user_id=${buyer}`, { token: t.world.botToken, bot: true })).body.some((e: any) => e.sku_id === premium);

    await until(async () => (await deliveries(app)).length >= seen + 2, 10_000, 'two failed attempts');
    assert.ok(
      (await deliveries(app)).slice(seen).every((d: any) => !d.ok && d.status_code === 500),
      'every attempt so far failed',
    );
    assert.equal(naiveGrants(), false, 'the naive app has not granted premium');
    assert.equal(await robustGrants(), true, 'the robust app granted it from the API');

    // When the fault ends, the outbox's next retry delivers the event: the naive app grants premium, late.
    await faultsApi(t, 'DELETE', `/${rule.id}`);
    await until(naiveGrants, 10_000, 'the event after the fault ended');
    assert.equal((await deliveries(app)).at(-1).ok, true);
  });
});

describe('interactions_endpoint faults', () => {
  let t: TestServer;
  let other: Bot;
  let alice: RawGateway;
  const servers: http.Server[] = [];
  const hits: Record<string, number> = {};
  const commands: Record<string, string> = {};
  let nonce = 100;

  type Answer = (interaction: any) => Promise<Record<string, unknown>>;
  /** An app's interactions endpoint that checks signatures (discord-interactions) and answers every command. */
  async function endpoint(appId: string, token: string, answer?: Answer): Promise<void> {
    const key = (await t.api('/applications/@me', { token, bot: true })).body.verify_key;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const raw = Buffer.concat(chunks);
        if (!(await verifyKey(raw, String(req.headers['x-signature-ed25519']), String(req.headers['x-signature-timestamp']), key)))
          return void res.writeHead(401).end();
        const body = JSON.parse(raw.toString());
        res.setHeader('content-type', 'application/json');
        if (body.type === 1) return void res.end(JSON.stringify({ type: 1 }));
        hits[appId] = (hits[appId] ?? 0) + 1;
        res.end(JSON.stringify(answer ? await answer(body) : { type: 4, data: { content: `answered by ${appId}` } }));
      });
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const set = await t.api('/applications/@me', { method: 'PATCH', token, bot: true, body: { interactions_endpoint_url: url } });
    assert.equal(set.status, 200, set.text);
    const cmd = await t.api(`/applications/${appId}/commands`, { method: 'POST', token, bot: true, body: { name: 'ping', description: 'answers' } });
    assert.ok(cmd.status === 200 || cmd.status === 201, cmd.text);
    commands[appId] = cmd.body.id;
  }
  /** Alice runs the app's /ping as the official client does; returns the nonce. */
  async function run(appId: string): Promise<string> {
    const n = String(++nonce);
    const r = await t.api('/interactions', {
      method: 'POST',
      token: t.world.users[0].token,
      body: {
        type: 2,
        application_id: appId,
        guild_id: t.world.guildId,
        channel_id: t.world.textChannelId,
        session_id: 'faults',
        nonce: n,
        data: { id: commands[appId], name: 'ping', type: 1 },
      },
    });
    assert.equal(r.status, 204, r.text);
    return n;
  }

  before(async () => {
    t = await startTestServer({ overrides: { dev: true } });
    other = await installBot(t, 'bystander', 2048n);
    await endpoint(t.world.applicationId, t.world.botToken);
    await endpoint(other.appId, other.token);
    alice = await RawGateway.connect(t.server.url);
    await alice.identify(t.world.users[0].token);
  });
  afterEach(() => clearFaults(t));
  after(async () => {
    alice?.close();
    await t?.close();
    for (const s of servers) await new Promise<void>((r) => s.close(() => r()));
  });

  test('timeout once: the naive single try fails (no answer in 3 s, not redelivered); the robust path, the person retrying, passes', T, async () => {
    const app = t.world.applicationId;
    await addFault(t, { application_id: app, kind: 'interactions_endpoint', timeout: true, count: 1 });
    const before = hits[app] ?? 0;
    const failing = await run(app);
    const answered = await run(other.appId);
    await alice.dispatch('INTERACTION_SUCCESS', (d) => d.nonce === answered, 5000);
    await alice.dispatch('MESSAGE_CREATE', (d) => d.content === `answered by ${other.appId}`, 5000);
    const failure = await alice.dispatch('INTERACTION_FAILURE', (d) => d.nonce === failing, 8000);
    assert.equal(failure.reason_code, 2, 'failed for want of an answer');
    assert.equal(hits[app] ?? 0, before, 'the endpoint was never reached');

    const ok = await run(app);
    await alice.dispatch('INTERACTION_SUCCESS', (d) => d.nonce === ok, 5000);
  });

  test('status 500 once: the naive single try fails at once (not redelivered); the robust path, the person retrying, passes', T, async () => {
    const app = t.world.applicationId;
    await addFault(t, { application_id: app, kind: 'interactions_endpoint', status: 500, count: 1 });
    const before = hits[app] ?? 0;
    const failing = await run(app);
    assert.equal((await alice.dispatch('INTERACTION_FAILURE', (d) => d.nonce === failing, 5000)).reason_code, 1);
    const retry = await run(app);
    await alice.dispatch('INTERACTION_SUCCESS', (d) => d.nonce === retry, 5000);
    assert.equal(hits[app], before + 1, 'the endpoint saw the retry only');
  });

  test('delay_ms 2000: a naive app working 1.2 s before answering misses the 3 s and fails; a robust app deferring at once passes', T, async () => {
    const work = 1200;
    const naive = await installBot(t, 'naive', 2048n);
    await endpoint(naive.appId, naive.token, async () => {
      await sleep(work);
      return { type: 4, data: { content: 'naive: done' } };
    });
    const robust = await installBot(t, 'robust', 2048n);
    await endpoint(robust.appId, robust.token, async (i) => {
      // DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE now; the work's result goes into the original response afterwards.
      void sleep(work).then(() => t.api(`/webhooks/${robust.appId}/${i.token}/messages/@original`, { method: 'PATCH', body: { content: 'robust: done' } }));
      return { type: 5 };
    });
    // Without the fault, the naive app's 1.2 s fits in the window.
    const plain = await run(naive.appId);
    await alice.dispatch('INTERACTION_SUCCESS', (d) => d.nonce === plain, 5000);

    await addFault(t, { application_id: naive.appId, kind: 'interactions_endpoint', delay_ms: 2000, count: 1 });
    const failing = await run(naive.appId);
    assert.equal((await alice.dispatch('INTERACTION_FAILURE', (d) => d.nonce === failing, 5000)).reason_code, 2, 'no answer within 3 s');

    await addFault(t, { application_id: robust.appId, kind: 'interactions_endpoint', delay_ms: 2000, count: 1 });
    const started = Date.now();
    const deferred = await run(robust.appId);
    await alice.dispatch('INTERACTION_SUCCESS', (d) => d.nonce === deferred, 5000);
    assert.ok(Date.now() - started >= 2000, 'the delivery came delay_ms late');
    await alice.dispatch('MESSAGE_UPDATE', (d) => d.content === 'robust: done', 5000);
  });
});

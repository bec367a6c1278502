/**
 * Outgoing webhook events: URL validation by PING, the signed envelope of every event type (checked with
 * discord-interactions' verifyKey by a real HTTP endpoint), retries with exponential backoff, disabling after
 * repeated failures, and the owner's delivery log.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { WebhookReceiver } from './helpers/webhook-receiver.js';
import { until, sleep } from './helpers/wait.js';
import { dev } from './helpers/monetization.js';
import { enqueueWebhookEvent } from '../src/services/apps/webhook-events/outbox.js';

const T = { timeout: 60_000 };
const ALL_TYPES = [
  'APPLICATION_AUTHORIZED',
  'APPLICATION_DEAUTHORIZED',
  'ENTITLEMENT_CREATE',
  'ENTITLEMENT_UPDATE',
  'ENTITLEMENT_DELETE',
  'QUEST_USER_ENROLLMENT',
  'LOBBY_MESSAGE_CREATE',
  'LOBBY_MESSAGE_UPDATE',
  'LOBBY_MESSAGE_DELETE',
  'GAME_DIRECT_MESSAGE_CREATE',
  'GAME_DIRECT_MESSAGE_UPDATE',
  'GAME_DIRECT_MESSAGE_DELETE',
];
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/;

async function setup(t: TestServer, receiver: WebhookReceiver, types = ALL_TYPES) {
  const me = await t.api(`/applications/${t.world.applicationId}`, { token: t.world.users[0].token });
  receiver.publicKey = me.body.verify_key;
  const r = await t.api(`/applications/${t.world.applicationId}`, {
    method: 'PATCH',
    token: t.world.users[0].token,
    body: { event_webhooks_url: receiver.url, event_webhooks_status: 2, event_webhooks_types: types },
  });
  assert.equal(r.status, 200, r.text);
  return r.body;
}

async function sku(t: TestServer, type = 2) {
  const r = await t.api(`/applications/${t.world.applicationId}/skus`, {
    method: 'POST',
    token: t.world.users[0].token,
    body: { name: `Item ${Math.random()}`, type, published: true },
  });
  assert.equal(r.status, 201, r.text);
  return r.body.id as string;
}

const testEntitlement = (t: TestServer, skuId: string, ownerId: string) =>
  t.api(`/applications/${t.world.applicationId}/entitlements`, {
    method: 'POST',
    token: t.world.botToken,
    bot: true,
    body: { sku_id: skuId, owner_id: ownerId, owner_type: 2 },
  });

/** Checks the envelope of an event (type 1) and returns its data. */
function envelope(t: TestServer, body: any, type: string): any {
  assert.deepEqual(Object.keys(body).sort(), ['application_id', 'event', 'type', 'version']);
  assert.equal(body.version, 1);
  assert.equal(body.application_id, t.world.applicationId);
  assert.equal(body.type, 1);
  assert.deepEqual(Object.keys(body.event).sort(), ['data', 'timestamp', 'type']);
  assert.equal(body.event.type, type);
  assert.match(body.event.timestamp, TIMESTAMP);
  return body.event.data;
}

describe('webhook events: validation, envelope, signatures, every event type', () => {
  let t: TestServer;
  let receiver: WebhookReceiver;
  before(async () => {
    t = await startTestServer({ overrides: { dev: true } });
    receiver = await WebhookReceiver.start();
  });
  after(async () => {
    await t?.close();
    await receiver?.close();
  });

  test('setting the URL sends a signed PING that must be answered 204, and a bad signature that must get 401', T, async () => {
    const app = await setup(t, receiver);
    assert.equal(app.event_webhooks_url, receiver.url);
    assert.equal(app.event_webhooks_status, 2);
    assert.deepEqual(app.event_webhooks_types, ALL_TYPES);
    const [ping, probe] = receiver.received;
    assert.equal(ping.verified, true);
    assert.equal(ping.raw, JSON.stringify({ version: 1, application_id: t.world.applicationId, type: 0 }));
    assert.equal(ping.status, 204);
    assert.match(ping.timestamp, /^\d+$/);
    assert.equal(probe.verified, false);
    assert.equal(probe.status, 401);

    const refused = async (what: string) => {
      const r = await t.api(`/applications/${t.world.applicationId}`, {
        method: 'PATCH',
        token: t.world.users[0].token,
        body: { event_webhooks_url: receiver.url + '?' + what },
      });
      assert.equal(r.status, 400, `${what}: ${r.text}`);
      assert.equal(r.body.code, 50035);
      assert.equal(r.body.errors.event_webhooks_url._errors[0].code, 'APPLICATION_EVENT_WEBHOOKS_URL_INVALID');
    };
    receiver.pingStatus = 200;
    await refused('ping-answered-200');
    receiver.pingStatus = 204;
    receiver.lax = true;
    await refused('no-signature-check');
    receiver.lax = false;
    const down = await WebhookReceiver.start();
    const downUrl = down.url;
    await down.close();
    const r = await t.api(`/applications/${t.world.applicationId}`, { method: 'PATCH', token: t.world.users[0].token, body: { event_webhooks_url: downUrl } });
    assert.equal(r.status, 400);
    const still = await t.api(`/applications/${t.world.applicationId}`, { token: t.world.users[0].token });
    assert.equal(still.body.event_webhooks_url, receiver.url, 'a refused URL is not saved');
    // Unknown event types are refused; the lobby and game-DM types are accepted.
    const bad = await t.api(`/applications/${t.world.applicationId}`, {
      method: 'PATCH',
      token: t.world.users[0].token,
      body: { event_webhooks_types: ['MESSAGE_CREATE_X'] },
    });
    assert.equal(bad.status, 400);
  });

  test('every event type arrives signed (verifyKey) in the documented envelope', T, async () => {
    await setup(t, receiver);
    const alice = t.world.users[0];
    const bob = t.world.users[1];
    receiver.received.length = 0;

    // APPLICATION_AUTHORIZED: bob installs the app to his account; APPLICATION_DEAUTHORIZED: he removes it.
    const consent = await t.api(
      `/oauth2/authorize?${new URLSearchParams({ client_id: t.world.applicationId, scope: 'applications.commands', integration_type: '1' })}`,
      {
        method: 'POST',
        token: bob.token,
        body: { authorize: true },
      },
    );
    assert.equal(consent.status, 200, consent.text);
    const authorized = await until(() => receiver.events('APPLICATION_AUTHORIZED')[0], 5000, 'APPLICATION_AUTHORIZED');
    const a = envelope(t, authorized.body, 'APPLICATION_AUTHORIZED');
    assert.equal(a.integration_type, 1);
    assert.deepEqual(a.scopes, ['applications.commands']);
    assert.equal(a.user.id, bob.id);
    assert.equal(a.user.username, bob.username);
    assert.equal(a.application_id, undefined);
    const revoke = await t.api(`/oauth2/tokens/${t.world.applicationId}`, { method: 'DELETE', token: bob.token });
    assert.ok(revoke.status === 204 || revoke.status === 200, revoke.text);
    const deauthorized = await until(() => receiver.events('APPLICATION_DEAUTHORIZED')[0], 5000, 'APPLICATION_DEAUTHORIZED');
    assert.deepEqual(Object.keys(envelope(t, deauthorized.body, 'APPLICATION_DEAUTHORIZED')), ['user']);
    assert.equal(deauthorized.body.event.data.user.id, bob.id);

    // ENTITLEMENT_CREATE / UPDATE / DELETE: a test entitlement, consumed, deleted.
    const potion = await sku(t, 3);
    const created = await testEntitlement(t, potion, alice.id);
    assert.equal(created.status, 200, created.text);
    const consumed = await t.api(`/applications/${t.world.applicationId}/entitlements/${created.body.id}/consume`, {
      method: 'POST',
      token: t.world.botToken,
      bot: true,
    });
    assert.equal(consumed.status, 204);
    const deleted = await t.api(`/applications/${t.world.applicationId}/entitlements/${created.body.id}`, {
      method: 'DELETE',
      token: t.world.botToken,
      bot: true,
    });
    assert.equal(deleted.status, 204);
    await until(() => receiver.events('ENTITLEMENT_DELETE').length, 5000, 'ENTITLEMENT_DELETE');
    await until(() => receiver.events('ENTITLEMENT_UPDATE').length, 5000, 'ENTITLEMENT_UPDATE');
    const entCreate = envelope(t, receiver.events('ENTITLEMENT_CREATE')[0].body, 'ENTITLEMENT_CREATE');
    assert.deepEqual(entCreate, { ...created.body });
    assert.equal(envelope(t, receiver.events('ENTITLEMENT_UPDATE')[0].body, 'ENTITLEMENT_UPDATE').consumed, true);
    assert.equal(envelope(t, receiver.events('ENTITLEMENT_DELETE')[0].body, 'ENTITLEMENT_DELETE').deleted, true);

    // A purchase through the store: ENTITLEMENT_CREATE of the subscription entitlement (no subscription events here).
    const plan = await sku(t, 5);
    const bought = await t.api(`/store/skus/${plan}/purchase`, { method: 'POST', token: bob.token, body: {} });
    assert.equal(bought.status, 200, bought.text);
    await until(() => receiver.events('ENTITLEMENT_CREATE').length >= 2, 5000, 'purchase ENTITLEMENT_CREATE');
    const purchased = envelope(t, receiver.events('ENTITLEMENT_CREATE')[1].body, 'ENTITLEMENT_CREATE');
    assert.deepEqual(purchased, bought.body.entitlements[0]);
    assert.equal(purchased.ends_at, null);

    // QUEST_USER_ENROLLMENT through the dev route.
    const enrolled = await dev(t, '/__dev/quests/enroll', { application_id: t.world.applicationId, user_id: bob.id, quest_id: '1234567890123456789' });
    assert.match(enrolled.event_id, /^\d+$/);
    await until(() => receiver.events('QUEST_USER_ENROLLMENT').length, 5000, 'QUEST_USER_ENROLLMENT');
    const quest = envelope(t, receiver.events('QUEST_USER_ENROLLMENT')[0].body, 'QUEST_USER_ENROLLMENT');
    assert.deepEqual([quest.user_id, quest.quest_id, quest.user.id], [bob.id, '1234567890123456789', bob.id]);

    // Lobby and game-DM events: producers call enqueueWebhookEvent.
    for (const type of ALL_TYPES.filter((x) => x.startsWith('LOBBY_') || x.startsWith('GAME_'))) {
      const id = await enqueueWebhookEvent(t.server.ctx, t.world.applicationId, type, { id: '1', lobby_id: '2', content: type });
      assert.match(id!, /^\d+$/);
    }
    await until(() => receiver.events().filter((r) => /^(LOBBY|GAME)_/.test(r.body.event.type)).length === 6, 5000, 'lobby events');
    for (const r of receiver.events().filter((x) => /^(LOBBY|GAME)_/.test(x.body.event.type))) {
      assert.equal(envelope(t, r.body, r.body.event.type).content, r.body.event.type);
    }

    // Every request was signed correctly; every event was answered 204; nothing arrived twice.
    assert.ok(receiver.received.length >= 12);
    assert.ok(
      receiver.received.every((r) => r.verified && r.status === 204),
      JSON.stringify(receiver.received.map((r) => [r.verified, r.status])),
    );
    const seen = receiver.events().map((r) => r.raw);
    assert.equal(new Set(seen).size, seen.length);

    // Unsubscribed types are not sent (nor queued).
    await setup(t, receiver, ['ENTITLEMENT_CREATE']);
    const none = await dev(t, '/__dev/quests/enroll', { application_id: t.world.applicationId, user_id: bob.id });
    assert.equal(none.event_id, null);
    // Disabled (status 1): nothing.
    await t.api(`/applications/${t.world.applicationId}`, { method: 'PATCH', token: alice.token, body: { event_webhooks_status: 1 } });
    const before = receiver.received.length;
    const queued = await outboxSize(t);
    await testEntitlement(t, await sku(t), alice.id);
    // Events are queued in the transaction of the change: none queued now means none will ever be sent.
    assert.equal(await outboxSize(t), queued);
    assert.equal(receiver.received.length, before);
  });

  test('the owner reads the delivery log; others cannot', T, async () => {
    const log = await t.api(`/applications/${t.world.applicationId}/event-webhooks/deliveries?limit=100`, { token: t.world.users[0].token });
    assert.equal(log.status, 200, log.text);
    assert.ok(log.body.length >= 10);
    const entry = log.body[0];
    assert.deepEqual(Object.keys(entry).sort(), ['attempt', 'duration_ms', 'error', 'event_id', 'event_type', 'id', 'ok', 'status_code', 'timestamp', 'url']);
    assert.ok(log.body.every((d: any) => d.ok && d.status_code === 204 && d.url === receiver.url && d.attempt === 1));
    const types = new Set(log.body.map((d: any) => d.event_type));
    for (const type of [
      'APPLICATION_AUTHORIZED',
      'APPLICATION_DEAUTHORIZED',
      'ENTITLEMENT_CREATE',
      'ENTITLEMENT_UPDATE',
      'ENTITLEMENT_DELETE',
      'QUEST_USER_ENROLLMENT',
      'LOBBY_MESSAGE_CREATE',
    ]) {
      assert.ok(types.has(type), type);
    }
    const events = await t.api(`/applications/${t.world.applicationId}/event-webhooks/events?status=delivered`, { token: t.world.users[0].token });
    assert.equal(events.status, 200);
    assert.ok(events.body.every((e: any) => e.status === 'delivered' && e.attempts === 1 && e.payload.version === 1));
    const byBot = await t.api(`/applications/${t.world.applicationId}/event-webhooks/deliveries`, { token: t.world.botToken, bot: true });
    assert.equal(byBot.status, 200);
    const stranger = await t.api(`/applications/${t.world.applicationId}/event-webhooks/deliveries`, { token: t.world.users[1].token });
    assert.equal(stranger.status, 403);
    assert.equal(stranger.body.code, 20012);
  });
});

/** Rows in the outbox (every event ever queued). */
async function outboxSize(t: TestServer): Promise<number> {
  return (await t.server.ctx.repos.store.db.selectFrom('event_webhook_outbox').select('id').execute()).length;
}

describe('webhook events: retries with exponential backoff', () => {
  let t: TestServer;
  let receiver: WebhookReceiver;
  before(async () => {
    t = await startTestServer({ overrides: { dev: true, webhookBackoffMs: 100, webhookBackoffMaxMs: 400 } });
    receiver = await WebhookReceiver.start();
  });
  after(async () => {
    await t?.close();
    await receiver?.close();
  });

  test('failures (500, dropped connection, no answer within 3 s) are retried with growing delays until a 204', T, async () => {
    await setup(t, receiver);
    const outcomes: (number | 'hang' | 'drop')[] = [500, 'drop', 503, 500, 'hang', 204];
    receiver.answer = (_b, nth) => outcomes[nth - 1] ?? 204;
    const created = await testEntitlement(t, await sku(t), t.world.users[1].id);
    assert.equal(created.status, 200, created.text);
    await until(() => receiver.events().some((r) => r.status === 204), 20_000, 'the successful attempt');
    const attempts = receiver.events();
    assert.equal(attempts.length, 6);
    assert.ok(
      attempts.every((r) => r.raw === attempts[0].raw),
      'every retry sends the same bytes',
    );
    assert.ok(attempts.every((r) => r.body.event.data.id === created.body.id));
    // Lower bounds only: attempt n+1 cannot start before attempt n failed plus min(100 × 2^(n-1), 400) ms (the retry
    // is scheduled from the failure, on the same clock the receiver stamps arrivals with). Load can only lengthen the
    // gaps, so these cannot flake; upper bounds would.
    const gaps = attempts.slice(1).map((r, i) => r.at - attempts[i].at);
    const minimum = [100, 200, 400, 400, 400];
    gaps.forEach((g, i) => assert.ok(g >= minimum[i], `gap ${i + 1}: ${g} ms < ${minimum[i]} ms (${gaps.join(', ')})`));
    // The fifth attempt hung: its gap includes the 3 s answer window. That window starts when the worker sends, before
    // the receiver stamps the arrival, so a slow arrival shortens what the receiver sees: the 400 ms back-off is the slack.
    assert.ok(gaps[4] >= 3000, `after the hang: ${gaps[4]} ms`);

    // The receiver can see the 204 before the worker has recorded it: wait for the sixth log entry.
    const deliveries = async () =>
      (await t.api(`/applications/${t.world.applicationId}/event-webhooks/deliveries?event_type=ENTITLEMENT_CREATE`, { token: t.world.users[0].token })).body;
    await until(async () => (await deliveries()).length >= 6, 10_000, 'the sixth delivery record');
    const log = (await deliveries()).reverse();
    assert.deepEqual(
      log.map((d: any) => [d.attempt, d.ok, d.status_code]),
      [
        [1, false, 500],
        [2, false, null],
        [3, false, 503],
        [4, false, 500],
        [5, false, null],
        [6, true, 204],
      ],
    );
    assert.equal(log[1].error, 'connection closed'); // fixed words, never the network's own error (issue 14)
    assert.equal(log[4].error, 'no answer within 3000 ms');
    assert.ok(log[4].duration_ms >= 2900);
    const [ev] = (await t.api(`/applications/${t.world.applicationId}/event-webhooks/events`, { token: t.world.users[0].token })).body;
    assert.deepEqual([ev.status, ev.attempts, ev.last_status], ['delivered', 6, 204]);
    const app = await t.api(`/applications/${t.world.applicationId}`, { token: t.world.users[0].token });
    assert.equal(app.body.event_webhooks_status, 2, 'a recovered endpoint stays enabled');
  });
});

describe('webhook events: repeated failures disable the URL', () => {
  let t: TestServer;
  let receiver: WebhookReceiver;
  before(async () => {
    t = await startTestServer({ overrides: { dev: true, webhookBackoffMs: 20, webhookBackoffMaxMs: 50, webhookRetryWindowMs: 700 } });
    receiver = await WebhookReceiver.start();
  });
  after(async () => {
    await t?.close();
    await receiver?.close();
  });

  test('an endpoint failing for a whole retry window is disabled (status 3); re-enabling resumes deliveries', T, async () => {
    await setup(t, receiver);
    receiver.answer = () => 500;
    const item = await sku(t);
    await testEntitlement(t, item, t.world.users[1].id);
    await sleep(250);
    await testEntitlement(t, item, t.world.users[0].id); // still being retried when the first one is given up
    const app = await until(
      async () => {
        const r = await t.api(`/applications/${t.world.applicationId}`, { token: t.world.users[0].token });
        return r.body.event_webhooks_status === 3 && r.body;
      },
      10_000,
      'event_webhooks_status 3',
    );
    assert.equal(app.event_webhooks_url, receiver.url, 'the URL is kept, only disabled');
    const log = (await t.api(`/applications/${t.world.applicationId}/event-webhooks/deliveries?limit=100`, { token: t.world.users[0].token })).body;
    assert.ok(log.length >= 5, `only ${log.length} attempts`);
    assert.ok(log.every((d: any) => !d.ok && d.status_code === 500));
    const first = Date.parse(log[log.length - 1].timestamp + 'Z');
    const last = Date.parse(log[0].timestamp + 'Z');
    assert.ok(last - first >= 700, `failures spanned ${last - first} ms`);
    const states = (await t.api(`/applications/${t.world.applicationId}/event-webhooks/events`, { token: t.world.users[0].token })).body.map(
      (e: any) => e.status,
    );
    assert.deepEqual(states, ['discarded', 'failed'], 'newest first: the later event is discarded, the first one failed');

    // While disabled nothing is queued or sent.
    const count = receiver.received.length;
    const queued = await outboxSize(t);
    const after = await testEntitlement(t, await sku(t), t.world.users[0].id);
    assert.equal(after.status, 200);
    assert.equal(await outboxSize(t), queued, 'nothing queued while disabled (queueing is part of the change)');
    assert.equal(receiver.received.length, count);

    // The owner turns them back on; deliveries resume with a clean streak.
    receiver.answer = () => 204;
    const on = await t.api(`/applications/${t.world.applicationId}`, { method: 'PATCH', token: t.world.users[0].token, body: { event_webhooks_status: 2 } });
    assert.equal(on.body.event_webhooks_status, 2);
    const quest = await dev(t, '/__dev/quests/enroll', { application_id: t.world.applicationId, user_id: t.world.users[1].id });
    assert.ok(quest.event_id);
    await until(() => receiver.events('QUEST_USER_ENROLLMENT').some((r) => r.status === 204), 5000, 'delivery after re-enabling');
  });
});

// engine-independent: a client's reading of the wire; the routes and events it meets run on every engine in monetization and the conformance suite
/**
 * discord.js v14, unmodified, sees premium apps: entitlementCreate / entitlementUpdate / entitlementDelete and
 * subscriptionCreate / subscriptionUpdate with the right fields, and its REST helpers (SKUs, entitlements,
 * subscriptions, test entitlements, consume) work against Accord.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client, Events, GatewayIntentBits, EntitlementType, SKUType, SKUFlags, SubscriptionStatus, type Entitlement, type Subscription } from 'discord.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { waitEvent } from './helpers/wait.js';
import { advance, now } from './helpers/monetization.js';

const T = { timeout: 60_000 };

describe('discord.js v14: premium apps', { timeout: 180_000 }, () => {
  let t: TestServer;
  let client: Client;
  before(async () => {
    t = await startTestServer({ overrides: { dev: true } });
    client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${t.server.url}/api` } });
    await Promise.all([waitEvent(client, Events.ClientReady, () => true, 20_000), client.login(t.world.botToken)]);
  });
  after(async () => {
    await client?.destroy();
    await t?.close();
  });

  const owner = () => t.world.users[0];
  const bob = () => t.world.users[1];
  async function createSku(body: Record<string, unknown>) {
    const r = await t.api(`/applications/${t.world.applicationId}/skus`, { method: 'POST', token: owner().token, body });
    assert.equal(r.status, 201, r.text);
    return r.body;
  }

  test('a subscription: subscriptionCreate → entitlementCreate → subscriptionUpdate; cancel; end → entitlementUpdate', T, async () => {
    const plan = await createSku({ name: 'Gold', type: 5, price: 499, published: true });
    const skus = await client.application!.fetchSKUs();
    const sku = skus.get(plan.id)!;
    assert.equal(sku.type, SKUType.Subscription);
    assert.equal(sku.name, 'Gold');
    assert.ok(sku.flags.has(SKUFlags.Available) && sku.flags.has(SKUFlags.UserSubscription));
    assert.ok(skus.some((s) => s.type === SKUType.SubscriptionGroup));

    // discord.js patches the cached Subscription in place on the next update: read it when the event fires.
    const created = new Promise<Record<string, unknown>>((resolve) =>
      client.once(Events.SubscriptionCreate, (s) =>
        resolve({
          id: s.id,
          userId: s.userId,
          skuIds: [...s.skuIds],
          entitlementIds: [...s.entitlementIds],
          status: s.status,
          renewalSkuIds: s.renewalSkuIds,
          currentPeriodStartTimestamp: s.currentPeriodStartTimestamp,
          currentPeriodEndTimestamp: s.currentPeriodEndTimestamp,
          canceledTimestamp: s.canceledTimestamp,
        }),
      ),
    );
    const entCreated = waitEvent<[Entitlement]>(client, Events.EntitlementCreate);
    const updated = waitEvent<[Subscription | null, Subscription]>(client, Events.SubscriptionUpdate);
    const bought = await t.api(`/store/skus/${plan.id}/purchase`, { method: 'POST', token: bob().token, body: {} });
    assert.equal(bought.status, 200, bought.text);
    const subId = bought.body.subscription.id;
    const entId = bought.body.entitlements[0].id;
    const start = Date.parse(bought.body.subscription.current_period_start);
    const end = Date.parse(bought.body.subscription.current_period_end);

    assert.deepEqual(await created, {
      id: subId,
      userId: bob().id,
      skuIds: [plan.id],
      entitlementIds: [],
      status: SubscriptionStatus.Inactive,
      renewalSkuIds: null,
      currentPeriodStartTimestamp: start,
      currentPeriodEndTimestamp: end,
      canceledTimestamp: null,
    });

    const [ent] = await entCreated;
    assert.equal(ent.id, entId);
    assert.equal(ent.skuId, plan.id);
    assert.equal(ent.userId, bob().id);
    assert.equal(ent.applicationId, t.world.applicationId);
    assert.equal(ent.guildId, null);
    assert.equal(ent.type, EntitlementType.Purchase);
    assert.equal(ent.deleted, false);
    assert.equal(ent.consumed, false);
    assert.equal(ent.startsTimestamp, start);
    assert.equal(ent.endsTimestamp, null);
    assert.equal(ent.isActive(), true);
    assert.equal(ent.isTest(), false);
    assert.equal(client.application!.entitlements.cache.get(entId), ent);

    const [old, active] = await updated;
    assert.equal(old?.status, SubscriptionStatus.Inactive, 'the cached subscription before the update');
    assert.equal(active.status, SubscriptionStatus.Active);
    assert.deepEqual(active.entitlementIds, [entId]);
    assert.deepEqual(active.renewalSkuIds, [plan.id]);

    // REST: the same subscription and entitlement.
    const fetched = await client.application!.subscriptions.fetch({ sku: plan.id, user: bob().id });
    assert.deepEqual([...fetched.keys()], [subId]);
    const single = await client.application!.subscriptions.fetch({ sku: plan.id, subscriptionId: subId });
    assert.equal(single.status, SubscriptionStatus.Active);
    const ents = await client.application!.entitlements.fetch({ user: bob().id, skus: [plan.id] });
    assert.deepEqual([...ents.keys()], [entId]);

    // Renewal: subscriptionUpdate with the next period.
    const renewed = waitEvent<[Subscription | null, Subscription]>(client, Events.SubscriptionUpdate);
    await advance(t, end - now(t) + 1000);
    const [, next] = await renewed;
    assert.equal(next.currentPeriodStartTimestamp, end);
    assert.ok(next.currentPeriodEndTimestamp > end);

    // Cancel: ENDING with canceledTimestamp.
    const ending = waitEvent<[Subscription | null, Subscription]>(client, Events.SubscriptionUpdate);
    const cancel = await t.api(`/users/@me/subscriptions/${subId}/cancel`, { method: 'POST', token: bob().token });
    assert.equal(cancel.status, 200, cancel.text);
    const [, endingSub] = await ending;
    assert.equal(endingSub.status, SubscriptionStatus.Ending);
    assert.equal(endingSub.canceledTimestamp, Date.parse(cancel.body.canceled_at));
    assert.equal(endingSub.renewalSkuIds, null);

    // The period ends: entitlementUpdate carries ends_at, then the subscription is INACTIVE.
    const entUpdated = waitEvent<[Entitlement | null, Entitlement]>(client, Events.EntitlementUpdate);
    const inactive = waitEvent<[Subscription | null, Subscription]>(client, Events.SubscriptionUpdate, (_o, s) => s.status === SubscriptionStatus.Inactive);
    await advance(t, next.currentPeriodEndTimestamp - now(t) + 1000);
    const [before, afterEnd] = await entUpdated;
    assert.equal(before?.endsTimestamp, null);
    assert.equal(afterEnd.id, entId);
    assert.equal(afterEnd.endsTimestamp, next.currentPeriodEndTimestamp);
    const [, gone] = await inactive;
    assert.equal(gone.id, subId);
  });

  test('test entitlements and consumables through discord.js helpers', T, async () => {
    const potion = await createSku({ name: 'Potion', type: 3, price: 50, published: true });
    const created = waitEvent<[Entitlement]>(client, Events.EntitlementCreate, (e) => e.skuId === potion.id);
    const test1 = await client.application!.entitlements.createTest({ sku: potion.id, user: bob().id });
    assert.equal(test1.type, EntitlementType.TestModePurchase);
    assert.equal(test1.isTest(), true);
    assert.equal(test1.userId, bob().id);
    const [seen] = await created;
    assert.equal(seen.id, test1.id);

    const consumed = waitEvent<[Entitlement | null, Entitlement]>(client, Events.EntitlementUpdate, (_o, e) => e.id === test1.id);
    await test1.consume();
    const [, after] = await consumed;
    assert.equal(after.consumed, true);

    const guildTest = await client.application!.entitlements.createTest({ sku: potion.id, guild: t.world.guildId });
    assert.equal(guildTest.guildId, t.world.guildId);
    const deleted = waitEvent<[Entitlement]>(client, Events.EntitlementDelete, (e) => e.id === guildTest.id);
    await client.application!.entitlements.deleteTest(guildTest);
    const [del] = await deleted;
    assert.equal(del.deleted, true);
    assert.equal(client.application!.entitlements.cache.has(guildTest.id), false);
  });
});

/**
 * Premium apps: SKUs, entitlements, subscriptions and their clock-driven lifecycle, with every Gateway event the app's
 * bot receives asserted in order (the reference's event sequence table) and every entitlement field at each step.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, devHeaders, type TestServer } from './helpers/server.js';
import { RawGateway } from './helpers/gateway-client.js';
import { EventCursor, addMonths, advance, isoMicro, now, setClock } from './helpers/monetization.js';

const T = { timeout: 60_000 };
const DAY = 86_400_000;

async function bootWithBot(t: TestServer): Promise<{ gw: RawGateway; events: EventCursor }> {
  const gw = await RawGateway.connect(t.server.url);
  await gw.identify(t.world.botToken, { intents: 1 });
  return { gw, events: new EventCursor(gw) };
}

function owner(t: TestServer) {
  return t.world.users[0];
}
function bob(t: TestServer) {
  return t.world.users[1];
}

async function createSku(t: TestServer, body: Record<string, unknown>) {
  const r = await t.api(`/applications/${t.world.applicationId}/skus`, { method: 'POST', token: owner(t).token, body });
  assert.equal(r.status, 201, r.text);
  return r.body;
}

/** Three published user subscription SKUs in one group: lite 2.99, basic 4.99, premium 9.99. */
async function subscriptionGroup(t: TestServer) {
  const basic = await createSku(t, { name: 'Basic', type: 5, price: 499, published: true });
  assert.match(basic.subscription_group_id, /^\d+$/);
  const premium = await createSku(t, { name: 'Premium', type: 5, price: 999, published: true, subscription_group_id: basic.subscription_group_id });
  const lite = await createSku(t, { name: 'Lite', type: 5, price: 299, published: true, subscription_group_id: basic.subscription_group_id });
  return { basic, premium, lite, group: basic.subscription_group_id as string };
}

describe('premium apps: one subscription through its whole life', () => {
  let t: TestServer;
  let gw: RawGateway;
  let events: EventCursor;
  const app = () => t.world.applicationId;
  const asBot = (path: string, opts: Parameters<TestServer['api']>[1] = {}) => t.api(path, { ...opts, token: t.world.botToken, bot: true });

  before(async () => {
    t = await startTestServer({ overrides: { dev: true } });
    ({ gw, events } = await bootWithBot(t));
  });
  after(async () => {
    gw?.close();
    await t?.close();
  });

  test('SKUs: subscription SKUs share a group; the bot lists them with the system group SKU', T, async () => {
    const { basic, premium, lite, group } = await subscriptionGroup(t);
    assert.equal(premium.subscription_group_id, group);
    assert.equal(lite.subscription_group_id, group);
    const list = await asBot(`/applications/${app()}/skus`);
    assert.equal(list.status, 200, list.text);
    const byId = new Map(list.body.map((s: any) => [s.id, s]));
    assert.deepEqual(byId.get(basic.id), {
      id: basic.id,
      type: 5,
      dependent_sku_id: null,
      application_id: app(),
      manifest_labels: null,
      access_type: 1,
      name: 'Basic',
      features: [],
      release_date: null,
      premium: false,
      slug: 'basic',
      flags: 4 | 256,
      show_age_gate: false,
    });
    const groupSku: any = byId.get(group);
    assert.equal(groupSku.type, 6);
    assert.equal(groupSku.flags, 4 | 256);
    assert.equal(list.body.filter((s: any) => s.type === 5).length, 3);

    // Unpublished SKUs cannot be bought by others; publishing makes them available.
    const draft = await createSku(t, { name: 'Draft Plan', type: 5, price: 100, subscription_group_id: group });
    assert.equal(draft.flags, 256);
    const refused = await t.api(`/store/skus/${draft.id}/purchase`, { method: 'POST', token: bob(t).token, body: {} });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 50057);
    const published = await t.api(`/applications/${app()}/skus/${draft.id}`, {
      method: 'PATCH',
      token: owner(t).token,
      body: { published: true, name: 'Draft' },
    });
    assert.equal(published.status, 200, published.text);
    assert.equal(published.body.flags, 4 | 256);
    assert.equal(published.body.name, 'Draft');
    // Validation: a group SKU cannot be created directly; a bot of another app cannot see these.
    const bad = await t.api(`/applications/${app()}/skus`, { method: 'POST', token: owner(t).token, body: { name: 'G', type: 6 } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 50035);
    const stranger = await t.api(`/applications/${app()}/skus`, { token: bob(t).token });
    assert.equal(stranger.status, 403);
    await events.none();
  });

  test('purchase → renewals → upgrade → downgrade → cancel / resume → ENDING → INACTIVE', T, async () => {
    const { basic, premium, lite } = await subscriptionGroup(t);
    const buyer = bob(t);

    // ---- purchase ----
    const t0 = now(t);
    const bought = await t.api(`/store/skus/${basic.id}/purchase`, { method: 'POST', token: buyer.token, body: { load_id: 'x' } });
    assert.equal(bought.status, 200, bought.text);
    const sub = bought.body.subscription;
    const ent1 = bought.body.entitlements[0];
    const anchor = Date.parse(sub.current_period_start);
    assert.ok(anchor >= t0 && anchor <= now(t));
    const expectedEnt1 = {
      id: ent1.id,
      sku_id: basic.id,
      application_id: app(),
      user_id: buyer.id,
      promotion_id: null,
      type: 1,
      deleted: false,
      gift_code_flags: 0,
      consumed: false,
      starts_at: isoMicro(anchor),
      ends_at: null,
      subscription_id: sub.id,
    };
    assert.deepEqual(ent1, expectedEnt1);
    const expectedSub = {
      id: sub.id,
      user_id: buyer.id,
      sku_ids: [basic.id],
      entitlement_ids: [ent1.id],
      renewal_sku_ids: [basic.id],
      current_period_start: isoMicro(anchor),
      current_period_end: isoMicro(addMonths(anchor, 1)),
      status: 0,
      canceled_at: null,
    };
    assert.deepEqual(sub, expectedSub);
    assert.equal(bought.body.payment.amount, 499);
    assert.equal(bought.body.payment.discount_percent, 0);
    assert.equal(bought.body.payment.promotion, null);

    const [created, entCreate, updated] = await events.expect('SUBSCRIPTION_CREATE', 'ENTITLEMENT_CREATE', 'SUBSCRIPTION_UPDATE');
    assert.deepEqual(created, { ...expectedSub, status: 1, entitlement_ids: [], renewal_sku_ids: null });
    assert.deepEqual(entCreate, expectedEnt1);
    assert.deepEqual(updated, expectedSub);

    // A second subscription in the same group is refused.
    const again = await t.api(`/store/skus/${premium.id}/purchase`, { method: 'POST', token: buyer.token, body: {} });
    assert.equal(again.status, 400);
    assert.equal(again.body.code, 40074);

    // The bot reads it through both routes.
    const listed = await asBot(`/skus/${basic.id}/subscriptions?user_id=${buyer.id}`);
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(listed.body, [expectedSub]);
    const one = await asBot(`/skus/${basic.id}/subscriptions/${sub.id}`);
    assert.deepEqual(one.body, expectedSub);
    const missingUser = await asBot(`/skus/${basic.id}/subscriptions`);
    assert.equal(missingUser.status, 400);
    assert.equal(missingUser.body.code, 50035);
    const entNow = await asBot(`/applications/${app()}/entitlements/${ent1.id}`);
    assert.deepEqual(entNow.body, expectedEnt1);

    // ---- renewals, one month at a time: SUBSCRIPTION_UPDATE only, no entitlement event ----
    for (let month = 1; month <= 3; month++) {
      const end = addMonths(anchor, month);
      await advance(t, end - now(t) + 1000);
      const [renewed] = await events.expect('SUBSCRIPTION_UPDATE');
      assert.deepEqual(renewed, {
        ...expectedSub,
        current_period_start: isoMicro(end),
        current_period_end: isoMicro(addMonths(anchor, month + 1)),
      });
      assert.deepEqual((await asBot(`/applications/${app()}/entitlements/${ent1.id}`)).body, expectedEnt1, 'entitlement untouched by renewals');
    }
    // ---- two periods at once: two renewals, in order ----
    await advance(t, addMonths(anchor, 5) - now(t) + 1000);
    const twice = await events.expect('SUBSCRIPTION_UPDATE', 'SUBSCRIPTION_UPDATE');
    assert.deepEqual(
      twice.map((s) => [s.current_period_start, s.current_period_end]),
      [
        [isoMicro(addMonths(anchor, 4)), isoMicro(addMonths(anchor, 5))],
        [isoMicro(addMonths(anchor, 5)), isoMicro(addMonths(anchor, 6))],
      ],
    );
    const renewals = (await t.api('/users/@me/billing/payments', { token: buyer.token })).body.filter((p: any) => p.subscription_id === sub.id);
    assert.deepEqual(renewals.map((p: any) => p.kind).sort(), ['renewal', 'renewal', 'renewal', 'renewal', 'renewal', 'subscription']);
    assert.ok(renewals.every((p: any) => p.amount === 499));

    // ---- upgrade to premium: takes effect now ----
    await advance(t, 3 * DAY);
    const up = await t.api(`/users/@me/subscriptions/${sub.id}`, { method: 'PATCH', token: buyer.token, body: { sku_id: premium.id } });
    assert.equal(up.status, 200, up.text);
    const upAt = Date.parse(up.body.current_period_start);
    const [oldEnded, ent2, afterUp] = await events.expect('ENTITLEMENT_UPDATE', 'ENTITLEMENT_CREATE', 'SUBSCRIPTION_UPDATE');
    assert.deepEqual(oldEnded, { ...expectedEnt1, ends_at: isoMicro(upAt) });
    assert.deepEqual(ent2, {
      id: ent2.id,
      sku_id: premium.id,
      application_id: app(),
      user_id: buyer.id,
      promotion_id: null,
      type: 1,
      deleted: false,
      gift_code_flags: 0,
      consumed: false,
      starts_at: isoMicro(upAt),
      ends_at: null,
      subscription_id: sub.id,
    });
    const subPremium = {
      ...expectedSub,
      sku_ids: [premium.id],
      entitlement_ids: [ent2.id],
      renewal_sku_ids: [premium.id],
      current_period_start: isoMicro(upAt),
      current_period_end: isoMicro(addMonths(upAt, 1)),
    };
    assert.deepEqual(afterUp, subPremium);
    assert.deepEqual(up.body, subPremium);
    // A SKU outside the group is refused.
    const durable = await createSku(t, { name: 'Sword', type: 2, price: 150, published: true });
    const wrong = await t.api(`/users/@me/subscriptions/${sub.id}`, { method: 'PATCH', token: buyer.token, body: { sku_id: durable.id } });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.code, 50057);
    await events.none();

    // ---- downgrade to lite: renewal_sku_ids now, the switch at the renewal ----
    const down = await t.api(`/users/@me/subscriptions/${sub.id}`, { method: 'PATCH', token: buyer.token, body: { sku_id: lite.id } });
    assert.equal(down.status, 200, down.text);
    const [scheduled] = await events.expect('SUBSCRIPTION_UPDATE');
    assert.deepEqual(scheduled, { ...subPremium, renewal_sku_ids: [lite.id] });
    const switchAt = addMonths(upAt, 1);
    await advance(t, switchAt - now(t) + 1000);
    const [premiumEnded, ent3, switched] = await events.expect('ENTITLEMENT_UPDATE', 'ENTITLEMENT_CREATE', 'SUBSCRIPTION_UPDATE');
    assert.deepEqual(premiumEnded, { ...ent2, ends_at: isoMicro(switchAt) });
    assert.deepEqual(ent3, { ...ent2, id: ent3.id, sku_id: lite.id, starts_at: isoMicro(switchAt), ends_at: null });
    const subLite = {
      ...subPremium,
      sku_ids: [lite.id],
      entitlement_ids: [ent3.id],
      renewal_sku_ids: [lite.id],
      current_period_start: isoMicro(switchAt),
      current_period_end: isoMicro(addMonths(upAt, 2)),
    };
    assert.deepEqual(switched, subLite);
    const litePayment = (await t.api('/users/@me/billing/payments?limit=1', { token: buyer.token })).body[0];
    assert.deepEqual([litePayment.kind, litePayment.sku_id, litePayment.amount], ['renewal', lite.id, 299]);

    // ---- cancel: ENDING, access continues; resume; cancel again ----
    await advance(t, 2 * DAY);
    const cancel = await t.api(`/users/@me/subscriptions/${sub.id}/cancel`, { method: 'POST', token: buyer.token });
    assert.equal(cancel.status, 200, cancel.text);
    const canceledAt = Date.parse(cancel.body.canceled_at);
    const [ending] = await events.expect('SUBSCRIPTION_UPDATE');
    const subEnding = { ...subLite, status: 2, canceled_at: isoMicro(canceledAt), renewal_sku_ids: null };
    assert.deepEqual(ending, subEnding);
    assert.deepEqual(cancel.body, subEnding);
    assert.deepEqual((await asBot(`/applications/${app()}/entitlements/${ent3.id}`)).body, ent3, 'access continues while ENDING');
    const resume = await t.api(`/users/@me/subscriptions/${sub.id}/resume`, { method: 'POST', token: buyer.token });
    assert.equal(resume.status, 200, resume.text);
    assert.deepEqual((await events.expect('SUBSCRIPTION_UPDATE'))[0], subLite);
    const cancel2 = await t.api(`/users/@me/subscriptions/${sub.id}/cancel`, { method: 'POST', token: buyer.token });
    const canceledAt2 = Date.parse(cancel2.body.canceled_at);
    const subEnding2 = { ...subLite, status: 2, canceled_at: isoMicro(canceledAt2), renewal_sku_ids: null };
    assert.deepEqual((await events.expect('SUBSCRIPTION_UPDATE'))[0], subEnding2);
    // Plan changes need an active subscription.
    const noChange = await t.api(`/users/@me/subscriptions/${sub.id}`, { method: 'PATCH', token: buyer.token, body: { sku_id: premium.id } });
    assert.equal(noChange.status, 400);

    // ---- the period ends: ENTITLEMENT_UPDATE (ends_at) → SUBSCRIPTION_UPDATE (INACTIVE) ----
    const endAt = addMonths(upAt, 2);
    await advance(t, endAt - now(t) + 1000);
    const [ent3Ended, inactive] = await events.expect('ENTITLEMENT_UPDATE', 'SUBSCRIPTION_UPDATE');
    assert.deepEqual(ent3Ended, { ...ent3, ends_at: isoMicro(endAt) });
    assert.deepEqual(inactive, { ...subEnding2, status: 1 });
    // Nothing more happens, however far the clock moves.
    await advance(t, 90 * DAY);
    await events.none();

    // ---- reads after the end ----
    assert.deepEqual((await asBot(`/skus/${lite.id}/subscriptions/${sub.id}`)).body, { ...subEnding2, status: 1 });
    const all = await asBot(`/applications/${app()}/entitlements?user_id=${buyer.id}`);
    assert.deepEqual(
      all.body.map((e: any) => [e.id, e.ends_at !== null]),
      [
        [ent1.id, true],
        [ent2.id, true],
        [ent3.id, true],
      ],
    );
    const live = await asBot(`/applications/${app()}/entitlements?user_id=${buyer.id}&exclude_ended=true`);
    assert.deepEqual(live.body, []);
    const mine = await t.api(`/users/@me/subscriptions/${sub.id}`, { token: buyer.token });
    assert.equal(mine.body.status, 1);
    // Buying again after the end starts a new subscription.
    const rebuy = await t.api(`/store/skus/${basic.id}/purchase`, { method: 'POST', token: buyer.token, body: {} });
    assert.equal(rebuy.status, 200, rebuy.text);
    await events.expect('SUBSCRIPTION_CREATE', 'ENTITLEMENT_CREATE', 'SUBSCRIPTION_UPDATE');
    // Cancelled at once, it ends at its period end like the first one.
    await t.api(`/users/@me/subscriptions/${rebuy.body.subscription.id}/cancel`, { method: 'POST', token: buyer.token });
    await events.expect('SUBSCRIPTION_UPDATE');
    await advance(t, Date.parse(rebuy.body.subscription.current_period_end) - now(t) + 1000);
    const [rebuyEnded, rebuyInactive] = await events.expect('ENTITLEMENT_UPDATE', 'SUBSCRIPTION_UPDATE');
    assert.equal(rebuyEnded.ends_at, rebuy.body.subscription.current_period_end);
    assert.equal(rebuyInactive.status, 1);
  });

  test('team members (the app owner) get a 100% discount, recorded on every payment', T, async () => {
    const { basic } = await subscriptionGroup(t);
    const listing = await t.api(`/store/applications/${app()}/skus`, { token: owner(t).token });
    const entry = listing.body.find((s: any) => s.id === basic.id);
    assert.deepEqual([entry.price, entry.discount_percent], [{ amount: 499, currency: 'usd' }, 100]);
    const bobListing = await t.api(`/store/applications/${app()}/skus`, { token: bob(t).token });
    assert.equal(bobListing.body.find((s: any) => s.id === basic.id).discount_percent, undefined);

    const bought = await t.api(`/store/skus/${basic.id}/purchase`, { method: 'POST', token: owner(t).token, body: {} });
    assert.equal(bought.status, 200, bought.text);
    assert.deepEqual(
      [bought.body.payment.list_price, bought.body.payment.amount, bought.body.payment.discount_percent, bought.body.payment.promotion],
      [499, 0, 100, 'team_member'],
    );
    assert.equal(bought.body.entitlements[0].type, 1);
    await events.expect('SUBSCRIPTION_CREATE', 'ENTITLEMENT_CREATE', 'SUBSCRIPTION_UPDATE');
    const end = Date.parse(bought.body.subscription.current_period_end);
    await advance(t, end - now(t) + 1000);
    await events.expect('SUBSCRIPTION_UPDATE');
    const payments = (await t.api('/users/@me/billing/payments', { token: owner(t).token })).body;
    const mine = payments.filter((p: any) => p.subscription_id === bought.body.subscription.id);
    assert.deepEqual(
      mine.map((p: any) => [p.kind, p.amount, p.promotion]),
      [
        ['renewal', 0, 'team_member'],
        ['subscription', 0, 'team_member'],
      ],
    );
    // A refund of the subscription's entitlement removes both: ENTITLEMENT_DELETE → SUBSCRIPTION_DELETE.
    const refund = await fetch(`${t.server.url}/__dev/monetization/refund`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...devHeaders(t) },
      body: JSON.stringify({ entitlement_id: bought.body.entitlements[0].id }),
    });
    assert.equal(refund.status, 204, await refund.text());
    const [entDeleted, subDeleted] = await events.expect('ENTITLEMENT_DELETE', 'SUBSCRIPTION_DELETE');
    assert.deepEqual([entDeleted.id, entDeleted.deleted], [bought.body.entitlements[0].id, true]);
    assert.deepEqual([subDeleted.id, subDeleted.status, subDeleted.renewal_sku_ids], [bought.body.subscription.id, 1, null]);
    const gone = await asBot(`/skus/${basic.id}/subscriptions/${bought.body.subscription.id}`);
    assert.equal(gone.status, 404);
    // Team members may buy an unpublished SKU to try it.
    const hidden = await createSku(t, { name: 'Hidden', type: 2, price: 1000 });
    const tried = await t.api(`/store/skus/${hidden.id}/purchase`, { method: 'POST', token: owner(t).token, body: {} });
    assert.equal(tried.status, 200, tried.text);
    assert.equal(tried.body.payment.amount, 0);
    await events.expect('ENTITLEMENT_CREATE');
  });

  test('one-time items, consume, test entitlements, filters and errors', T, async () => {
    const sword = await createSku(t, { name: 'Sword of Testing', type: 2, price: 150, published: true });
    const potion = await createSku(t, { name: 'Potion', type: 3, price: 50, published: true });
    const guildPass = await createSku(t, { name: 'Guild Pass', type: 2, price: 800, published: true, flags: 128 });
    const buyer = bob(t);

    // Durable: once.
    const s1 = await t.api(`/store/skus/${sword.id}/purchase`, { method: 'POST', token: buyer.token, body: {} });
    assert.equal(s1.status, 200, s1.text);
    assert.equal(s1.body.subscription, undefined);
    const swordEnt = s1.body.entitlements[0];
    assert.deepEqual(swordEnt, {
      id: swordEnt.id,
      sku_id: sword.id,
      application_id: app(),
      user_id: buyer.id,
      promotion_id: null,
      type: 1,
      deleted: false,
      gift_code_flags: 0,
      consumed: false,
      starts_at: swordEnt.starts_at,
      ends_at: null,
    });
    assert.deepEqual(await events.expect('ENTITLEMENT_CREATE'), [swordEnt]);
    const s2 = await t.api(`/store/skus/${sword.id}/purchase`, { method: 'POST', token: buyer.token, body: {} });
    assert.equal(s2.body.code, 40074);

    // Consumable: again only after the app consumed it.
    const p1 = await t.api(`/store/skus/${potion.id}/purchase`, { method: 'POST', token: buyer.token, body: {} });
    const potionEnt = p1.body.entitlements[0];
    await events.expect('ENTITLEMENT_CREATE');
    const p2 = await t.api(`/store/skus/${potion.id}/purchase`, { method: 'POST', token: buyer.token, body: {} });
    assert.equal(p2.body.code, 40074);
    const consumed = await asBot(`/applications/${app()}/entitlements/${potionEnt.id}/consume`, { method: 'POST' });
    assert.equal(consumed.status, 204, consumed.text);
    assert.deepEqual(await events.expect('ENTITLEMENT_UPDATE'), [{ ...potionEnt, consumed: true }]);
    const p3 = await t.api(`/store/skus/${potion.id}/purchase`, { method: 'POST', token: buyer.token, body: {} });
    assert.equal(p3.status, 200, p3.text);
    await events.expect('ENTITLEMENT_CREATE');
    // Test mode repeats a consumable without consuming (type 4, free).
    const p4 = await t.api(`/store/skus/${potion.id}/purchase`, { method: 'POST', token: buyer.token, body: { test_mode: true } });
    assert.equal(p4.status, 200, p4.text);
    assert.equal(p4.body.entitlements[0].type, 4);
    assert.equal(p4.body.payment.amount, 0);
    await events.expect('ENTITLEMENT_CREATE');
    const notConsumable = await asBot(`/applications/${app()}/entitlements/${swordEnt.id}/consume`, { method: 'POST' });
    assert.equal(notConsumable.status, 400);
    assert.equal(notConsumable.body.code, 40018);

    // Guild SKU: needs a guild the buyer is in.
    const noGuild = await t.api(`/store/skus/${guildPass.id}/purchase`, { method: 'POST', token: buyer.token, body: {} });
    assert.equal(noGuild.body.code, 50035);
    const g = await t.api(`/store/skus/${guildPass.id}/purchase`, { method: 'POST', token: buyer.token, body: { guild_id: t.world.guildId } });
    assert.equal(g.status, 200, g.text);
    assert.equal(g.body.entitlements[0].guild_id, t.world.guildId);
    await events.expect('ENTITLEMENT_CREATE');

    // Test entitlements: user and guild owners, partial object, duplicates, delete.
    const testUser = await asBot(`/applications/${app()}/entitlements`, { method: 'POST', body: { sku_id: sword.id, owner_id: owner(t).id, owner_type: 2 } });
    assert.equal(testUser.status, 200, testUser.text);
    assert.deepEqual(testUser.body, {
      id: testUser.body.id,
      sku_id: sword.id,
      application_id: app(),
      user_id: owner(t).id,
      promotion_id: null,
      type: 4,
      deleted: false,
      gift_code_flags: 0,
      consumed: false,
      starts_at: null,
      ends_at: null, // no start or end: valid until deleted
    });
    const [testCreated] = await events.expect('ENTITLEMENT_CREATE');
    assert.deepEqual(testCreated, testUser.body);
    const testGuild = await asBot(`/applications/${app()}/entitlements`, {
      method: 'POST',
      body: { sku_id: sword.id, owner_id: t.world.guildId, owner_type: 1 },
    });
    assert.equal(testGuild.status, 200, testGuild.text);
    assert.equal(testGuild.body.guild_id, t.world.guildId);
    assert.equal(testGuild.body.user_id, undefined);
    await events.expect('ENTITLEMENT_CREATE');
    const dup = await asBot(`/applications/${app()}/entitlements`, { method: 'POST', body: { sku_id: sword.id, owner_id: t.world.guildId, owner_type: 1 } });
    assert.equal(dup.body.code, 40074);
    const badOwner = await asBot(`/applications/${app()}/entitlements`, { method: 'POST', body: { sku_id: sword.id, owner_id: '1', owner_type: 2 } });
    assert.equal(badOwner.body.code, 10013);
    const badType = await asBot(`/applications/${app()}/entitlements`, { method: 'POST', body: { sku_id: sword.id, owner_id: buyer.id, owner_type: 3 } });
    assert.equal(badType.body.code, 50035);
    const badSku = await asBot(`/applications/${app()}/entitlements`, { method: 'POST', body: { sku_id: '123', owner_id: buyer.id, owner_type: 2 } });
    assert.equal(badSku.body.code, 10027);
    const del = await asBot(`/applications/${app()}/entitlements/${testGuild.body.id}`, { method: 'DELETE' });
    assert.equal(del.status, 204, del.text);
    const [deleted] = await events.expect('ENTITLEMENT_DELETE');
    assert.deepEqual(deleted, { ...testGuild.body, deleted: true });
    const notSandbox = await asBot(`/applications/${app()}/entitlements/${swordEnt.id}`, { method: 'DELETE' });
    assert.equal(notSandbox.body.code, 40019);
    const unknown = await asBot(`/applications/${app()}/entitlements/42`);
    assert.equal(unknown.body.code, 10029);

    // Filters.
    const ids = (r: any) => r.body.map((e: any) => e.id);
    const everything = await asBot(`/applications/${app()}/entitlements?exclude_deleted=false&limit=100`);
    assert.ok(ids(everything).includes(testGuild.body.id));
    const sorted = [...ids(everything)].sort((a: string, b: string) => (BigInt(a) < BigInt(b) ? -1 : 1));
    assert.deepEqual(ids(everything), sorted, 'ascending ids');
    const defaults = await asBot(`/applications/${app()}/entitlements`);
    assert.ok(!ids(defaults).includes(testGuild.body.id), 'deleted ones are excluded by default');
    const bySkus = await asBot(`/applications/${app()}/entitlements?sku_ids=${sword.id},${potion.id}&user_id=${buyer.id}`);
    assert.deepEqual(new Set(bySkus.body.map((e: any) => e.sku_id)), new Set([sword.id, potion.id]));
    assert.equal(bySkus.body.length, 4);
    const byGuild = await asBot(`/applications/${app()}/entitlements?guild_id=${t.world.guildId}`);
    assert.deepEqual(ids(byGuild), [g.body.entitlements[0].id]);
    const after = await asBot(`/applications/${app()}/entitlements?after=${sorted[1]}&limit=2`);
    assert.deepEqual(ids(after), sorted.filter((x: string) => BigInt(x) > BigInt(sorted[1])).slice(0, 2));
    const beforeQ = await asBot(`/applications/${app()}/entitlements?before=${sorted[3]}&limit=2&exclude_deleted=false`);
    assert.deepEqual(ids(beforeQ), [sorted[2], sorted[1]]);
    for (const limit of ['0', '101', 'x']) {
      const r = await asBot(`/applications/${app()}/entitlements?limit=${limit}`);
      assert.equal(r.status, 400, `limit=${limit}`);
      assert.equal(r.body.code, 50035);
    }
    const mine = await t.api('/users/@me/entitlements', { token: buyer.token });
    assert.ok(ids(mine).includes(swordEnt.id) && ids(mine).includes(potionEnt.id));
    const mineForApp = await t.api(`/users/@me/applications/${app()}/entitlements`, { token: buyer.token });
    assert.ok(!ids(mineForApp).includes(potionEnt.id), 'consumed ones are hidden by default');
    await events.none();
  });

  test('premium buttons need a published SKU of the app; callback type 10 still works', T, async () => {
    const sku = await createSku(t, { name: 'Premium Button SKU', type: 2, price: 100, published: true });
    const draft = await createSku(t, { name: 'Unpublished', type: 2, price: 100 });
    const post = (skuId: string) =>
      asBot(`/channels/${t.world.textChannelId}/messages`, {
        method: 'POST',
        body: { content: 'buy', components: [{ type: 1, components: [{ type: 2, style: 6, sku_id: skuId }] }] },
      });
    const ok = await post(sku.id);
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.components[0].components[0].sku_id, sku.id);
    for (const bad of [draft.id, '123456789']) {
      const r = await post(bad);
      assert.equal(r.status, 400, r.text);
      assert.equal(r.body.errors.components[0].components[0].sku_id._errors[0].code, 'BUTTON_COMPONENT_INVALID_SKU');
    }

    // Interactions carry the invoker's live entitlements; responses may hold premium buttons; type 10 still works.
    const cmd = await asBot(`/applications/${app()}/commands`, { method: 'POST', body: { name: 'shop', description: 'open the shop' } });
    assert.ok(cmd.status === 200 || cmd.status === 201, cmd.text);
    const owned = await t.api(`/store/skus/${sku.id}/purchase`, { method: 'POST', token: bob(t).token, body: {} });
    assert.equal(owned.status, 200, owned.text);
    await events.expect('ENTITLEMENT_CREATE');
    const invoke = async () => {
      const from = gw.frames.length;
      const r = await t.api('/interactions', {
        method: 'POST',
        token: bob(t).token,
        body: {
          type: 2,
          application_id: app(),
          guild_id: t.world.guildId,
          channel_id: t.world.textChannelId,
          session_id: 's',
          nonce: String(Date.now()),
          data: { id: cmd.body.id, name: 'shop', type: 1, version: cmd.body.version },
        },
      });
      assert.equal(r.status, 204, r.text);
      return (await gw.wait((f) => f.t === 'INTERACTION_CREATE' && gw.frames.indexOf(f) >= from)).d;
    };
    const i1 = await invoke();
    assert.ok(
      i1.entitlements.some((e: any) => e.id === owned.body.entitlements[0].id && e.sku_id === sku.id && e.user_id === bob(t).id),
      JSON.stringify(i1.entitlements),
    );
    assert.ok(i1.entitlements.every((e: any) => e.application_id === app() && !e.deleted && !e.consumed));
    const reply = await t.api(`/interactions/${i1.id}/${i1.token}/callback`, {
      method: 'POST',
      body: { type: 4, data: { content: 'upgrade?', components: [{ type: 1, components: [{ type: 2, style: 6, sku_id: sku.id }] }] } },
    });
    assert.equal(reply.status, 204, reply.text);
    const i2 = await invoke();
    const badReply = await t.api(`/interactions/${i2.id}/${i2.token}/callback`, {
      method: 'POST',
      body: { type: 4, data: { components: [{ type: 1, components: [{ type: 2, style: 6, sku_id: draft.id }] }] } },
    });
    assert.equal(badReply.status, 400, badReply.text);
    assert.equal(badReply.body.errors.data.components[0].components[0].sku_id._errors[0].code, 'BUTTON_COMPONENT_INVALID_SKU');
    const premiumRequired = await t.api(`/interactions/${i2.id}/${i2.token}/callback`, { method: 'POST', body: { type: 10 } });
    assert.equal(premiumRequired.status, 204, premiumRequired.text);
    await events.none();
  });
});

describe('premium apps: the 2024-10 entitlement migration', () => {
  let t: TestServer;
  let gw: RawGateway;
  let events: EventCursor;
  before(async () => {
    t = await startTestServer({ overrides: { dev: true } });
    ({ gw, events } = await bootWithBot(t));
  });
  after(async () => {
    gw?.close();
    await t?.close();
  });

  test('type-8 entitlements renew with ENTITLEMENT_UPDATE before the window and migrate in place inside it', T, async () => {
    const { basic } = await subscriptionGroup(t);
    const buyer = bob(t);
    await setClock(t, '2024-08-20T12:00:00.000Z');
    const bought = await t.api(`/store/skus/${basic.id}/purchase`, { method: 'POST', token: buyer.token, body: {} });
    assert.equal(bought.status, 200, bought.text);
    const anchor = Date.parse(bought.body.subscription.current_period_start);
    const ent = bought.body.entitlements[0];
    const legacy = {
      id: ent.id,
      sku_id: basic.id,
      application_id: t.world.applicationId,
      user_id: buyer.id,
      promotion_id: null,
      type: 8,
      deleted: false,
      gift_code_flags: 0,
      consumed: false,
      starts_at: isoMicro(anchor),
      ends_at: isoMicro(addMonths(anchor, 1)),
      subscription_id: bought.body.subscription.id,
    };
    assert.deepEqual(ent, legacy);
    const [, created] = await events.expect('SUBSCRIPTION_CREATE', 'ENTITLEMENT_CREATE', 'SUBSCRIPTION_UPDATE');
    assert.deepEqual(created, legacy);

    // 2024-09-20: before the window, the old behaviour: ends_at moves to the new period end.
    await advance(t, addMonths(anchor, 1) - now(t) + 1000);
    const [extended, renewed] = await events.expect('ENTITLEMENT_UPDATE', 'SUBSCRIPTION_UPDATE');
    assert.deepEqual(extended, { ...legacy, ends_at: isoMicro(addMonths(anchor, 2)) });
    assert.equal(renewed.current_period_end, isoMicro(addMonths(anchor, 2)));

    // 2024-10-20: inside the window: the same entitlement becomes type 1 with ends_at null, announced as a new CREATE.
    await advance(t, addMonths(anchor, 2) - now(t) + 1000);
    const [migrated, renewed2] = await events.expect('ENTITLEMENT_CREATE', 'SUBSCRIPTION_UPDATE');
    assert.deepEqual(migrated, { ...legacy, type: 1, ends_at: null });
    assert.equal(renewed2.status, 0);
    assert.deepEqual(renewed2.entitlement_ids, [ent.id]);
    const stored = await t.api(`/applications/${t.world.applicationId}/entitlements/${ent.id}`, { token: t.world.botToken, bot: true });
    assert.deepEqual(stored.body, { ...legacy, type: 1, ends_at: null });

    // 2024-11-20: an ordinary renewal again.
    await advance(t, addMonths(anchor, 3) - now(t) + 1000);
    await events.expect('SUBSCRIPTION_UPDATE');

    // New purchases inside the window are type 1 from the start (another user: the owner).
    await setClock(t, '2024-10-05T08:00:00.000Z');
    const { premium } = await subscriptionGroup(t);
    const inWindow = await t.api(`/store/skus/${premium.id}/purchase`, { method: 'POST', token: owner(t).token, body: {} });
    assert.equal(inWindow.status, 200, inWindow.text);
    assert.deepEqual([inWindow.body.entitlements[0].type, inWindow.body.entitlements[0].ends_at], [1, null]);
    await events.expect('SUBSCRIPTION_CREATE', 'ENTITLEMENT_CREATE', 'SUBSCRIPTION_UPDATE');
  });
});

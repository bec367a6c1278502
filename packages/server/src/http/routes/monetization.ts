import { z } from 'zod';
import { Routes, created, noContent, type Call } from '../router.js';
import { parseBody, qBool, qInt, snowflake } from '../../core/validation.js';
import { fieldError } from '../../core/errors.js';
import { isSnowflake } from '@accord/protocol';
import { getApplication } from '../../services/identity/applications.js';
import {
  consumeEntitlement,
  createTestEntitlement,
  deleteTestEntitlement,
  listEntitlements,
  requireEntitlement,
  userEntitlements,
} from '../../services/commerce/entitlements.js';
import { MonetizationErrors as ME, SkuType } from '../../services/commerce/model.js';
import { createSku, isPublished, listSkus, requireAppAccess, requireSku, updateSku } from '../../services/commerce/skus.js';
import {
  cancelSubscription,
  changeSubscriptionSku,
  discountFor,
  getSkuSubscription,
  getSubscription,
  listSkuSubscriptions,
  purchaseSku,
  resumeSubscription,
  userPurchases,
  userSubscriptions,
} from '../../services/commerce/subscriptions.js';
import { entitlementWire, purchaseWire, skuWire, storeSkuWire, subscriptionWire } from '../../wire/commerce.js';

/**
 * Premium apps. App side (bot, owner, or a bearer token of the app with `applications.entitlements`): SKUs,
 * entitlements, subscriptions. Person side (user token; the web client's store): purchase, own entitlements and
 * subscriptions, cancel / resume / change plan, payments. Accord's choices where the platform's user routes are not
 * public: `PATCH /users/@me/subscriptions/{id} {sku_id}` changes plan, `POST …/cancel` and `POST …/resume`.
 */

const snowflakeList = z.preprocess(
  (v) =>
    v === undefined || v === ''
      ? undefined
      : (Array.isArray(v) ? v.join(',') : String(v))
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
  z.array(snowflake).max(100).optional(),
);

const EntitlementsQuery = z.object({
  user_id: snowflake.optional(),
  sku_ids: snowflakeList,
  before: snowflake.optional(),
  after: snowflake.optional(),
  limit: qInt(1, 100),
  guild_id: snowflake.optional(),
  exclude_ended: qBool,
  exclude_deleted: qBool,
  only_active: qBool,
});

const TestEntitlementBody = z.object({
  sku_id: snowflake,
  owner_id: snowflake,
  owner_type: z.preprocess((v) => (typeof v === 'string' && /^\d$/.test(v) ? Number(v) : v), z.literal([1, 2])),
});

const SkuCreateBody = z.object({
  name: z.string().min(1).max(100),
  type: z.literal([SkuType.DURABLE, SkuType.CONSUMABLE, SkuType.SUBSCRIPTION]),
  slug: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[a-z0-9-]+$/, { message: 'Lowercase letters, digits and dashes only.' })
    .optional(),
  flags: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .optional(),
  price: z.number().int().min(0).max(1_000_000_00).optional(),
  currency: z
    .string()
    .regex(/^[a-z]{3}$/, { message: 'A three-letter lowercase currency code.' })
    .optional(),
  subscription_group_id: snowflake.optional(),
  published: z.boolean().optional(),
});

const SkuPatchBody = z.object({
  name: z.string().min(1).max(100).optional(),
  slug: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[a-z0-9-]+$/, { message: 'Lowercase letters, digits and dashes only.' })
    .optional(),
  price: z.number().int().min(0).max(1_000_000_00).optional(),
  currency: z
    .string()
    .regex(/^[a-z]{3}$/, { message: 'A three-letter lowercase currency code.' })
    .optional(),
  published: z.boolean().optional(),
});

const SubscriptionsQuery = z.object({
  user_id: snowflake.optional(),
  before: snowflake.optional(),
  after: snowflake.optional(),
  limit: qInt(1, 100),
});

const PurchaseBody = z.object({ guild_id: snowflake.optional(), test_mode: z.boolean().optional() });
const PlanBody = z.object({ sku_id: snowflake });
const PageQuery = z.object({ before: snowflake.optional(), after: snowflake.optional(), limit: qInt(1, 100) });
const UserEntitlementsQuery = z.object({
  application_id: snowflake.optional(),
  sku_ids: snowflakeList,
  exclude_consumed: qBool,
  exclude_ended: qBool,
});

/** The SKU of a /skus/{sku_id} route, checked against the caller's app. */
async function skuOfCaller(call: Call, skuId: string) {
  const sku = await requireSku(call.ctx, skuId);
  await requireAppAccess(call.ctx, call.actor, sku.application_id);
  return sku;
}

export default new Routes()
  // ---- SKUs (owner creates and publishes; bot and owner list) ----
  .get('/applications/{application_id}/skus', 'any', async (call) => {
    const app = await requireAppAccess(call.ctx, call.actor, call.params.application_id);
    return (await listSkus(call.ctx, app.id)).map(skuWire);
  })
  .post('/applications/{application_id}/skus', 'any', async (call) => {
    const app = await requireAppAccess(call.ctx, call.actor, call.params.application_id);
    const b = parseBody(SkuCreateBody, call.body);
    const { sku } = await createSku(call.ctx, app, b);
    return created(storeSkuWire(sku, 0));
  })
  .patch('/applications/{application_id}/skus/{sku_id}', 'any', async (call) => {
    const app = await requireAppAccess(call.ctx, call.actor, call.params.application_id);
    const sku = await requireSku(call.ctx, call.params.sku_id, app.id);
    return storeSkuWire(await updateSku(call.ctx, sku, parseBody(SkuPatchBody, call.body)), 0);
  })

  // ---- Entitlements (app side) ----
  .get('/applications/{application_id}/entitlements', 'any', async (call) => {
    const app = await requireAppAccess(call.ctx, call.actor, call.params.application_id);
    const q = parseBody(EntitlementsQuery, call.query);
    const userId = call.actor.kind === 'bearer' ? call.actor.user.id : q.user_id;
    const list = await listEntitlements(call.ctx, app.id, {
      ...q,
      user_id: userId,
      limit: q.limit ?? 100,
      exclude_ended: q.exclude_ended ?? false,
      exclude_deleted: q.exclude_deleted ?? true,
    });
    return list.map((e) => entitlementWire(e));
  })
  .post('/applications/{application_id}/entitlements', 'any', async (call) => {
    const app = await requireAppAccess(call.ctx, call.actor, call.params.application_id);
    const b = parseBody(TestEntitlementBody, call.body);
    return entitlementWire(await createTestEntitlement(call.ctx, app, b), { partial: true });
  })
  .get('/applications/{application_id}/entitlements/{entitlement_id}', 'any', async (call) => {
    const app = await requireAppAccess(call.ctx, call.actor, call.params.application_id);
    const e = await requireEntitlement(call.ctx, app.id, call.params.entitlement_id);
    if (call.actor.kind === 'bearer' && e.user_id !== call.actor.user.id) throw ME.unknownEntitlement();
    return entitlementWire(e);
  })
  .delete('/applications/{application_id}/entitlements/{entitlement_id}', 'any', async (call) => {
    const app = await requireAppAccess(call.ctx, call.actor, call.params.application_id);
    if (call.actor.kind === 'bearer') {
      const e = await requireEntitlement(call.ctx, app.id, call.params.entitlement_id);
      if (e.user_id !== call.actor.user.id) throw ME.unknownEntitlement();
    }
    await deleteTestEntitlement(call.ctx, app, call.params.entitlement_id);
    return noContent();
  })
  .post('/applications/{application_id}/entitlements/{entitlement_id}/consume', 'any', async (call) => {
    const app = await requireAppAccess(call.ctx, call.actor, call.params.application_id);
    if (call.actor.kind === 'bearer') {
      const e = await requireEntitlement(call.ctx, app.id, call.params.entitlement_id);
      if (e.user_id !== call.actor.user.id) throw ME.unknownEntitlement();
    }
    await consumeEntitlement(call.ctx, app, call.params.entitlement_id);
    return noContent();
  })

  // ---- Subscriptions (app side) ----
  .get('/skus/{sku_id}/subscriptions', 'any', async (call) => {
    const sku = await skuOfCaller(call, call.params.sku_id);
    const q = parseBody(SubscriptionsQuery, call.query);
    const userId = call.actor.kind === 'bearer' ? call.actor.user.id : q.user_id;
    if (!userId) throw fieldError('user_id', 'BASE_TYPE_REQUIRED', 'This field is required');
    return (await listSkuSubscriptions(call.ctx, sku, { ...q, user_id: userId, limit: q.limit ?? 50 })).map((s) => subscriptionWire(s));
  })
  .get('/skus/{sku_id}/subscriptions/{subscription_id}', 'any', async (call) => {
    const sku = await skuOfCaller(call, call.params.sku_id);
    const sub = await getSkuSubscription(call.ctx, sku, call.params.subscription_id);
    if (call.actor.kind === 'bearer' && sub.user_id !== call.actor.user.id) throw ME.unknownSubscription();
    return subscriptionWire(sub);
  })

  // ---- The person's side ----
  .get('/store/applications/{application_id}/skus', 'user', async (call) => {
    const app = isSnowflake(call.params.application_id) ? await getApplication(call.ctx, call.params.application_id) : null;
    if (!app) throw ME.unknownSku();
    const d = discountFor(app, call.actor.user.id);
    const skus = (await listSkus(call.ctx, app.id)).filter((s) => s.type !== SkuType.SUBSCRIPTION_GROUP && (isPublished(s) || d.percent === 100));
    return skus.map((s) => storeSkuWire(s, d.percent));
  })
  .post('/store/skus/{sku_id}/purchase', 'user', async (call) => {
    const r = await purchaseSku(call.ctx, call.actor.user, call.params.sku_id, parseBody(PurchaseBody, call.body));
    return {
      entitlements: r.entitlements.map((e) => entitlementWire(e)),
      ...(r.subscription ? { subscription: subscriptionWire(r.subscription) } : {}),
      payment: purchaseWire(r.purchase),
    };
  })
  .get('/users/@me/entitlements', 'user', async (call) => {
    const q = parseBody(UserEntitlementsQuery, call.query);
    const list = await userEntitlements(call.ctx, call.actor.user.id, {
      applicationId: q.application_id,
      skuIds: q.sku_ids,
      excludeConsumed: q.exclude_consumed ?? false,
      excludeEnded: q.exclude_ended ?? false,
    });
    return list.map((e) => entitlementWire(e));
  })
  .get('/users/@me/applications/{application_id}/entitlements', 'user', async (call) => {
    const appId = call.params.application_id;
    if (!isSnowflake(appId)) throw ME.unknownEntitlement();
    if (call.actor.kind === 'bearer' && call.actor.applicationId !== appId) return [];
    const q = parseBody(UserEntitlementsQuery, call.query);
    const list = await userEntitlements(call.ctx, call.actor.user.id, {
      applicationId: appId,
      skuIds: q.sku_ids,
      excludeConsumed: q.exclude_consumed ?? true,
      excludeEnded: q.exclude_ended ?? false,
    });
    return list.map((e) => entitlementWire(e));
  })
  .get('/users/@me/subscriptions', 'user', async (call) => {
    const q = parseBody(z.object({ application_id: snowflake.optional() }), call.query);
    return (await userSubscriptions(call.ctx, call.actor.user.id, q.application_id)).map((s) => subscriptionWire(s));
  })
  .get('/users/@me/subscriptions/{subscription_id}', 'user', async (call) => {
    const sub = await getSubscription(call.ctx, call.params.subscription_id);
    if (!sub || sub.user_id !== call.actor.user.id) throw ME.unknownSubscription();
    return subscriptionWire(sub);
  })
  .patch('/users/@me/subscriptions/{subscription_id}', 'user', async (call) => {
    const b = parseBody(PlanBody, call.body);
    return subscriptionWire(await changeSubscriptionSku(call.ctx, call.actor.user, call.params.subscription_id, b.sku_id));
  })
  .post('/users/@me/subscriptions/{subscription_id}/cancel', 'user', async (call) =>
    subscriptionWire(await cancelSubscription(call.ctx, call.actor.user, call.params.subscription_id)),
  )
  .post('/users/@me/subscriptions/{subscription_id}/resume', 'user', async (call) =>
    subscriptionWire(await resumeSubscription(call.ctx, call.actor.user, call.params.subscription_id)),
  )
  .get('/users/@me/billing/payments', 'user', async (call) => {
    const q = parseBody(PageQuery, call.query);
    return (await userPurchases(call.ctx, call.actor.user.id, { ...q, limit: q.limit ?? 50 })).map(purchaseWire);
  });

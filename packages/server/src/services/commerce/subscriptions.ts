import type { Ctx } from '../context.js';
import { ApiError, Errors, fieldError, formError } from '../../core/errors.js';
import { isSnowflake } from '@accord/protocol';
import type { ApplicationRecord, UserRecord } from '../../store/records.js';
import { getApplication, isTeamMember } from '../identity/applications.js';
import { Emission } from './emit.js';
import { holdsSku, insertEntitlement, saveEntitlement, getEntitlement } from './entitlements.js';
import {
  EntitlementType,
  MIGRATION_START,
  MonetizationErrors as ME,
  SkuType,
  SubscriptionStatus,
  addMonths,
  type EntitlementRecord,
  type PurchaseRecord,
  type SkuRecord,
  type SubscriptionRecord,
} from './model.js';
import { getSku, isGuildSku, isPublished, requireSku } from './skus.js';
import type { Repos } from '../../store/repos/index.js';

/**
 * Purchases and subscriptions: the person's side (buy, cancel, resume, change plan) and the app's read routes. Every
 * change emits the Gateway events of the reference's sequence table, in order, to the app's bot; entitlement events
 * also go to the webhook-events outbox in the same transaction. Period ends are handled by lifecycle.ts.
 */

/** Team members of an app pay nothing for its SKUs. Accord has no teams yet: the owner is the team. */
export function discountFor(app: ApplicationRecord, userId: string): { percent: number; promotion: string | null } {
  if (isTeamMember(app, userId)) return { percent: 100, promotion: 'team_member' };
  return { percent: 0, promotion: null };
}

function purchaseRecord(
  ctx: Ctx,
  app: ApplicationRecord,
  userId: string,
  sku: SkuRecord,
  kind: string,
  refs: { subscription_id?: string | null; entitlement_id?: string | null },
  opts: { free?: boolean; at?: number } = {},
): PurchaseRecord {
  const d = discountFor(app, userId);
  const percent = opts.free ? 100 : d.percent;
  return {
    id: ctx.ids.next(),
    application_id: app.id,
    user_id: userId,
    sku_id: sku.id,
    subscription_id: refs.subscription_id ?? null,
    entitlement_id: refs.entitlement_id ?? null,
    kind,
    list_price: sku.price,
    amount: Math.round((sku.price * (100 - percent)) / 100),
    currency: sku.currency,
    promotion: opts.free ? 'test_mode' : d.promotion,
    discount_percent: percent,
    created_at: opts.at ?? ctx.clock.now(),
  };
}

export async function insertPurchase(repos: Repos, p: PurchaseRecord): Promise<void> {
  await repos.commerce.insertPurchase(p);
}

/** Writes a subscription change, bumping its version; false when another writer changed it first. */
export async function saveSubscription(repos: Repos, next: SubscriptionRecord, expectedVersion: number): Promise<boolean> {
  return repos.commerce.saveSubscription(next, expectedVersion);
}

/** The entitlement type and end of a platform-managed subscription entitlement starting at `at` (the 2024 migration). */
export function subscriptionEntitlementTerms(at: number, periodEnd: number): { type: number; ends_at: number | null } {
  return at < MIGRATION_START ? { type: EntitlementType.APPLICATION_SUBSCRIPTION, ends_at: periodEnd } : { type: EntitlementType.PURCHASE, ends_at: null };
}

export interface PurchaseInput {
  guild_id?: string;
  test_mode?: boolean;
}

export interface PurchaseResult {
  entitlements: EntitlementRecord[];
  subscription: SubscriptionRecord | null;
  purchase: PurchaseRecord;
}

/** Hook for the lifecycle worker: a new subscription may end before its next wake-up (set by the worker). */
const lifecycleKickers = new WeakMap<Ctx, () => void>();
export const setLifecycleKicker = (ctx: Ctx, kick: (() => void) | null) => (kick ? lifecycleKickers.set(ctx, kick) : lifecycleKickers.delete(ctx));
const kickLifecycle = (ctx: Ctx) => lifecycleKickers.get(ctx)?.();

/**
 * POST /store/skus/{sku_id}/purchase: the fake checkout. Published SKUs only (team members may also buy unpublished
 * ones). Guild SKUs need `guild_id` of a guild the buyer is in. One-time items: a second durable, or a consumable not
 * yet consumed, is 40074 (test mode allows repeating consumables). Subscriptions: one live subscription per group.
 */
export async function purchaseSku(ctx: Ctx, buyer: UserRecord, skuId: string, input: PurchaseInput): Promise<PurchaseResult> {
  const sku = await requireSku(ctx, skuId);
  const app = await getApplication(ctx, sku.application_id);
  if (!app) throw ME.unknownSku();
  const team = discountFor(app, buyer.id).percent === 100;
  if (sku.type === SkuType.SUBSCRIPTION_GROUP || (!isPublished(sku) && !team)) throw ME.invalidSku();
  let guildId: string | null = null;
  if (isGuildSku(sku)) {
    if (!input.guild_id) throw fieldError('guild_id', 'BASE_TYPE_REQUIRED', 'This field is required');
    const member = isSnowflake(input.guild_id) ? await ctx.repos.members.exists(input.guild_id, buyer.id) : false;
    if (!member) throw Errors.unknownGuild();
    guildId = input.guild_id;
  }
  const result =
    sku.type === SkuType.SUBSCRIPTION ? await buySubscription(ctx, app, buyer, sku, guildId) : await buyOnce(ctx, app, buyer, sku, guildId, !!input.test_mode);
  return result;
}

async function buyOnce(
  ctx: Ctx,
  app: ApplicationRecord,
  buyer: UserRecord,
  sku: SkuRecord,
  guildId: string | null,
  testMode: boolean,
): Promise<PurchaseResult> {
  const emission = new Emission(ctx, app.id);
  const result = await ctx.repos.transaction(async (tx) => {
    const repeatable = testMode && sku.type === SkuType.CONSUMABLE;
    if (!repeatable && (await holdsSku(ctx, tx, sku.id, guildId ? { guild_id: guildId } : { user_id: buyer.id }))) throw ME.alreadyGranted();
    const now = ctx.clock.now();
    const e: EntitlementRecord = {
      id: ctx.ids.next(),
      application_id: app.id,
      sku_id: sku.id,
      user_id: buyer.id,
      guild_id: guildId,
      type: testMode ? EntitlementType.TEST_MODE_PURCHASE : EntitlementType.PURCHASE,
      deleted: false,
      consumed: false,
      starts_at: now,
      ends_at: null,
      subscription_id: null,
      promotion_id: null,
      gift_code_flags: 0,
      created_at: now,
    };
    await insertEntitlement(tx, e);
    const p = purchaseRecord(ctx, app, buyer.id, sku, 'one_time', { entitlement_id: e.id }, { free: testMode, at: now });
    await insertPurchase(tx, p);
    await emission.entitlement(tx, 'ENTITLEMENT_CREATE', e);
    return { entitlements: [e], subscription: null, purchase: p };
  });
  await emission.publish();
  return result;
}

/**
 * A new subscription: SUBSCRIPTION_CREATE (status 1, no entitlement yet) → ENTITLEMENT_CREATE (type 1, `ends_at`
 * null; type 8 with the period end before 2024-10-01) → SUBSCRIPTION_UPDATE (entitlement_ids, renewal_sku_ids,
 * status 0). The period is one calendar month from now.
 */
async function buySubscription(ctx: Ctx, app: ApplicationRecord, buyer: UserRecord, sku: SkuRecord, guildId: string | null): Promise<PurchaseResult> {
  const emission = new Emission(ctx, app.id);
  const result = await ctx.repos.transaction(async (tx) => {
    if (await tx.commerce.hasSubscriptionIn(sku.group_id!, buyer.id, guildId, [SubscriptionStatus.ACTIVE, SubscriptionStatus.ENDING]))
      throw ME.alreadyGranted();
    const now = ctx.clock.now();
    const end = addMonths(now, 1);
    const subId = ctx.ids.next();
    const entId = ctx.ids.next();
    const terms = subscriptionEntitlementTerms(now, end);
    const sub: SubscriptionRecord = {
      id: subId,
      application_id: app.id,
      user_id: buyer.id,
      guild_id: guildId,
      group_id: sku.group_id!,
      sku_id: sku.id,
      renewal_sku_id: null,
      entitlement_id: entId,
      status: SubscriptionStatus.ACTIVE,
      period_anchor: now,
      period_index: 0,
      current_period_start: now,
      current_period_end: end,
      canceled_at: null,
      country: null,
      version: 1,
      created_at: now,
    };
    const e: EntitlementRecord = {
      id: entId,
      application_id: app.id,
      sku_id: sku.id,
      user_id: buyer.id,
      guild_id: guildId,
      type: terms.type,
      deleted: false,
      consumed: false,
      starts_at: now,
      ends_at: terms.ends_at,
      subscription_id: subId,
      promotion_id: null,
      gift_code_flags: 0,
      created_at: now,
    };
    await tx.commerce.insertSubscription(sub);
    await insertEntitlement(tx, e);
    const p = purchaseRecord(ctx, app, buyer.id, sku, 'subscription', { subscription_id: subId, entitlement_id: entId }, { at: now });
    await insertPurchase(tx, p);
    emission.subscription('SUBSCRIPTION_CREATE', sub, { status: SubscriptionStatus.INACTIVE, entitlement_ids: [], renewal_sku_ids: null });
    await emission.entitlement(tx, 'ENTITLEMENT_CREATE', e);
    emission.subscription('SUBSCRIPTION_UPDATE', sub);
    return { entitlements: [e], subscription: sub, purchase: p };
  });
  await emission.publish();
  kickLifecycle(ctx);
  return result;
}

/**
 * A subscription moves to another SKU at `start`: its current entitlement ends there (ENTITLEMENT_UPDATE) and a new
 * one for the target SKU begins (ENTITLEMENT_CREATE). Upgrades do this now, scheduled downgrades at renewal.
 */
export async function switchEntitlement(
  ctx: Ctx,
  tx: Repos,
  emission: Emission,
  sub: SubscriptionRecord,
  current: EntitlementRecord | null,
  skuId: string,
  start: number,
  end: number,
): Promise<EntitlementRecord> {
  if (current) {
    const ended = { ...current, ends_at: start };
    await saveEntitlement(tx, ended);
    await emission.entitlement(tx, 'ENTITLEMENT_UPDATE', ended);
  }
  const terms = subscriptionEntitlementTerms(start, end);
  const created: EntitlementRecord = {
    id: ctx.ids.next(),
    application_id: sub.application_id,
    sku_id: skuId,
    user_id: sub.user_id,
    guild_id: sub.guild_id,
    type: terms.type,
    deleted: false,
    consumed: false,
    starts_at: start,
    ends_at: terms.ends_at,
    subscription_id: sub.id,
    promotion_id: null,
    gift_code_flags: 0,
    created_at: ctx.clock.now(),
  };
  await insertEntitlement(tx, created);
  await emission.entitlement(tx, 'ENTITLEMENT_CREATE', created);
  return created;
}

export async function getSubscription(ctx: Ctx, subscriptionId: string, repos: Repos = ctx.repos): Promise<SubscriptionRecord | null> {
  if (!isSnowflake(subscriptionId)) return null;
  return repos.commerce.subscriptionById(subscriptionId);
}

const notActive = (why: string) => formError([{ path: ['subscription'], code: 'SUBSCRIPTION_STATUS_INVALID', message: why }]);

/**
 * Applies a person's change to their subscription in one transaction (retried when the lifecycle worker got there
 * first). `change` saves with `mustSave` and returns the next record, or null for no change.
 */
async function changeOwn(
  ctx: Ctx,
  user: UserRecord,
  subscriptionId: string,
  change: (sub: SubscriptionRecord, tx: Repos, emission: Emission, now: number) => Promise<SubscriptionRecord | null>,
): Promise<SubscriptionRecord> {
  for (let attempt = 0; ; attempt++) {
    const found = await getSubscription(ctx, subscriptionId);
    if (!found || found.user_id !== user.id) throw ME.unknownSubscription();
    const emission = new Emission(ctx, found.application_id);
    const out = await ctx.repos
      .transaction(async (tx) => {
        const sub = (await getSubscription(ctx, subscriptionId, tx))!;
        return (await change(sub, tx, emission, ctx.clock.now())) ?? sub;
      })
      .catch((err) => {
        if (err instanceof Conflict) return null;
        throw err;
      });
    if (out) {
      await emission.publish();
      kickLifecycle(ctx);
      return out;
    }
    if (attempt >= 3) throw new ApiError(409, 0, 'The subscription changed, try again');
  }
}

class Conflict extends Error {}
/** Throws inside a transaction to roll it back when a versioned write lost. */
async function mustSave(repos: Repos, next: SubscriptionRecord, version: number): Promise<void> {
  if (!(await saveSubscription(repos, next, version))) throw new Conflict();
}

/** Cancel: ENDING with `canceled_at`; access continues to the period end, where lifecycle.ts ends it. */
export async function cancelSubscription(ctx: Ctx, user: UserRecord, subscriptionId: string): Promise<SubscriptionRecord> {
  return changeOwn(ctx, user, subscriptionId, async (sub, tx, emission, now) => {
    if (sub.status === SubscriptionStatus.ENDING) return null;
    if (sub.status !== SubscriptionStatus.ACTIVE) throw notActive('The subscription has ended.');
    const next = { ...sub, status: SubscriptionStatus.ENDING, canceled_at: now, renewal_sku_id: null };
    await mustSave(tx, next, sub.version);
    emission.subscription('SUBSCRIPTION_UPDATE', next);
    return { ...next, version: sub.version + 1 };
  });
}

/** Resume before the period end: ACTIVE again, `canceled_at` cleared. */
export async function resumeSubscription(ctx: Ctx, user: UserRecord, subscriptionId: string): Promise<SubscriptionRecord> {
  return changeOwn(ctx, user, subscriptionId, async (sub, tx, emission) => {
    if (sub.status === SubscriptionStatus.ACTIVE) return null;
    if (sub.status !== SubscriptionStatus.ENDING) throw notActive('The subscription has ended.');
    const next = { ...sub, status: SubscriptionStatus.ACTIVE, canceled_at: null };
    await mustSave(tx, next, sub.version);
    emission.subscription('SUBSCRIPTION_UPDATE', next);
    return { ...next, version: sub.version + 1 };
  });
}

/**
 * Change plan within the group. A dearer SKU is an upgrade, applied now: ENTITLEMENT_UPDATE (old `ends_at` = now) →
 * ENTITLEMENT_CREATE (new SKU) → SUBSCRIPTION_UPDATE (sku_ids, entitlement_ids, a new period from now). A cheaper or
 * same-priced SKU is a downgrade: SUBSCRIPTION_UPDATE with `renewal_sku_ids` now, the switch at the next renewal.
 * Choosing the current SKU again drops a scheduled downgrade.
 */
export async function changeSubscriptionSku(ctx: Ctx, user: UserRecord, subscriptionId: string, skuId: string): Promise<SubscriptionRecord> {
  return changeOwn(ctx, user, subscriptionId, async (sub, tx, emission, now) => {
    if (sub.status !== SubscriptionStatus.ACTIVE) throw notActive('Only an active subscription can change plan; resume it first.');
    const target = await getSku(ctx, skuId, tx);
    const app = await tx.applications.byId(sub.application_id);
    const team = !!app && discountFor(app, user.id).percent === 100;
    if (!target || target.type !== SkuType.SUBSCRIPTION || target.group_id !== sub.group_id || (!isPublished(target) && !team)) throw ME.invalidSku();
    if (target.id === sub.sku_id) {
      if (!sub.renewal_sku_id) return null;
      const next = { ...sub, renewal_sku_id: null };
      await mustSave(tx, next, sub.version);
      emission.subscription('SUBSCRIPTION_UPDATE', next);
      return { ...next, version: sub.version + 1 };
    }
    const current = await requireSku(ctx, sub.sku_id, undefined, tx);
    if (target.price <= current.price) {
      const next = { ...sub, renewal_sku_id: target.id };
      await mustSave(tx, next, sub.version);
      emission.subscription('SUBSCRIPTION_UPDATE', next);
      return { ...next, version: sub.version + 1 };
    }
    const old = sub.entitlement_id ? await getEntitlement(ctx, sub.entitlement_id, tx) : null;
    const end = addMonths(now, 1);
    const e = await switchEntitlement(ctx, tx, emission, sub, old, target.id, now, end);
    const next: SubscriptionRecord = {
      ...sub,
      sku_id: target.id,
      entitlement_id: e.id,
      renewal_sku_id: null,
      period_anchor: now,
      period_index: 0,
      current_period_start: now,
      current_period_end: end,
    };
    await mustSave(tx, next, sub.version);
    if (app) await insertPurchase(tx, purchaseRecord(ctx, app, user.id, target, 'upgrade', { subscription_id: sub.id, entitlement_id: e.id }, { at: now }));
    emission.subscription('SUBSCRIPTION_UPDATE', next);
    return { ...next, version: sub.version + 1 };
  });
}

/**
 * A refund (dev route; the platform's support does it): the entitlement is deleted (ENTITLEMENT_DELETE). When it is
 * the current entitlement of a live subscription, the subscription goes with it: SUBSCRIPTION_DELETE with its last
 * state (INACTIVE), after which the subscription routes answer 404.
 */
export async function refundEntitlement(ctx: Ctx, entitlementId: string): Promise<void> {
  const found = await getEntitlement(ctx, entitlementId);
  if (!found || found.deleted) throw ME.unknownEntitlement();
  const emission = new Emission(ctx, found.application_id);
  await ctx.repos.transaction(async (tx) => {
    const e = (await getEntitlement(ctx, entitlementId, tx))!;
    const removed = { ...e, deleted: true };
    await saveEntitlement(tx, removed);
    await emission.entitlement(tx, 'ENTITLEMENT_DELETE', removed);
    const sub = e.subscription_id ? await getSubscription(ctx, e.subscription_id, tx) : null;
    if (sub && sub.entitlement_id === e.id && sub.status !== SubscriptionStatus.INACTIVE) {
      await tx.commerce.deleteSubscription(sub.id);
      emission.subscription('SUBSCRIPTION_DELETE', { ...sub, status: SubscriptionStatus.INACTIVE, renewal_sku_id: null });
    }
  });
  await emission.publish();
}

export interface PageQuery {
  before?: string;
  after?: string;
  limit: number;
}

/**
 * GET /skus/{sku_id}/subscriptions: subscriptions currently on the SKU (or, for a group SKU, on any SKU of the group).
 * Sorted by id ascending; with only `before`, newest first.
 */
export async function listSkuSubscriptions(ctx: Ctx, sku: SkuRecord, q: PageQuery & { user_id?: string }): Promise<SubscriptionRecord[]> {
  return ctx.repos.commerce.subscriptionsPage(sku.type === SkuType.SUBSCRIPTION_GROUP ? 'group_id' : 'sku_id', sku.id, q);
}

export async function getSkuSubscription(ctx: Ctx, sku: SkuRecord, subscriptionId: string): Promise<SubscriptionRecord> {
  const sub = await getSubscription(ctx, subscriptionId);
  if (!sub || (sub.sku_id !== sku.id && sub.group_id !== sku.id)) throw ME.unknownSubscription();
  return sub;
}

export async function userSubscriptions(ctx: Ctx, userId: string, applicationId?: string): Promise<SubscriptionRecord[]> {
  return ctx.repos.commerce.subscriptionsOfUser(userId, applicationId);
}

export async function userPurchases(ctx: Ctx, userId: string, q: PageQuery): Promise<PurchaseRecord[]> {
  return ctx.repos.commerce.purchasesOfUser(userId, q);
}

import type { Ctx } from '../context.js';
import { Errors } from '../../core/errors.js';
import { isSnowflake } from '@accord/protocol';
import type { ApplicationRecord } from '../../store/records.js';
import { Emission } from './emit.js';
import { EntitlementType, MonetizationErrors as ME, SkuType, type EntitlementRecord } from './model.js';
import type { Repos } from '../../store/repos/index.js';
import { requireSku } from './skus.js';

/** Entitlements: the app-side routes (list, get, consume, test entitlements) and the user-side views. */

export interface EntitlementQuery {
  user_id?: string;
  sku_ids?: string[];
  before?: string;
  after?: string;
  limit: number;
  guild_id?: string;
  exclude_ended: boolean;
  exclude_deleted: boolean;
  only_active?: boolean;
}

/**
 * GET /applications/{id}/entitlements. Sorted by id ascending; with only `before`, the `limit` newest before it,
 * newest first (like message history).
 */
export async function listEntitlements(ctx: Ctx, applicationId: string, q: EntitlementQuery): Promise<EntitlementRecord[]> {
  return ctx.repos.commerce.entitlementsPage(applicationId, q, ctx.clock.now());
}

export async function getEntitlement(ctx: Ctx, entitlementId: string, repos: Repos = ctx.repos): Promise<EntitlementRecord | null> {
  if (!isSnowflake(entitlementId)) return null;
  return repos.commerce.entitlementById(entitlementId);
}

export async function requireEntitlement(ctx: Ctx, applicationId: string, entitlementId: string, repos: Repos = ctx.repos): Promise<EntitlementRecord> {
  const e = await getEntitlement(ctx, entitlementId, repos);
  if (!e || e.application_id !== applicationId) throw ME.unknownEntitlement();
  return e;
}

export async function insertEntitlement(repos: Repos, e: EntitlementRecord): Promise<void> {
  await repos.commerce.insertEntitlement(e);
}

export async function saveEntitlement(repos: Repos, e: EntitlementRecord): Promise<void> {
  await repos.commerce.saveEntitlement(e);
}

/** Whether an owner already holds an unconsumed, live entitlement to a SKU (a second grant is 40074). */
export async function holdsSku(
  ctx: Ctx,
  repos: Repos,
  skuId: string,
  owner: { user_id?: string | null; guild_id?: string | null },
  opts: { testOnly?: boolean } = {},
): Promise<boolean> {
  return repos.commerce.holdsLiveSku(skuId, owner, ctx.clock.now(), opts.testOnly ? { type: EntitlementType.TEST_MODE_PURCHASE } : {});
}

/**
 * POST /applications/{id}/entitlements: a test entitlement (type 4) for a user (owner_type 2) or a guild (1), with no
 * start or end (valid until deleted). A second live one for the same SKU and owner is 40074. Fires ENTITLEMENT_CREATE.
 */
export async function createTestEntitlement(
  ctx: Ctx,
  app: ApplicationRecord,
  input: { sku_id: string; owner_id: string; owner_type: 1 | 2 },
): Promise<EntitlementRecord> {
  const sku = await requireSku(ctx, input.sku_id, app.id);
  if (sku.type === SkuType.SUBSCRIPTION_GROUP) throw ME.invalidSku();
  if (input.owner_type === 1) {
    const g = await ctx.repos.guilds.byId(input.owner_id);
    if (!g) throw Errors.unknownGuild();
  } else {
    const u = await ctx.repos.users.byId(input.owner_id);
    if (!u) throw Errors.unknownUser();
  }
  const owner = input.owner_type === 1 ? { guild_id: input.owner_id } : { user_id: input.owner_id };
  const emission = new Emission(ctx, app.id);
  const ent = await ctx.repos.transaction(async (tx) => {
    if (await holdsSku(ctx, tx, sku.id, owner, { testOnly: true })) throw ME.alreadyGranted();
    const e: EntitlementRecord = {
      id: ctx.ids.next(),
      application_id: app.id,
      sku_id: sku.id,
      user_id: owner.user_id ?? null,
      guild_id: owner.guild_id ?? null,
      type: EntitlementType.TEST_MODE_PURCHASE,
      deleted: false,
      consumed: false,
      starts_at: null,
      ends_at: null,
      subscription_id: null,
      promotion_id: null,
      gift_code_flags: 0,
      created_at: ctx.clock.now(),
    };
    await insertEntitlement(tx, e);
    await emission.entitlement(tx, 'ENTITLEMENT_CREATE', e);
    return e;
  });
  await emission.publish();
  return ent;
}

/** DELETE /applications/{id}/entitlements/{eid}: test entitlements only (40019); fires ENTITLEMENT_DELETE. */
export async function deleteTestEntitlement(ctx: Ctx, app: ApplicationRecord, entitlementId: string): Promise<void> {
  const emission = new Emission(ctx, app.id);
  await ctx.repos.transaction(async (tx) => {
    const e = await requireEntitlement(ctx, app.id, entitlementId, tx);
    if (e.deleted) throw ME.unknownEntitlement();
    if (e.type !== EntitlementType.TEST_MODE_PURCHASE) throw ME.onlySandbox();
    const next = { ...e, deleted: true };
    await saveEntitlement(tx, next);
    await emission.entitlement(tx, 'ENTITLEMENT_DELETE', next);
  });
  await emission.publish();
}

/**
 * POST /applications/{id}/entitlements/{eid}/consume: consumables only (40018). Marks it consumed (the user may buy
 * the item again) and fires ENTITLEMENT_UPDATE the first time.
 */
export async function consumeEntitlement(ctx: Ctx, app: ApplicationRecord, entitlementId: string): Promise<void> {
  const emission = new Emission(ctx, app.id);
  await ctx.repos.transaction(async (tx) => {
    const e = await requireEntitlement(ctx, app.id, entitlementId, tx);
    const sku = await requireSku(ctx, e.sku_id, undefined, tx);
    if (sku.type !== SkuType.CONSUMABLE) throw ME.onlyConsumables();
    if (e.consumed) return;
    const next = { ...e, consumed: true };
    await saveEntitlement(tx, next);
    await emission.entitlement(tx, 'ENTITLEMENT_UPDATE', next);
  });
  await emission.publish();
}

/** A user's own entitlements (the official client's GET /users/@me/entitlements), optionally for one app. */
export async function userEntitlements(
  ctx: Ctx,
  userId: string,
  opts: { applicationId?: string; excludeEnded?: boolean; excludeConsumed?: boolean; skuIds?: string[] } = {},
): Promise<EntitlementRecord[]> {
  return ctx.repos.commerce.entitlementsOfUser(userId, opts, ctx.clock.now());
}

/**
 * The `entitlements` of an interaction: the invoking user's and the guild's live entitlements to the app's SKUs
 * (not deleted, not consumed, started and not ended).
 */
export async function interactionEntitlements(ctx: Ctx, applicationId: string, userId: string, guildId: string | null): Promise<EntitlementRecord[]> {
  return ctx.repos.commerce.liveEntitlementsFor(applicationId, userId, guildId, ctx.clock.now());
}

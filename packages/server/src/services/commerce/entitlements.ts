import type { Ctx } from '../context.js';
import { Errors } from '../../core/errors.js';
import { isSnowflake } from '@accord/protocol';
import type { ApplicationRecord } from '../../store/records.js';
import { Emission } from './emit.js';
import { EntitlementType, MonetizationErrors as ME, SkuType, entitlementRow, toEntitlement, type Db, type EntitlementRecord } from './model.js';
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
  const now = ctx.clock.now();
  let query = ctx.db.selectFrom('entitlements').selectAll().where('application_id', '=', applicationId);
  if (q.user_id) query = query.where('user_id', '=', q.user_id);
  if (q.guild_id) query = query.where('guild_id', '=', q.guild_id);
  if (q.sku_ids?.length) query = query.where('sku_id', 'in', q.sku_ids);
  if (q.after) query = query.where('id', '>', q.after);
  if (q.before) query = query.where('id', '<', q.before);
  if (q.exclude_deleted || q.only_active) query = query.where('deleted', '=', 0);
  if (q.exclude_ended || q.only_active) query = query.where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', now)]));
  if (q.only_active) query = query.where((eb) => eb.or([eb('starts_at', 'is', null), eb('starts_at', '<=', now)]));
  const newestFirst = !!q.before && !q.after;
  const rows = await query.orderBy('id', newestFirst ? 'desc' : 'asc').limit(q.limit).execute();
  return rows.map(toEntitlement);
}

export async function getEntitlement(ctx: Ctx, entitlementId: string, db: Db = ctx.db): Promise<EntitlementRecord | null> {
  if (!isSnowflake(entitlementId)) return null;
  const row = await db.selectFrom('entitlements').selectAll().where('id', '=', entitlementId).executeTakeFirst();
  return row ? toEntitlement(row) : null;
}

export async function requireEntitlement(ctx: Ctx, applicationId: string, entitlementId: string, db: Db = ctx.db): Promise<EntitlementRecord> {
  const e = await getEntitlement(ctx, entitlementId, db);
  if (!e || e.application_id !== applicationId) throw ME.unknownEntitlement();
  return e;
}

export async function insertEntitlement(db: Db, e: EntitlementRecord): Promise<void> {
  await db.insertInto('entitlements').values(entitlementRow(e)).execute();
}

export async function saveEntitlement(db: Db, e: EntitlementRecord): Promise<void> {
  const { id, ...rest } = entitlementRow(e);
  await db.updateTable('entitlements').set(rest).where('id', '=', id).execute();
}

/** Whether an owner already holds an unconsumed, live entitlement to a SKU (a second grant is 40074). */
export async function holdsSku(ctx: Ctx, db: Db, skuId: string, owner: { user_id?: string | null; guild_id?: string | null }, opts: { testOnly?: boolean } = {}): Promise<boolean> {
  let q = db.selectFrom('entitlements').select('id').where('sku_id', '=', skuId).where('deleted', '=', 0).where('consumed', '=', 0)
    .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', ctx.clock.now())]));
  q = owner.guild_id ? q.where('guild_id', '=', owner.guild_id) : q.where('user_id', '=', owner.user_id ?? '0').where('guild_id', 'is', null);
  if (opts.testOnly) q = q.where('type', '=', EntitlementType.TEST_MODE_PURCHASE);
  return !!(await q.executeTakeFirst());
}

/**
 * POST /applications/{id}/entitlements: a test entitlement (type 4) for a user (owner_type 2) or a guild (1), with no
 * start or end (valid until deleted). A second live one for the same SKU and owner is 40074. Fires ENTITLEMENT_CREATE.
 */
export async function createTestEntitlement(ctx: Ctx, app: ApplicationRecord, input: { sku_id: string; owner_id: string; owner_type: 1 | 2 }): Promise<EntitlementRecord> {
  const sku = await requireSku(ctx, input.sku_id, app.id);
  if (sku.type === SkuType.SUBSCRIPTION_GROUP) throw ME.invalidSku();
  if (input.owner_type === 1) {
    const g = await ctx.db.selectFrom('guilds').select('id').where('id', '=', input.owner_id).executeTakeFirst();
    if (!g) throw Errors.unknownGuild();
  } else {
    const u = await ctx.db.selectFrom('users').select('id').where('id', '=', input.owner_id).executeTakeFirst();
    if (!u) throw Errors.unknownUser();
  }
  const owner = input.owner_type === 1 ? { guild_id: input.owner_id } : { user_id: input.owner_id };
  const emission = new Emission(ctx, app.id);
  const ent = await ctx.db.transaction().execute(async (trx) => {
    if (await holdsSku(ctx, trx, sku.id, owner, { testOnly: true })) throw ME.alreadyGranted();
    const e: EntitlementRecord = {
      id: ctx.ids.next(), application_id: app.id, sku_id: sku.id, user_id: owner.user_id ?? null, guild_id: owner.guild_id ?? null,
      type: EntitlementType.TEST_MODE_PURCHASE, deleted: false, consumed: false, starts_at: null, ends_at: null,
      subscription_id: null, promotion_id: null, gift_code_flags: 0, created_at: ctx.clock.now(),
    };
    await insertEntitlement(trx, e);
    await emission.entitlement(trx, 'ENTITLEMENT_CREATE', e);
    return e;
  });
  await emission.publish();
  return ent;
}

/** DELETE /applications/{id}/entitlements/{eid}: test entitlements only (40019); fires ENTITLEMENT_DELETE. */
export async function deleteTestEntitlement(ctx: Ctx, app: ApplicationRecord, entitlementId: string): Promise<void> {
  const emission = new Emission(ctx, app.id);
  await ctx.db.transaction().execute(async (trx) => {
    const e = await requireEntitlement(ctx, app.id, entitlementId, trx);
    if (e.deleted) throw ME.unknownEntitlement();
    if (e.type !== EntitlementType.TEST_MODE_PURCHASE) throw ME.onlySandbox();
    const next = { ...e, deleted: true };
    await saveEntitlement(trx, next);
    await emission.entitlement(trx, 'ENTITLEMENT_DELETE', next);
  });
  await emission.publish();
}

/**
 * POST /applications/{id}/entitlements/{eid}/consume: consumables only (40018). Marks it consumed (the user may buy
 * the item again) and fires ENTITLEMENT_UPDATE the first time.
 */
export async function consumeEntitlement(ctx: Ctx, app: ApplicationRecord, entitlementId: string): Promise<void> {
  const emission = new Emission(ctx, app.id);
  await ctx.db.transaction().execute(async (trx) => {
    const e = await requireEntitlement(ctx, app.id, entitlementId, trx);
    const sku = await requireSku(ctx, e.sku_id, undefined, trx);
    if (sku.type !== SkuType.CONSUMABLE) throw ME.onlyConsumables();
    if (e.consumed) return;
    const next = { ...e, consumed: true };
    await saveEntitlement(trx, next);
    await emission.entitlement(trx, 'ENTITLEMENT_UPDATE', next);
  });
  await emission.publish();
}

/** A user's own entitlements (the official client's GET /users/@me/entitlements), optionally for one app. */
export async function userEntitlements(ctx: Ctx, userId: string, opts: { applicationId?: string; excludeEnded?: boolean; excludeConsumed?: boolean; skuIds?: string[] } = {}): Promise<EntitlementRecord[]> {
  let q = ctx.db.selectFrom('entitlements').selectAll().where('user_id', '=', userId).where('deleted', '=', 0);
  if (opts.applicationId) q = q.where('application_id', '=', opts.applicationId);
  if (opts.skuIds?.length) q = q.where('sku_id', 'in', opts.skuIds);
  if (opts.excludeConsumed) q = q.where('consumed', '=', 0);
  if (opts.excludeEnded) q = q.where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', ctx.clock.now())]));
  return (await q.orderBy('id').limit(1000).execute()).map(toEntitlement);
}

/**
 * The `entitlements` of an interaction: the invoking user's and the guild's live entitlements to the app's SKUs
 * (not deleted, not consumed, started and not ended).
 */
export async function interactionEntitlements(ctx: Ctx, applicationId: string, userId: string, guildId: string | null): Promise<EntitlementRecord[]> {
  const now = ctx.clock.now();
  const rows = await ctx.db.selectFrom('entitlements').selectAll()
    .where('application_id', '=', applicationId).where('deleted', '=', 0).where('consumed', '=', 0)
    .where((eb) => eb.or(guildId ? [eb('user_id', '=', userId), eb('guild_id', '=', guildId)] : [eb('user_id', '=', userId)]))
    .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', now)]))
    .where((eb) => eb.or([eb('starts_at', 'is', null), eb('starts_at', '<=', now)]))
    .orderBy('id').limit(100).execute();
  return rows.map(toEntitlement);
}

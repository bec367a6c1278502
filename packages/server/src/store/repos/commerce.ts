import { Repo } from './repo.js';
import {
  entitlementRow,
  toEntitlement,
  toPurchase,
  toSku,
  toSubscription,
  type EntitlementRecord,
  type PurchaseRecord,
  type SkuRecord,
  type SubscriptionRecord,
} from './commerce-records.js';

/** SKUs, entitlements and subscriptions. */
export class CommerceRepo extends Repo {
  /** One SKU, or null. */
  async skuById(id: string): Promise<SkuRecord | null> {
    const row = await this.db.selectFrom('skus').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toSku(row) : null;
  }

  /** An application's SKUs (groups included), by id. */
  async skusOfApp(applicationId: string): Promise<SkuRecord[]> {
    return (await this.db.selectFrom('skus').selectAll().where('application_id', '=', applicationId).orderBy('id').execute()).map(toSku);
  }

  /** The SKUs of a subscription group. */
  async skusInGroup(groupId: string): Promise<SkuRecord[]> {
    return (await this.db.selectFrom('skus').selectAll().where('group_id', '=', groupId).execute()).map(toSku);
  }

  /** Inserts a SKU. */
  async insertSku(sku: SkuRecord): Promise<void> {
    await this.db.insertInto('skus').values(sku).execute();
  }

  /** Applies a partial SKU update. */
  async patchSku(id: string, values: Partial<SkuRecord>): Promise<void> {
    await this.db.updateTable('skus').set(values).where('id', '=', id).execute();
  }

  /** The SKUs among `ids` (of this application when given): id, flags and type. */
  async skuFlagsAmong(ids: string[], applicationId: string | null): Promise<{ id: string; flags: number; type: number }[]> {
    if (!ids.length) return [];
    let q = this.db.selectFrom('skus').select(['id', 'flags', 'type']).where('id', 'in', ids);
    if (applicationId) q = q.where('application_id', '=', applicationId);
    return (await q.execute()).map((r) => ({ id: String(r.id), flags: Number(r.flags), type: Number(r.type) }));
  }

  /**
   * One page of an application's entitlements, filtered; ascending by id, or with only `before` the newest before it
   * first. `now` decides what has ended or not started.
   */
  async entitlementsPage(
    applicationId: string,
    q: {
      user_id?: string;
      guild_id?: string;
      sku_ids?: string[];
      before?: string;
      after?: string;
      limit: number;
      exclude_ended: boolean;
      exclude_deleted: boolean;
      only_active?: boolean;
    },
    now: number,
  ): Promise<EntitlementRecord[]> {
    let query = this.db.selectFrom('entitlements').selectAll().where('application_id', '=', applicationId);
    if (q.user_id) query = query.where('user_id', '=', q.user_id);
    if (q.guild_id) query = query.where('guild_id', '=', q.guild_id);
    if (q.sku_ids?.length) query = query.where('sku_id', 'in', q.sku_ids);
    if (q.after) query = query.where('id', '>', q.after);
    if (q.before) query = query.where('id', '<', q.before);
    if (q.exclude_deleted || q.only_active) query = query.where('deleted', '=', 0);
    if (q.exclude_ended || q.only_active) query = query.where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', now)]));
    if (q.only_active) query = query.where((eb) => eb.or([eb('starts_at', 'is', null), eb('starts_at', '<=', now)]));
    const newestFirst = !!q.before && !q.after;
    return (
      await query
        .orderBy('id', newestFirst ? 'desc' : 'asc')
        .limit(q.limit)
        .execute()
    ).map(toEntitlement);
  }

  /** One entitlement, or null. */
  async entitlementById(id: string): Promise<EntitlementRecord | null> {
    const row = await this.db.selectFrom('entitlements').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toEntitlement(row) : null;
  }

  /** Inserts an entitlement. */
  async insertEntitlement(e: EntitlementRecord): Promise<void> {
    await this.db.insertInto('entitlements').values(entitlementRow(e)).execute();
  }

  /** Rewrites an entitlement. */
  async saveEntitlement(e: EntitlementRecord): Promise<void> {
    const { id, ...rest } = entitlementRow(e);
    await this.db.updateTable('entitlements').set(rest).where('id', '=', id).execute();
  }

  /** Whether an owner (a guild, or a user outside guilds) holds an unconsumed entitlement to a SKU not ended at `now`. */
  async holdsLiveSku(skuId: string, owner: { user_id?: string | null; guild_id?: string | null }, now: number, opts: { type?: number } = {}): Promise<boolean> {
    let q = this.db
      .selectFrom('entitlements')
      .select('id')
      .where('sku_id', '=', skuId)
      .where('deleted', '=', 0)
      .where('consumed', '=', 0)
      .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', now)]));
    q = owner.guild_id ? q.where('guild_id', '=', owner.guild_id) : q.where('user_id', '=', owner.user_id ?? '0').where('guild_id', 'is', null);
    if (opts.type !== undefined) q = q.where('type', '=', opts.type);
    return !!(await q.executeTakeFirst());
  }

  /** A user's entitlements not deleted, by id (at most 1000), filtered by app, SKUs, consumption and end at `now`. */
  async entitlementsOfUser(
    userId: string,
    opts: { applicationId?: string; excludeEnded?: boolean; excludeConsumed?: boolean; skuIds?: string[] },
    now: number,
  ): Promise<EntitlementRecord[]> {
    let q = this.db.selectFrom('entitlements').selectAll().where('user_id', '=', userId).where('deleted', '=', 0);
    if (opts.applicationId) q = q.where('application_id', '=', opts.applicationId);
    if (opts.skuIds?.length) q = q.where('sku_id', 'in', opts.skuIds);
    if (opts.excludeConsumed) q = q.where('consumed', '=', 0);
    if (opts.excludeEnded) q = q.where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', now)]));
    return (await q.orderBy('id').limit(1000).execute()).map(toEntitlement);
  }

  /** The live entitlements (at `now`) of a user and a guild to an app's SKUs, by id, at most 100. */
  async liveEntitlementsFor(applicationId: string, userId: string, guildId: string | null, now: number): Promise<EntitlementRecord[]> {
    const rows = await this.db
      .selectFrom('entitlements')
      .selectAll()
      .where('application_id', '=', applicationId)
      .where('deleted', '=', 0)
      .where('consumed', '=', 0)
      .where((eb) => eb.or(guildId ? [eb('user_id', '=', userId), eb('guild_id', '=', guildId)] : [eb('user_id', '=', userId)]))
      .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', now)]))
      .where((eb) => eb.or([eb('starts_at', 'is', null), eb('starts_at', '<=', now)]))
      .orderBy('id')
      .limit(100)
      .execute();
    return rows.map(toEntitlement);
  }

  /** One subscription, or null. */
  async subscriptionById(id: string): Promise<SubscriptionRecord | null> {
    const row = await this.db.selectFrom('subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toSubscription(row) : null;
  }

  /** Inserts a subscription. */
  async insertSubscription(sub: SubscriptionRecord): Promise<void> {
    await this.db.insertInto('subscriptions').values(sub).execute();
  }

  /** Writes a subscription change, bumping its version; false when another writer changed it first. */
  async saveSubscription(next: SubscriptionRecord, expectedVersion: number): Promise<boolean> {
    const { id, ...rest } = next;
    const r = await this.db
      .updateTable('subscriptions')
      .set({ ...rest, version: expectedVersion + 1 })
      .where('id', '=', id)
      .where('version', '=', expectedVersion)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Whether a user (in this guild, when given) has a subscription of this group in one of `statuses`. */
  async hasSubscriptionIn(groupId: string, userId: string, guildId: string | null, statuses: number[]): Promise<boolean> {
    let live = this.db.selectFrom('subscriptions').select('id').where('group_id', '=', groupId).where('user_id', '=', userId).where('status', 'in', statuses);
    live = guildId ? live.where('guild_id', '=', guildId) : live;
    return !!(await live.executeTakeFirst());
  }

  /** Deletes a subscription. */
  async deleteSubscription(id: string): Promise<void> {
    await this.db.deleteFrom('subscriptions').where('id', '=', id).execute();
  }

  /** One page of the subscriptions on a SKU (`by` sku_id) or a group (`by` group_id); ascending, or newest first with only `before`. */
  async subscriptionsPage(
    by: 'sku_id' | 'group_id',
    skuId: string,
    q: { user_id?: string; before?: string; after?: string; limit: number },
  ): Promise<SubscriptionRecord[]> {
    let query = this.db.selectFrom('subscriptions').selectAll().where(by, '=', skuId);
    if (q.user_id) query = query.where('user_id', '=', q.user_id);
    if (q.after) query = query.where('id', '>', q.after);
    if (q.before) query = query.where('id', '<', q.before);
    const newestFirst = !!q.before && !q.after;
    return (
      await query
        .orderBy('id', newestFirst ? 'desc' : 'asc')
        .limit(q.limit)
        .execute()
    ).map(toSubscription);
  }

  /** A user's subscriptions (to one app when given), by id, at most 500. */
  async subscriptionsOfUser(userId: string, applicationId?: string): Promise<SubscriptionRecord[]> {
    let q = this.db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId);
    if (applicationId) q = q.where('application_id', '=', applicationId);
    return (await q.orderBy('id').limit(500).execute()).map(toSubscription);
  }

  /** Subscriptions in one of `statuses` whose period ended at or before `now`, oldest period end first. */
  async dueSubscriptions(statuses: number[], now: number, limit: number): Promise<SubscriptionRecord[]> {
    return (
      await this.db
        .selectFrom('subscriptions')
        .selectAll()
        .where('status', 'in', statuses)
        .where('current_period_end', '<=', now)
        .orderBy('current_period_end')
        .orderBy('id')
        .limit(limit)
        .execute()
    ).map(toSubscription);
  }

  /** The earliest period end of the subscriptions in one of `statuses`, or null. */
  async nextPeriodEnd(statuses: number[]): Promise<number | null> {
    const row = await this.db
      .selectFrom('subscriptions')
      .select((eb) => eb.fn.min('current_period_end').as('next'))
      .where('status', 'in', statuses)
      .executeTakeFirst();
    return row?.next == null ? null : Number(row.next);
  }

  /** Inserts a purchase. */
  async insertPurchase(p: PurchaseRecord): Promise<void> {
    await this.db.insertInto('purchases').values(p).execute();
  }

  /** One page of a user's purchases, newest first. */
  async purchasesOfUser(userId: string, q: { before?: string; after?: string; limit: number }): Promise<PurchaseRecord[]> {
    let query = this.db.selectFrom('purchases').selectAll().where('user_id', '=', userId);
    if (q.before) query = query.where('id', '<', q.before);
    if (q.after) query = query.where('id', '>', q.after);
    return (await query.orderBy('id', 'desc').limit(q.limit).execute()).map(toPurchase);
  }
}

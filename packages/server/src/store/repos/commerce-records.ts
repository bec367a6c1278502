import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../schema.js';
import { id, idOrNull } from '../schema.js';
import { bool, num, numOrNull } from '../json.js';
import '../tables/monetization.js';

/** Records of the monetization tables (SKUs, entitlements, subscriptions, purchases) and their row mappers. */

/** A database handle or an open transaction. */
export type Db = Kysely<DB> | Transaction<DB>;

export interface SkuRecord {
  id: string;
  application_id: string;
  type: number;
  name: string;
  slug: string;
  flags: number;
  group_id: string | null;
  price: number;
  currency: string;
  created_at: number;
}

export interface EntitlementRecord {
  id: string;
  application_id: string;
  sku_id: string;
  user_id: string | null;
  guild_id: string | null;
  type: number;
  deleted: boolean;
  consumed: boolean;
  starts_at: number | null;
  ends_at: number | null;
  subscription_id: string | null;
  promotion_id: string | null;
  gift_code_flags: number;
  created_at: number;
}

export interface SubscriptionRecord {
  id: string;
  application_id: string;
  user_id: string;
  guild_id: string | null;
  group_id: string;
  sku_id: string;
  renewal_sku_id: string | null;
  entitlement_id: string | null;
  status: number;
  period_anchor: number;
  period_index: number;
  current_period_start: number;
  current_period_end: number;
  canceled_at: number | null;
  country: string | null;
  version: number;
  created_at: number;
}

export interface PurchaseRecord {
  id: string;
  application_id: string;
  user_id: string;
  sku_id: string;
  subscription_id: string | null;
  entitlement_id: string | null;
  kind: string;
  list_price: number;
  amount: number;
  currency: string;
  promotion: string | null;
  discount_percent: number;
  created_at: number;
}

export const toSku = (r: any): SkuRecord => ({
  id: id(r.id),
  application_id: id(r.application_id),
  type: num(r.type),
  name: r.name,
  slug: r.slug,
  flags: num(r.flags),
  group_id: idOrNull(r.group_id),
  price: num(r.price),
  currency: r.currency,
  created_at: num(r.created_at),
});

export const toEntitlement = (r: any): EntitlementRecord => ({
  id: id(r.id),
  application_id: id(r.application_id),
  sku_id: id(r.sku_id),
  user_id: idOrNull(r.user_id),
  guild_id: idOrNull(r.guild_id),
  type: num(r.type),
  deleted: bool(r.deleted),
  consumed: bool(r.consumed),
  starts_at: numOrNull(r.starts_at),
  ends_at: numOrNull(r.ends_at),
  subscription_id: idOrNull(r.subscription_id),
  promotion_id: idOrNull(r.promotion_id),
  gift_code_flags: num(r.gift_code_flags),
  created_at: num(r.created_at),
});

export const toSubscription = (r: any): SubscriptionRecord => ({
  id: id(r.id),
  application_id: id(r.application_id),
  user_id: id(r.user_id),
  guild_id: idOrNull(r.guild_id),
  group_id: id(r.group_id),
  sku_id: id(r.sku_id),
  renewal_sku_id: idOrNull(r.renewal_sku_id),
  entitlement_id: idOrNull(r.entitlement_id),
  status: num(r.status),
  period_anchor: num(r.period_anchor),
  period_index: num(r.period_index),
  current_period_start: num(r.current_period_start),
  current_period_end: num(r.current_period_end),
  canceled_at: numOrNull(r.canceled_at),
  country: r.country ?? null,
  version: num(r.version),
  created_at: num(r.created_at),
});

export const toPurchase = (r: any): PurchaseRecord => ({
  id: id(r.id),
  application_id: id(r.application_id),
  user_id: id(r.user_id),
  sku_id: id(r.sku_id),
  subscription_id: idOrNull(r.subscription_id),
  entitlement_id: idOrNull(r.entitlement_id),
  kind: r.kind,
  list_price: num(r.list_price),
  amount: num(r.amount),
  currency: r.currency,
  promotion: r.promotion ?? null,
  discount_percent: num(r.discount_percent),
  created_at: num(r.created_at),
});

/** Row values for an insert or update (booleans as 0/1). */
export const entitlementRow = (e: EntitlementRecord) => ({ ...e, deleted: e.deleted ? 1 : 0, consumed: e.consumed ? 1 : 0 });

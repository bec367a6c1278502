import type { APISubscription } from 'discord-api-types/v10';
import type { EntitlementRecord, PurchaseRecord, SkuRecord, SubscriptionRecord } from '../store/repos/commerce-records.js';
import type { AccordEntitlement, AccordPurchase, AccordSku, AccordStoreSku } from './extensions.js';
import { dropUndefined } from './drop-undefined.js';

/**
 * Monetization timestamps as the platform writes them in entitlements and subscriptions: ISO 8601 with microseconds
 * and an explicit `+00:00` offset (`2022-09-14T17:00:18.704163+00:00`).
 */
export function isoMicro(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000+00:00');
}
const isoOrNull = (ms: number | null) => (ms == null ? null : isoMicro(ms));

/** The SKU object (docs `resources/sku.mdx`) with the fields real responses carry besides the documented six. */
export function skuWire(s: SkuRecord): AccordSku {
  return {
    id: s.id,
    type: s.type,
    dependent_sku_id: null,
    application_id: s.application_id,
    manifest_labels: null,
    access_type: 1,
    name: s.name,
    features: [],
    release_date: null,
    premium: false,
    slug: s.slug,
    flags: s.flags,
    show_age_gate: false,
  };
}

/** A store listing entry for the purchase UI: the SKU plus its price and, for subscriptions, its group. */
export function storeSkuWire(s: SkuRecord, discountPercent: number): AccordStoreSku {
  return dropUndefined<AccordStoreSku>({
    ...skuWire(s),
    subscription_group_id: s.group_id || undefined,
    price: { amount: s.price, currency: s.currency },
    discount_percent: discountPercent || undefined,
  });
}

/**
 * The entitlement object. `user_id` / `guild_id` / `subscription_id` only when set. `partial`: the answer to creating
 * a test entitlement, which has no `starts_at`/`ends_at` (valid until deleted).
 */
export function entitlementWire(e: EntitlementRecord, opts: { partial?: boolean } = {}): AccordEntitlement {
  return dropUndefined<AccordEntitlement>({
    id: e.id,
    sku_id: e.sku_id,
    application_id: e.application_id,
    user_id: e.user_id || undefined,
    guild_id: e.guild_id || undefined,
    promotion_id: e.promotion_id,
    type: e.type,
    deleted: e.deleted,
    gift_code_flags: e.gift_code_flags,
    consumed: e.consumed,
    // The docs call the test-entitlement answer partial, but the spec's EntitlementResponse requires both (nullable):
    // a test entitlement has neither, so it carries them as null.
    starts_at: opts.partial ? null : isoOrNull(e.starts_at),
    ends_at: opts.partial ? null : isoOrNull(e.ends_at),
    subscription_id: e.subscription_id || undefined,
  });
}

/** Overrides for the intermediate states some events show (SUBSCRIPTION_CREATE before the entitlement exists). */
export interface SubscriptionView {
  status?: number;
  entitlement_ids?: string[];
  renewal_sku_ids?: string[] | null;
}

/**
 * The subscription object. `renewal_sku_ids`: the SKU it renews into (a scheduled downgrade first), null once
 * cancelled or ended. `country` needs a private scope and is never included.
 */
export function subscriptionWire(s: SubscriptionRecord, view: SubscriptionView = {}): APISubscription {
  const renewing = s.status === 0;
  return {
    id: s.id,
    user_id: s.user_id,
    sku_ids: [s.sku_id],
    entitlement_ids: view.entitlement_ids ?? (s.entitlement_id ? [s.entitlement_id] : []),
    renewal_sku_ids: view.renewal_sku_ids !== undefined ? view.renewal_sku_ids : renewing ? [s.renewal_sku_id ?? s.sku_id] : null,
    current_period_start: isoMicro(s.current_period_start),
    current_period_end: isoMicro(s.current_period_end),
    status: view.status ?? s.status,
    canceled_at: isoOrNull(s.canceled_at),
  };
}

/** Accord's payment record (simplified): what a purchase or renewal cost, and why it was discounted. */
export function purchaseWire(p: PurchaseRecord): AccordPurchase {
  return {
    id: p.id,
    application_id: p.application_id,
    sku_id: p.sku_id,
    subscription_id: p.subscription_id,
    entitlement_id: p.entitlement_id,
    kind: p.kind,
    list_price: p.list_price,
    amount: p.amount,
    currency: p.currency,
    promotion: p.promotion,
    discount_percent: p.discount_percent,
    created_at: isoMicro(p.created_at),
  };
}

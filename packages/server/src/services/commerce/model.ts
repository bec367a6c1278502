import { ApiError } from '../../core/errors.js';

/** Enums of wire-values.md §9, records of the monetization tables, and their errors. */

export const SkuType = { DURABLE: 2, CONSUMABLE: 3, SUBSCRIPTION: 5, SUBSCRIPTION_GROUP: 6 } as const;
export const SkuFlags = { AVAILABLE: 1 << 2, GUILD_SUBSCRIPTION: 1 << 7, USER_SUBSCRIPTION: 1 << 8 } as const;
export const EntitlementType = {
  PURCHASE: 1,
  PREMIUM_SUBSCRIPTION: 2,
  DEVELOPER_GIFT: 3,
  TEST_MODE_PURCHASE: 4,
  FREE_PURCHASE: 5,
  USER_GIFT: 6,
  PREMIUM_PURCHASE: 7,
  APPLICATION_SUBSCRIPTION: 8,
  QUEST_REWARD: 10,
} as const;
export const SubscriptionStatus = { ACTIVE: 0, INACTIVE: 1, ENDING: 2 } as const;

/**
 * The 2024 entitlement migration: before this instant platform-managed subscription entitlements were type 8 with
 * `ends_at` at the period end (extended at each renewal). From it on, new ones are type 1 with `ends_at` null, and a
 * type-8 entitlement that renews is migrated in place (the window ran to 2024-11-01; with monthly periods every
 * subscription renews once inside it).
 */
export const MIGRATION_START = Date.UTC(2024, 9, 1);
export const MIGRATION_END = Date.UTC(2024, 10, 1);

export type { Db, EntitlementRecord, PurchaseRecord, SkuRecord, SubscriptionRecord } from '../../store/repos/commerce-records.js';
export { entitlementRow, toEntitlement, toPurchase, toSku, toSubscription } from '../../store/repos/commerce-records.js';

/**
 * Period n of a subscription ends at its anchor plus n + 1 calendar months (UTC); a day past the end of the target
 * month is clamped (Jan 31 → Feb 28/29 → Mar 31: the anchor keeps the day).
 */
export function addMonths(anchorMs: number, months: number): number {
  const d = new Date(anchorMs);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + months;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return Date.UTC(y, m, Math.min(d.getUTCDate(), last), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
}

export const MonetizationErrors = {
  unknownSku: () => new ApiError(404, 10027, 'Unknown SKU'),
  unknownEntitlement: () => new ApiError(404, 10029, 'Unknown Entitlement'),
  /** No JSON code is known for an unknown subscription: the platform's generic 404. */
  unknownSubscription: () => new ApiError(404, 0, '404: Not Found'),
  onlyConsumables: () => new ApiError(400, 40018, 'Only consumable SKUs can be consumed'),
  onlySandbox: () => new ApiError(400, 40019, 'You can only delete sandbox entitlements.'),
  alreadyGranted: () => new ApiError(400, 40074, 'An entitlement has already been granted for this resource'),
  invalidSku: () => new ApiError(400, 50057, 'Invalid SKU'),
};

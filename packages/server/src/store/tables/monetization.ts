/** Tables of migration 006: premium apps (SKUs, entitlements, subscriptions, purchases) and outgoing webhook events. */
type Id = string;
type Ms = number;
type Bool = number;

export interface SkusTable {
  id: Id;
  application_id: Id;
  /** 2 DURABLE, 3 CONSUMABLE, 5 SUBSCRIPTION, 6 SUBSCRIPTION_GROUP (system-made, one per group). */
  type: number;
  name: string;
  slug: string;
  /** AVAILABLE (published) 4, GUILD_SUBSCRIPTION 128, USER_SUBSCRIPTION 256. */
  flags: number;
  /** Subscription SKUs: their group (a type-6 SKU). */
  group_id: Id | null;
  /** List price in minor units (cents). */
  price: number;
  currency: string;
  created_at: Ms;
}

export interface EntitlementsTable {
  id: Id;
  application_id: Id;
  sku_id: Id;
  user_id: Id | null;
  guild_id: Id | null;
  type: number;
  deleted: Bool;
  consumed: Bool;
  starts_at: Ms | null;
  ends_at: Ms | null;
  subscription_id: Id | null;
  promotion_id: Id | null;
  gift_code_flags: number;
  created_at: Ms;
}

export interface SubscriptionsTable {
  id: Id;
  application_id: Id;
  user_id: Id;
  /** Guild subscriptions: the guild the entitlement goes to. */
  guild_id: Id | null;
  group_id: Id;
  sku_id: Id;
  /** A downgrade waiting for the next renewal. */
  renewal_sku_id: Id | null;
  /** The entitlement of the current SKU. */
  entitlement_id: Id | null;
  /** 0 ACTIVE, 1 INACTIVE, 2 ENDING. */
  status: number;
  /** Period n ends at anchor + (n + 1) calendar months (day clamped to the month's length). */
  period_anchor: Ms;
  period_index: number;
  current_period_start: Ms;
  current_period_end: Ms;
  canceled_at: Ms | null;
  country: string | null;
  /** Bumped by every change; lifecycle steps update `WHERE version = ?` so two processes never apply one twice. */
  version: number;
  created_at: Ms;
}

export interface PurchasesTable {
  id: Id;
  application_id: Id;
  user_id: Id;
  sku_id: Id;
  subscription_id: Id | null;
  entitlement_id: Id | null;
  /** one_time | subscription | renewal | upgrade */
  kind: string;
  list_price: number;
  amount: number;
  currency: string;
  /** Why the amount is lower than the list price (`team_member`), or null. */
  promotion: string | null;
  discount_percent: number;
  created_at: Ms;
}

export interface EventWebhookOutboxTable {
  id: Id;
  application_id: Id;
  event_type: string;
  /** The envelope, JSON, exactly as it is signed and sent. */
  body: string;
  /** pending | delivering | delivered | failed | discarded */
  status: string;
  attempts: number;
  next_attempt_at: Ms;
  lease_owner: string | null;
  lease_until: Ms | null;
  first_attempt_at: Ms | null;
  last_attempt_at: Ms | null;
  last_status: number | null;
  last_error: string | null;
  created_at: Ms;
  delivered_at: Ms | null;
  /** Where this event goes instead of the app's `event_webhooks_url` (a lobby's override); null for the app's URL. */
  url?: string | null;
}

export interface EventWebhookDeliveriesTable {
  id: Id;
  application_id: Id;
  event_id: Id;
  event_type: string;
  attempt: number;
  url: string;
  ok: Bool;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  created_at: Ms;
}

export interface EventWebhookHealthTable {
  application_id: Id;
  consecutive_failures: number;
  last_success_at: Ms | null;
  last_failure_at: Ms | null;
  disabled_at: Ms | null;
}

declare module '../schema.js' {
  interface DB {
    skus: SkusTable;
    entitlements: EntitlementsTable;
    subscriptions: SubscriptionsTable;
    purchases: PurchasesTable;
    event_webhook_outbox: EventWebhookOutboxTable;
    event_webhook_deliveries: EventWebhookDeliveriesTable;
    event_webhook_health: EventWebhookHealthTable;
  }
}

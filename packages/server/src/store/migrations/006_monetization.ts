import type { Kysely } from 'kysely';

/**
 * Premium apps and outgoing webhook events: SKUs (with subscription groups), entitlements, subscriptions, the
 * purchases behind them (amount and promotion, for the team-member discount), and the durable outbox of webhook
 * events with its delivery log and per-app health (the failure streak that disables a URL).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('skus')
    .ifNotExists()
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('application_id', 'bigint', (c) => c.notNull())
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('flags', 'integer', (c) => c.notNull())
    .addColumn('group_id', 'bigint')
    .addColumn('price', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('skus_application').ifNotExists().on('skus').columns(['application_id', 'id']).execute();

  await db.schema
    .createTable('entitlements')
    .ifNotExists()
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('application_id', 'bigint', (c) => c.notNull())
    .addColumn('sku_id', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'bigint')
    .addColumn('guild_id', 'bigint')
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull())
    .addColumn('consumed', 'integer', (c) => c.notNull())
    .addColumn('starts_at', 'bigint')
    .addColumn('ends_at', 'bigint')
    .addColumn('subscription_id', 'bigint')
    .addColumn('promotion_id', 'bigint')
    .addColumn('gift_code_flags', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('entitlements_application').ifNotExists().on('entitlements').columns(['application_id', 'id']).execute();
  await db.schema.createIndex('entitlements_user').ifNotExists().on('entitlements').columns(['user_id', 'application_id']).execute();
  await db.schema.createIndex('entitlements_guild').ifNotExists().on('entitlements').columns(['guild_id', 'application_id']).execute();

  await db.schema
    .createTable('subscriptions')
    .ifNotExists()
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('application_id', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('guild_id', 'bigint')
    .addColumn('group_id', 'bigint', (c) => c.notNull())
    .addColumn('sku_id', 'bigint', (c) => c.notNull())
    .addColumn('renewal_sku_id', 'bigint')
    .addColumn('entitlement_id', 'bigint')
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('period_anchor', 'bigint', (c) => c.notNull())
    .addColumn('period_index', 'integer', (c) => c.notNull())
    .addColumn('current_period_start', 'bigint', (c) => c.notNull())
    .addColumn('current_period_end', 'bigint', (c) => c.notNull())
    .addColumn('canceled_at', 'bigint')
    .addColumn('country', 'text')
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('subscriptions_due').ifNotExists().on('subscriptions').columns(['status', 'current_period_end']).execute();
  await db.schema.createIndex('subscriptions_user').ifNotExists().on('subscriptions').columns(['user_id', 'application_id']).execute();
  await db.schema.createIndex('subscriptions_sku').ifNotExists().on('subscriptions').columns(['sku_id', 'id']).execute();
  await db.schema.createIndex('subscriptions_group').ifNotExists().on('subscriptions').columns(['group_id', 'id']).execute();

  await db.schema
    .createTable('purchases')
    .ifNotExists()
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('application_id', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('sku_id', 'bigint', (c) => c.notNull())
    .addColumn('subscription_id', 'bigint')
    .addColumn('entitlement_id', 'bigint')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('list_price', 'integer', (c) => c.notNull())
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('promotion', 'text')
    .addColumn('discount_percent', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('purchases_user').ifNotExists().on('purchases').columns(['user_id', 'id']).execute();

  await db.schema
    .createTable('event_webhook_outbox')
    .ifNotExists()
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('application_id', 'bigint', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    // pending | delivering | delivered | failed | discarded
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('first_attempt_at', 'bigint')
    .addColumn('last_attempt_at', 'bigint')
    .addColumn('last_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('delivered_at', 'bigint')
    .execute();
  await db.schema.createIndex('event_webhook_outbox_due').ifNotExists().on('event_webhook_outbox').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('event_webhook_outbox_app').ifNotExists().on('event_webhook_outbox').columns(['application_id', 'id']).execute();

  await db.schema
    .createTable('event_webhook_deliveries')
    .ifNotExists()
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('application_id', 'bigint', (c) => c.notNull())
    .addColumn('event_id', 'bigint', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('ok', 'integer', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('event_webhook_deliveries_app').ifNotExists().on('event_webhook_deliveries').columns(['application_id', 'id']).execute();

  await db.schema
    .createTable('event_webhook_health')
    .ifNotExists()
    .addColumn('application_id', 'bigint', (c) => c.primaryKey())
    .addColumn('consecutive_failures', 'integer', (c) => c.notNull())
    .addColumn('last_success_at', 'bigint')
    .addColumn('last_failure_at', 'bigint')
    .addColumn('disabled_at', 'bigint')
    .execute();
}

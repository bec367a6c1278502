import type { Kysely } from 'kysely';

/**
 * Issue 15's open items:
 * - `event_webhook_outbox.url`: where one event goes when it is not the app's `event_webhooks_url` (a lobby's
 *   `override_event_webhooks_url`);
 * - `application_command_creates`: one row per command created, so the 200 creates per day (per guild, and per app for
 *   global commands) are counted over the last 24 hours of the platform clock, deletions included;
 * - an index on `interactions.created_at`, so rows past their 15-minute token window are purged cheaply.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('event_webhook_outbox').addColumn('url', 'text').execute();
  await db.schema
    .createTable('application_command_creates')
    .ifNotExists()
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('application_id', 'bigint', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('interactions_created_at').ifNotExists().on('interactions').column('created_at').execute();
  await db.schema
    .createIndex('application_command_creates_scope')
    .ifNotExists()
    .on('application_command_creates')
    .columns(['application_id', 'scope', 'created_at'])
    .execute();
}

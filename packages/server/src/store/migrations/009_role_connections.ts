import type { Kysely } from 'kysely';

/**
 * Linked roles: an app's role-connection metadata records (at most 5, kept as one JSON list) and each user's role
 * connection to an app (platform name and username, metadata values by record key).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('role_connection_metadata')
    .ifNotExists()
    .addColumn('application_id', 'bigint', (c) => c.primaryKey())
    .addColumn('records', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('user_role_connections')
    .ifNotExists()
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('application_id', 'bigint', (c) => c.notNull())
    .addColumn('platform_name', 'text')
    .addColumn('platform_username', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_role_connections_pk', ['user_id', 'application_id'])
    .execute();
}

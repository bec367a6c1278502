import type { Kysely } from 'kysely';

/**
 * An application's testers (the portal's "App Testers"): people the owner invited, who see the app's in-development
 * Activity as its developers do once they accept. `state` is the team membership state: 1 invited, 2 accepted.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('app_testers')
    .ifNotExists()
    .addColumn('application_id', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('state', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('app_testers_pk', ['application_id', 'user_id'])
    .execute();
  await db.schema.createIndex('app_testers_user').ifNotExists().on('app_testers').columns(['user_id', 'state']).execute();
}

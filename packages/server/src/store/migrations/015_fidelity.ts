import type { Kysely } from 'kysely';

/** Member-verification join requests: one per applicant and guild, SUBMITTED until a moderator approves or rejects it. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('guild_join_requests')
    .ifNotExists()
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('guild_id', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('form_responses', 'text', (c) => c.notNull())
    .addColumn('rejection_reason', 'text')
    .addColumn('actioned_by', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('reviewed_at', 'bigint')
    .execute();
  await db.schema.createIndex('guild_join_requests_guild_user').ifNotExists().on('guild_join_requests').columns(['guild_id', 'user_id']).unique().execute();
}

import type { Kysely } from 'kysely';

/**
 * Activity instances: one per launch of an app's Activity in a channel, joined by later launches there, ended when
 * its last participant leaves. `live_key` is `<application>:<channel>` while the instance runs and NULL once it ended,
 * so a unique index keeps at most one running instance per app and channel on both engines (NULLs are distinct).
 * Participants are gateway sessions of users (one user may take part from two sessions).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('activity_instances')
    .ifNotExists()
    .addColumn('instance_id', 'text', (c) => c.primaryKey())
    .addColumn('application_id', 'bigint', (c) => c.notNull())
    .addColumn('launch_id', 'bigint', (c) => c.notNull())
    .addColumn('channel_id', 'bigint', (c) => c.notNull())
    .addColumn('guild_id', 'bigint')
    .addColumn('live_key', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('ended_at', 'bigint')
    .execute();
  await db.schema.createIndex('activity_instances_live').ifNotExists().unique().on('activity_instances').column('live_key').execute();

  await db.schema
    .createTable('activity_participants')
    .ifNotExists()
    .addColumn('instance_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    // The launching interaction's nonce (or the launch request's), echoed in EMBEDDED_ACTIVITY_UPDATE_V2.
    .addColumn('nonce', 'text')
    .addColumn('joined_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('activity_participants_pk', ['instance_id', 'user_id', 'session_id'])
    .execute();
  await db.schema.createIndex('activity_participants_session').ifNotExists().on('activity_participants').columns(['user_id', 'session_id']).execute();
}

import type { Kysely } from 'kysely';

/**
 * Read states: how far each person has read in each channel (`POST .../messages/{id}/ack`), sent back in READY.
 * One row per (user, channel), written only by acks: mention counts are computed when read, so creating a message
 * writes nothing per recipient.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('read_states')
    .ifNotExists()
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('channel_id', 'bigint', (c) => c.notNull())
    .addColumn('last_message_id', 'bigint')
    .addColumn('manual_mention_count', 'integer')
    .addColumn('last_pin_timestamp', 'bigint')
    .addColumn('flags', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('read_states_pk', ['user_id', 'channel_id'])
    .execute();
}

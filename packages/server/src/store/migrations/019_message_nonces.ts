import type { Kysely } from 'kysely';

/**
 * `enforce_nonce` exactly once across processes: a create with an enforced nonce claims `(author_id, nonce)` in this
 * table in the same transaction as its message, so the database refuses a second claim whichever process or node
 * takes it. Claims older than the 5-minute window (or whose message is gone) are deleted by the next claim.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('message_nonces')
    .ifNotExists()
    .addColumn('author_id', 'bigint', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('message_id', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('message_nonces_pk', ['author_id', 'nonce'])
    .execute();
}

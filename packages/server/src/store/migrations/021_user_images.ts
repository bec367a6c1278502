import type { Kysely } from 'kysely';
import { sql } from 'kysely';

/**
 * The bytes of people's avatars and banners (PATCH /users/@me with a data URI), one row per user and kind, served by
 * the CDN at `/avatars/{user_id}/{hash}.{ext}` and `/banners/{user_id}/{hash}.{ext}`. Only the current image is kept.
 */
export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  await db.schema
    .createTable('user_images')
    .ifNotExists()
    .addColumn('user_id', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('data', sql.raw(dialect === 'postgres' ? 'bytea' : 'blob') as any, (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_images_pk', ['user_id', 'kind'])
    .execute();
}

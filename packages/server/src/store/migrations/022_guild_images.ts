import type { Kysely } from 'kysely';
import { sql } from 'kysely';

/**
 * The bytes of guilds' icons, splashes and banners (PATCH /guilds/{id} with a data URI), one row per guild and kind,
 * served by the CDN at `/icons/{guild_id}/{hash}.{ext}`, `/splashes/…` and `/banners/…`. Only the current image is kept.
 */
export async function up(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  await db.schema
    .createTable('guild_images')
    .ifNotExists()
    .addColumn('guild_id', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('data', sql.raw(dialect === 'postgres' ? 'bytea' : 'blob') as any, (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('guild_images_pk', ['guild_id', 'kind'])
    .execute();
}

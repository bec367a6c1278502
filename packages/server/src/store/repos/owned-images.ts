import type { Kysely } from 'kysely';
import '../tables/user-images.js';
import '../tables/guild-images.js';

/** An image's bytes as the CDN serves them. */
export interface StoredImage {
  hash: string;
  contentType: string;
  data: Buffer;
}

/**
 * The current image per kind of an owner: people's avatars and banners (`user_images`), guilds' icons, splashes and
 * banners (`guild_images`). Replacing one drops the old bytes: the CDN serves only the current hash.
 */
export class OwnedImages {
  private readonly db: Kysely<any>;

  constructor(
    db: Kysely<any>,
    private readonly table: 'user_images' | 'guild_images',
    private readonly owner: 'user_id' | 'guild_id',
  ) {
    this.db = db;
  }

  async put(ownerId: string, kind: string, img: StoredImage & { createdAt: number }): Promise<void> {
    await this.delete(ownerId, kind);
    await this.db
      .insertInto(this.table)
      .values({ [this.owner]: ownerId, kind, hash: img.hash, content_type: img.contentType, data: img.data, created_at: img.createdAt })
      .execute();
  }

  async read(ownerId: string, kind: string): Promise<StoredImage | null> {
    const row = await this.db.selectFrom(this.table).selectAll().where(this.owner, '=', ownerId).where('kind', '=', kind).executeTakeFirst();
    if (!row) return null;
    return { hash: row.hash, contentType: row.content_type, data: Buffer.isBuffer(row.data) ? row.data : Buffer.from(row.data as Uint8Array) };
  }

  /** One kind, or every image of the owner. */
  async delete(ownerId: string, kind?: string): Promise<void> {
    let q = this.db.deleteFrom(this.table).where(this.owner, '=', ownerId);
    if (kind !== undefined) q = q.where('kind', '=', kind);
    await q.execute();
  }
}

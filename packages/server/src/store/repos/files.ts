import { Repo } from './repo.js';
import type { FilesTable } from '../schema.js';

/** Uploaded files and attachments. */
export class FilesRepo extends Repo {
  /** A stored file's bytes and metadata, or null. */
  async byId(id: string): Promise<{ id: string; channel_id: string; filename: string; content_type: string | null; data: Buffer } | null> {
    const row = await this.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return null;
    const data = Buffer.isBuffer(row.data) ? row.data : Buffer.from(row.data as any);
    return { id: String(row.id), channel_id: String(row.channel_id), filename: row.filename, content_type: row.content_type ?? null, data };
  }

  /** Stores uploaded files (rows as planned by the upload), in one statement. */
  async insert(rows: FilesTable[]): Promise<void> {
    if (!rows.length) return;
    await this.db.insertInto('files').values(rows).execute();
  }

  /** Deletes the file rows of every channel of a guild. */
  async deleteInGuild(guildId: string): Promise<void> {
    await this.db
      .deleteFrom('files')
      .where('channel_id', 'in', this.db.selectFrom('channels').select('id').where('guild_id', '=', guildId))
      .execute();
  }
}

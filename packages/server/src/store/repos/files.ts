import { Repo } from './repo.js';

/** Uploaded files and attachments. */
export class FilesRepo extends Repo {
  /** A stored file's bytes and metadata, or null. */
  async byId(id: string): Promise<{ id: string; channel_id: string; filename: string; content_type: string | null; data: Buffer } | null> {
    const row = await this.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return null;
    const data = Buffer.isBuffer(row.data) ? row.data : Buffer.from(row.data as any);
    return { id: String(row.id), channel_id: String(row.channel_id), filename: row.filename, content_type: row.content_type ?? null, data };
  }
}

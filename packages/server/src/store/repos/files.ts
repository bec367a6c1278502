import { Repo } from './repo.js';
import type { FilesTable } from '../schema.js';

/** Uploaded files and attachments. */
export class FilesRepo extends Repo {
  /** Stores uploaded files (rows as planned by the upload), in one statement. */
  async insert(rows: FilesTable[]): Promise<void> {
    if (!rows.length) return;
    await this.db.insertInto('files').values(rows).execute();
  }

  /** Deletes the file rows of every channel of a guild. */
  async deleteInGuild(guildId: string): Promise<void> {
    await this.db.deleteFrom('files').where('channel_id', 'in', this.db.selectFrom('channels').select('id').where('guild_id', '=', guildId)).execute();
  }
}

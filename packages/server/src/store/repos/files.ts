import { Repo } from './repo.js';

/** Uploaded files and attachments. */
export class FilesRepo extends Repo {

  /** Deletes the file rows of every channel of a guild. */
  async deleteInGuild(guildId: string): Promise<void> {
    await this.db.deleteFrom('files').where('channel_id', 'in', this.db.selectFrom('channels').select('id').where('guild_id', '=', guildId)).execute();
  }
}

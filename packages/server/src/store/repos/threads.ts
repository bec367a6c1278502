import { Repo } from './repo.js';

/** Threads and thread members. */
export class ThreadsRepo extends Repo {

  /** Deletes the thread members of every thread of a guild. */
  async deleteMembersInGuild(guildId: string): Promise<void> {
    await this.db.deleteFrom('thread_members').where('channel_id', 'in', this.db.selectFrom('channels').select('id').where('guild_id', '=', guildId)).execute();
  }
}

import { Repo } from './repo.js';

/** Messages: the hot write path (one commit for concurrent creates), pages, edits, deletes. */
export class MessagesRepo extends Repo {

  /** Deletes every message of a guild. */
  async deleteInGuild(guildId: string): Promise<void> {
    await this.db.deleteFrom('messages').where('guild_id', '=', guildId).execute();
  }

  /** The distinct authors of a guild's messages created after `since` (ms). */
  async authorsInGuildSince(guildId: string, since: number): Promise<string[]> {
    const rows = await this.db.selectFrom('messages').select('author_id').distinct().where('guild_id', '=', guildId).where('created_at', '>', since).execute();
    return rows.map((r) => String(r.author_id));
  }
}

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

  /** Ids and channels of the messages of these authors in a guild created at or after `since` (ms). */
  async idsByAuthorsInGuildSince(guildId: string, authorIds: string[], since: number): Promise<{ id: string; channel_id: string }[]> {
    if (!authorIds.length) return [];
    const rows = await this.db.selectFrom('messages').select(['id', 'channel_id']).where('guild_id', '=', guildId).where('author_id', 'in', authorIds)
      .where('created_at', '>=', since).execute();
    return rows.map((r) => ({ id: String(r.id), channel_id: String(r.channel_id) }));
  }

  /** Deletes messages by id (their reactions go through ReactionsRepo.deleteOnMessages). */
  async deleteByIds(ids: string[]): Promise<void> {
    if (!ids.length) return;
    await this.db.deleteFrom('messages').where('id', 'in', ids).execute();
  }
}

import { Repo } from './repo.js';

/** Polls and their votes. */
export class PollsRepo extends Repo {

  /** Deletes the poll votes on every message of a guild. */
  async deleteVotesInGuild(guildId: string): Promise<void> {
    await this.db.deleteFrom('poll_votes').where('message_id', 'in', this.db.selectFrom('messages').select('id').where('guild_id', '=', guildId)).execute();
  }
}

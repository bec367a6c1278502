import { Repo } from './repo.js';

/** Interactions, their tokens, responses and follow-ups. */
export class InteractionsRepo extends Repo {

  /** Deletes every interaction of a guild. */
  async deleteInGuild(guildId: string): Promise<void> {
    await this.db.deleteFrom('interactions').where('guild_id', '=', guildId).execute();
  }
}

import { Repo } from './repo.js';

/** Application commands and their per-guild permissions. */
export class CommandsRepo extends Repo {

  /** Deletes a guild's commands, their permissions and its daily-create counts. */
  async deleteInGuild(guildId: string): Promise<void> {
    await this.db.deleteFrom('command_permissions').where('guild_id', '=', guildId).execute();
    await this.db.deleteFrom('application_commands').where('guild_id', '=', guildId).execute();
    await this.db.deleteFrom('application_command_creates').where('scope', '=', guildId).execute();
  }
}

import { Repo } from './repo.js';

/** Application commands and their per-guild permissions. */
export class CommandsRepo extends Repo {

  /** Deletes a guild's commands, their permissions and its daily-create counts. */
  async deleteInGuild(guildId: string): Promise<void> {
    await this.db.deleteFrom('command_permissions').where('guild_id', '=', guildId).execute();
    await this.db.deleteFrom('application_commands').where('guild_id', '=', guildId).execute();
    await this.db.deleteFrom('application_command_creates').where('scope', '=', guildId).execute();
  }

  /** The stored permission overwrites of a command in a guild, as JSON text, or null. */
  async storedPermissionsJson(applicationId: string, guildId: string, commandId: string): Promise<string | null> {
    const row = await this.db.selectFrom('command_permissions').select('permissions')
      .where('application_id', '=', applicationId).where('guild_id', '=', guildId).where('command_id', '=', commandId).executeTakeFirst();
    return row ? String(row.permissions) : null;
  }
}

import { Repo } from './repo.js';

/** Bans, the audit log and AutoMod rules. */
export class ModerationRepo extends Repo {

  /** Whether a user is banned from a guild. */
  async isBanned(guildId: string, userId: string): Promise<boolean> {
    return !!(await this.db.selectFrom('bans').select('user_id').where('guild_id', '=', guildId).where('user_id', '=', userId).executeTakeFirst());
  }

  /** Deletes every ban of a guild. */
  async deleteBansOf(guildId: string): Promise<void> {
    await this.db.deleteFrom('bans').where('guild_id', '=', guildId).execute();
  }

  /** Deletes a guild's audit log and AutoMod rules. */
  async deleteLogAndRulesOf(guildId: string): Promise<void> {
    await this.db.deleteFrom('audit_log_entries').where('guild_id', '=', guildId).execute();
    await this.db.deleteFrom('automod_rules').where('guild_id', '=', guildId).execute();
  }
}

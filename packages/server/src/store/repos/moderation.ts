import { Repo } from './repo.js';

/** Bans, the audit log and AutoMod rules. */
export class ModerationRepo extends Repo {

  /** Whether a user is banned from a guild. */
  async isBannedFrom(guildId: string, userId: string): Promise<boolean> {
    return !!(await this.db.selectFrom('bans').select('user_id').where('guild_id', '=', guildId).where('user_id', '=', userId).executeTakeFirst());
  }
}

import { Repo } from './repo.js';
import type { InvitesTable } from '../schema.js';

/** Invites and their target users. */
export class InvitesRepo extends Repo {
  /** Whether an invite code is taken. */
  async codeExists(code: string): Promise<boolean> {
    return !!(await this.db.selectFrom('invites').select('code').where('code', '=', code).executeTakeFirst());
  }

  /** Inserts an invite row (the code must be free). */
  async insertInvite(row: InvitesTable): Promise<void> {
    await this.db.insertInto('invites').values(row).execute();
  }

  /** Deletes every invite of a guild. */
  async deleteInGuild(guildId: string): Promise<void> {
    await this.db.deleteFrom('invites').where('guild_id', '=', guildId).execute();
  }

  /** Deletes the roles and target users attached to a guild's invites (before the invites themselves). */
  async deleteExtrasInGuild(guildId: string): Promise<void> {
    const codes = this.db.selectFrom('invites').select('code').where('guild_id', '=', guildId);
    await this.db.deleteFrom('invite_meta').where('code', 'in', codes).execute();
    await this.db.deleteFrom('invite_targets').where('code', 'in', codes).execute();
  }

  /** The code of a channel's permanent invite with no inviter (the widget's), or null. */
  async permanentSystemInviteOf(channelId: string): Promise<string | null> {
    const rows = await this.db.selectFrom('invites').select(['code']).where('channel_id', '=', channelId).where('inviter_id', 'is', null)
      .where('max_age', '=', 0).where('max_uses', '=', 0).limit(1).execute();
    return rows[0]?.code ?? null;
  }

  /** Inserts an invite row. */
  async insertRow(row: InvitesTable): Promise<void> {
    await this.db.insertInto('invites').values(row).execute();
  }
}

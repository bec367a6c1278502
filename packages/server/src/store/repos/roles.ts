import { Repo } from './repo.js';
import { toRole } from './mappers.js';
import type { RoleRecord } from '../records.js';

/** Guild roles. */
export class RolesRepo extends Repo {
  /** Every role of a guild, in no particular order. */
  async ofGuild(guildId: string): Promise<RoleRecord[]> {
    return (await this.db.selectFrom('roles').selectAll().where('guild_id', '=', guildId).execute()).map(toRole);
  }

  /** A role of this guild by id, or null. */
  async inGuild(guildId: string, roleId: string): Promise<RoleRecord | null> {
    const row = await this.db.selectFrom('roles').selectAll().where('id', '=', roleId).where('guild_id', '=', guildId).executeTakeFirst();
    return row ? toRole(row) : null;
  }

  /** Which of `ids` are roles of a guild. */
  async idsInGuild(guildId: string, ids: string[]): Promise<string[]> {
    if (!ids.length) return [];
    const rows = await this.db.selectFrom('roles').select('id').where('guild_id', '=', guildId).where('id', 'in', ids).execute();
    return rows.map((r) => String(r.id));
  }
}

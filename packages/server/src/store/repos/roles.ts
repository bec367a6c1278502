import { Repo } from './repo.js';
import { toRole } from './mappers.js';
import type { RoleRecord } from '../records.js';

/** Guild roles. */
export class RolesRepo extends Repo {
  /** Every role of a guild, in no particular order. */
  async ofGuild(guildId: string): Promise<RoleRecord[]> {
    return (await this.db.selectFrom('roles').selectAll().where('guild_id', '=', guildId).execute()).map(toRole);
  }

  /** Of these role ids, the guild's roles with whether each is mentionable (message mentions). */
  async mentionableOf(guildId: string, ids: string[]): Promise<Map<string, boolean>> {
    if (!ids.length) return new Map();
    const rows = await this.db.selectFrom('roles').select(['id', 'mentionable']).where('guild_id', '=', guildId).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [String(r.id), Number(r.mentionable) === 1]));
  }
}

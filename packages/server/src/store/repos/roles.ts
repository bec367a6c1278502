import { Repo } from './repo.js';
import { toRole } from './mappers.js';
import type { RoleRecord } from '../records.js';

/** Guild roles. */
export class RolesRepo extends Repo {
  /** Every role of a guild, in no particular order. */
  async ofGuild(guildId: string): Promise<RoleRecord[]> {
    return (await this.db.selectFrom('roles').selectAll().where('guild_id', '=', guildId).execute()).map(toRole);
  }
}

import { Repo } from './repo.js';
import { toRole } from './mappers.js';
import type { RoleRecord } from '../records.js';

/** Guild roles. */
export class RolesRepo extends Repo {
  /** Every role of a guild, in no particular order. */
  async ofGuild(guildId: string): Promise<RoleRecord[]> {
    return (await this.db.selectFrom('roles').selectAll().where('guild_id', '=', guildId).execute()).map(toRole);
  }

  /** The highest role position in a guild (0 when it has none). */
  async maxPosition(guildId: string): Promise<number> {
    const top = await this.db.selectFrom('roles').select((eb) => eb.fn.max('position').as('p')).where('guild_id', '=', guildId).executeTakeFirst();
    return Number(top?.p ?? 0);
  }

  /** Inserts a role. */
  async insertRecord(role: RoleRecord): Promise<void> {
    await this.db.insertInto('roles').values({
      ...role, permissions: role.permissions.toString(), hoist: role.hoist ? 1 : 0, mentionable: role.mentionable ? 1 : 0, managed: role.managed ? 1 : 0,
    }).execute();
  }
}

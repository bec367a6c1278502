import { Repo } from './repo.js';
import { toRole } from './mappers.js';
import type { RoleRecord } from '../records.js';
import type { RolesTable } from '../schema.js';
import type { Kysely } from 'kysely';
import type { DB } from '../schema.js';

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

  /** Inserts role rows (a new guild's, or one new role). */
  async insertMany(rows: RolesTable[]): Promise<void> {
    await this.db.insertInto('roles').values(rows).execute();
  }

  /** Deletes every role of a guild. */
  async deleteInGuild(guildId: string): Promise<void> {
    await this.db.deleteFrom('roles').where('guild_id', '=', guildId).execute();
  }

  /** Moves roles to new positions, one update per role, in one transaction. */
  async setPositions(moves: { id: string; position: number }[]): Promise<void> {
    const run = async (db: Kysely<DB>) => {
      for (const m of moves) await db.updateTable('roles').set({ position: m.position }).where('id', '=', m.id).execute();
    };
    if (this.db.isTransaction) await run(this.db);
    else await this.db.transaction().execute(run);
  }

  /** Applies a partial role update (column values already encoded: booleans as 0/1). */
  async patch(id: string, values: Partial<RolesTable>): Promise<void> {
    await this.db.updateTable('roles').set(values).where('id', '=', id).execute();
  }

  /** Deletes one role (members keep its id until MembersRepo.setRoles removes it). */
  async deleteById(id: string): Promise<void> {
    await this.db.deleteFrom('roles').where('id', '=', id).execute();
  }

  /** Deletes several roles. */
  async deleteByIds(ids: string[]): Promise<void> {
    if (!ids.length) return;
    await this.db.deleteFrom('roles').where('id', 'in', ids).execute();
  }

  /** The ids of the managed roles of a bot in a guild. */
  async managedIdsOfBot(guildId: string, botId: string): Promise<string[]> {
    return (await this.db.selectFrom('roles').select('id').where('guild_id', '=', guildId).where('bot_id', '=', botId).where('managed', '=', 1).execute()).map(
      (r) => String(r.id),
    );
  }

  /** The ids among `ids` that are roles of this guild. */
  async idsAmongInGuild(guildId: string, ids: string[]): Promise<string[]> {
    if (!ids.length) return [];
    return (await this.db.selectFrom('roles').select('id').where('guild_id', '=', guildId).where('id', 'in', ids).execute()).map((r) => String(r.id));
  }

  /** A role's name, or null when it does not exist. */
  async nameOf(roleId: string): Promise<string | null> {
    const row = await this.db.selectFrom('roles').select('name').where('id', '=', roleId).executeTakeFirst();
    return row ? row.name : null;
  }

  /** The names of the roles among `ids` that exist, by id. */
  async namesOf(ids: string[]): Promise<Map<string, string>> {
    if (!ids.length) return new Map();
    const rows = await this.db.selectFrom('roles').select(['id', 'name']).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [String(r.id), r.name]));
  }

  /** The highest role position in a guild (0 when it has none). */
  async maxPosition(guildId: string): Promise<number> {
    const top = await this.db
      .selectFrom('roles')
      .select((eb) => eb.fn.max('position').as('p'))
      .where('guild_id', '=', guildId)
      .executeTakeFirst();
    return Number(top?.p ?? 0);
  }

  /** Inserts a role. */
  async insertRecord(role: RoleRecord): Promise<void> {
    await this.db
      .insertInto('roles')
      .values({
        ...role,
        permissions: role.permissions.toString(),
        hoist: role.hoist ? 1 : 0,
        mentionable: role.mentionable ? 1 : 0,
        managed: role.managed ? 1 : 0,
      })
      .execute();
  }

  /** Of these role ids, the guild's roles with whether each is mentionable (message mentions). */
  async mentionableOf(guildId: string, ids: string[]): Promise<Map<string, boolean>> {
    if (!ids.length) return new Map();
    const rows = await this.db.selectFrom('roles').select(['id', 'mentionable']).where('guild_id', '=', guildId).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [String(r.id), Number(r.mentionable) === 1]));
  }
}

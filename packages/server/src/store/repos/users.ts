import { Repo } from './repo.js';
import { toUser } from './mappers.js';
import type { UserRecord } from '../records.js';

/** Users and their profiles. */
export class UsersRepo extends Repo {
  /** One user, or null. */
  async byId(id: string): Promise<UserRecord | null> {
    const row = await this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toUser(row) : null;
  }

  /** The users among `ids` that exist, by id (looked up 500 at a time). */
  async byIds(ids: Iterable<string>): Promise<Map<string, UserRecord>> {
    const list = [...new Set(ids)];
    const out = new Map<string, UserRecord>();
    for (let i = 0; i < list.length; i += 500) {
      const rows = await this.db.selectFrom('users').selectAll().where('id', 'in', list.slice(i, i + 500)).execute();
      for (const r of rows) out.set(String(r.id), toUser(r));
    }
    return out;
  }

  /** The id of the user a friend request by name means: `username#discriminator` (legacy tags), else a lowercase unique username of a non-bot; null when none. */
  async idByName(username: string, discriminator: string | null): Promise<string | null> {
    const legacy = !!discriminator && discriminator !== '0';
    let q = this.db.selectFrom('users').select('id').where('username', '=', legacy ? username : username.toLowerCase());
    q = legacy ? q.where('discriminator', '=', discriminator!) : q.where('bot', '=', 0);
    const row = await q.executeTakeFirst();
    return row ? String(row.id) : null;
  }

  /** Users whose primary guild (adopted tag) may be this guild (callers check identity_guild_id exactly). */
  async wearingGuildTag(guildId: string): Promise<UserRecord[]> {
    const rows = await this.db.selectFrom('users').selectAll().where('primary_guild', 'like', `%"identity_guild_id":"${guildId}"%`).execute();
    return rows.map(toUser);
  }

  /** Sets or clears a user's primary guild (adopted tag). */
  async savePrimaryGuild(userId: string, pg: UserRecord['primary_guild']): Promise<void> {
    await this.db.updateTable('users').set({ primary_guild: pg ? JSON.stringify(pg) : null }).where('id', '=', userId).execute();
  }
}

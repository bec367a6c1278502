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

  /** The ids among `ids` that belong to a user (mentions keep only real users). */
  async existingIds(ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    return new Set((await this.db.selectFrom('users').select('id').where('id', 'in', ids).execute()).map((r) => String(r.id)));
  }

  /** The ids among `ids` that belong to a bot user. */
  async botIds(ids: string[]): Promise<Set<string>> {
    const rows = await this.db.selectFrom('users').select('id').where('bot', '=', 1).where('id', 'in', [...new Set(ids)].concat(['0'])).execute();
    return new Set(rows.map((r) => String(r.id)));
  }
}

import { Repo } from './repo.js';
import { toUser } from './mappers.js';
import type { UserRecord } from '../records.js';
import '../tables/guild-extras.js';
import { OwnedImages } from './owned-images.js';

/** A third-party connection of a user, as stored (flags 0/1). */
export interface UserConnectionRow {
  user_id: string | number;
  type: string;
  account_id: string;
  name: string | null;
  verified: number;
  revoked: number;
  visibility: number;
  friend_sync: number;
  show_activity: number;
  two_way_link: number;
  created_at: number | string;
}

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
      const rows = await this.db
        .selectFrom('users')
        .selectAll()
        .where('id', 'in', list.slice(i, i + 500))
        .execute();
      for (const r of rows) out.set(String(r.id), toUser(r));
    }
    return out;
  }

  /** The id of the user a friend request by name means: `username#discriminator` (legacy tags), else a lowercase unique username of a non-bot; null when none. */
  async idByName(username: string, discriminator: string | null): Promise<string | null> {
    const legacy = !!discriminator && discriminator !== '0';
    let q = this.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', legacy ? username : username.toLowerCase());
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
    await this.db
      .updateTable('users')
      .set({ primary_guild: pg ? JSON.stringify(pg) : null })
      .where('id', '=', userId)
      .execute();
  }

  /** Whether a human (not a bot) already has this username. */
  async humanUsernameTaken(username: string): Promise<boolean> {
    return !!(await this.db.selectFrom('users').select('id').where('username', '=', username).where('bot', '=', 0).executeTakeFirst());
  }

  /** Whether an account already has this email. */
  async emailTaken(email: string): Promise<boolean> {
    return !!(await this.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst());
  }

  /** Inserts a user (with its password hash and date of birth, which the record does not carry). */
  async insert(user: UserRecord, secret: { password_hash: string | null; date_of_birth: string | null }): Promise<void> {
    await this.db
      .insertInto('users')
      .values({
        ...user,
        verified: user.verified ? 1 : 0,
        bot: user.bot ? 1 : 0,
        system: user.system ? 1 : 0,
        primary_guild: user.primary_guild == null ? null : JSON.stringify(user.primary_guild),
        ...secret,
      })
      .execute();
  }

  /** Applies a profile partial (username, global_name, avatar, banner, bio, accent_color, email). */
  async updateProfile(
    id: string,
    patch: Partial<Pick<UserRecord, 'username' | 'global_name' | 'avatar' | 'banner' | 'bio' | 'accent_color' | 'email'>>,
  ): Promise<void> {
    if (!Object.keys(patch).length) return;
    await this.db.updateTable('users').set(patch).where('id', '=', id).execute();
  }

  /** A user's third-party connections as stored, oldest first. */
  async connectionsOf(userId: string): Promise<UserConnectionRow[]> {
    return (await this.db.selectFrom('user_connections').selectAll().where('user_id', '=', userId).orderBy('created_at').execute()) as UserConnectionRow[];
  }

  /** Adds a connection, replacing the one of the same type and account (one transaction). */
  async replaceConnection(row: UserConnectionRow): Promise<void> {
    const run = async (trx: typeof this.db) => {
      await trx
        .deleteFrom('user_connections')
        .where('user_id', '=', String(row.user_id))
        .where('type', '=', row.type)
        .where('account_id', '=', row.account_id)
        .execute();
      await trx
        .insertInto('user_connections')
        .values({ ...row, user_id: String(row.user_id), created_at: Number(row.created_at) })
        .execute();
    };
    await (this.db.isTransaction ? run(this.db) : this.db.transaction().execute(run));
  }

  /** Dev tools: the first `limit` people (no bots, no system users), by id. */
  async devPeople(limit: number): Promise<{ id: string; username: string; global_name: string | null; avatar: string | null; email: string | null }[]> {
    const rows = await this.db
      .selectFrom('users')
      .select(['id', 'username', 'global_name', 'avatar', 'email'])
      .where('bot', '=', 0)
      .where('system', '=', 0)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ id: String(r.id), username: r.username, global_name: r.global_name, avatar: r.avatar, email: r.email }));
  }

  /** The ids among `ids` that belong to a user (mentions keep only real users). */
  async existingIds(ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    return new Set((await this.db.selectFrom('users').select('id').where('id', 'in', ids).execute()).map((r) => String(r.id)));
  }

  /** The ids among `ids` that belong to a bot user. */
  async botIds(ids: string[]): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('users')
      .select('id')
      .where('bot', '=', 1)
      .where('id', 'in', [...new Set(ids)].concat(['0']))
      .execute();
    return new Set(rows.map((r) => String(r.id)));
  }

  /** A user's avatar and banner bytes (the CDN's `/avatars/…` and `/banners/…`). */
  get images(): OwnedImages {
    return new OwnedImages(this.db, 'user_images', 'user_id');
  }
}

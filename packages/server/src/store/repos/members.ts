import { Repo } from './repo.js';
import { toMember } from './mappers.js';
import type { MemberRecord } from '../records.js';
import type { MembersTable } from '../schema.js';
import { sql } from 'kysely';
import { parseJson } from '../json.js';
import { toGuild } from './mappers.js';
import type { GuildRecord } from '../records.js';
import { compiledFor, fixedSql, readRows, type FixedSql } from '../fixed-sql.js';

/** The members query for n user ids, its text made once per n. */
const membersInTexts: FixedSql[] = [];

/** Guild members and membership (joins, leaves, member rows). */
export class MembersRepo extends Repo {
  /** One member, or null. */
  async get(guildId: string, userId: string): Promise<MemberRecord | null> {
    const row = await this.db.selectFrom('members').selectAll().where('guild_id', '=', guildId).where('user_id', '=', userId).executeTakeFirst();
    return row ? toMember(row) : null;
  }

  /** The ids of a guild's members. */
  async userIdsOf(guildId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('members').select('user_id').where('guild_id', '=', guildId).execute();
    return rows.map((r) => String(r.user_id));
  }

  /** The members of a guild among these users (those who are not members are left out). */
  async ofUsers(guildId: string, userIds: string[]): Promise<MemberRecord[]> {
    if (!userIds.length) return [];
    return (await this.db.selectFrom('members').selectAll().where('guild_id', '=', guildId).where('user_id', 'in', userIds).execute()).map(toMember);
  }

  /** How many guilds a user is a member of. */
  async countGuildsOf(userId: string): Promise<number> {
    const r = await this.db
      .selectFrom('members')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  /** Inserts a member row. */
  async insert(row: MembersTable): Promise<void> {
    await this.db.insertInto('members').values(row).execute();
  }

  /** Deletes every member row of a guild. */
  async deleteInGuild(guildId: string): Promise<void> {
    await this.db.deleteFrom('members').where('guild_id', '=', guildId).execute();
  }

  /** Applies a partial member update (column values already encoded: JSON as text, booleans as 0/1). */
  async patch(guildId: string, userId: string, values: Partial<MembersTable>): Promise<void> {
    await this.db.updateTable('members').set(values).where('guild_id', '=', guildId).where('user_id', '=', userId).execute();
  }

  /** Members of a guild by user id after `after`, at most `limit`. */
  async pageIn(guildId: string, after: string, limit: number): Promise<MemberRecord[]> {
    const rows = await this.db
      .selectFrom('members')
      .selectAll()
      .where('guild_id', '=', guildId)
      .where('user_id', '>', after)
      .orderBy('user_id')
      .limit(limit)
      .execute();
    return rows.map(toMember);
  }

  /** Members whose username, display name or nick starts with `query` (case-insensitive), by user id, at most `limit`. */
  async searchByNamePrefix(guildId: string, query: string, limit: number): Promise<MemberRecord[]> {
    const pattern = query.toLowerCase().replace(/[\\%_]/g, (c) => '\\' + c) + '%';
    const like = (col: 'users.username' | 'users.global_name' | 'members.nick') => sql<boolean>`lower(${sql.ref(col)}) like ${pattern} escape ${sql.lit('\\')}`;
    const rows = await this.db
      .selectFrom('members')
      .innerJoin('users', 'users.id', 'members.user_id')
      .selectAll('members')
      .where('members.guild_id', '=', guildId)
      .where((eb) => eb.or([like('users.username'), like('users.global_name'), like('members.nick')]))
      .orderBy('members.user_id')
      .limit(limit)
      .execute();
    return rows.map(toMember);
  }

  /** Whether a user is a member of a guild. */
  async exists(guildId: string, userId: string): Promise<boolean> {
    return !!(await this.db.selectFrom('members').select('user_id').where('guild_id', '=', guildId).where('user_id', '=', userId).executeTakeFirst());
  }

  /** Removes a member; false when they were not one. */
  async remove(guildId: string, userId: string): Promise<boolean> {
    const res = await this.db.deleteFrom('members').where('guild_id', '=', guildId).where('user_id', '=', userId).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  /** Members of a guild who joined at or before `cutoff` (ms). */
  async joinedBy(guildId: string, cutoff: number): Promise<MemberRecord[]> {
    return (await this.db.selectFrom('members').selectAll().where('guild_id', '=', guildId).where('joined_at', '<=', cutoff).execute()).map(toMember);
  }

  /** Every member of a guild with the names a widget shows (nick, display name, username). */
  async namesIn(guildId: string): Promise<{ user_id: string; nick: string | null; username: string; global_name: string | null }[]> {
    const rows = await this.db
      .selectFrom('members')
      .innerJoin('users', 'users.id', 'members.user_id')
      .select(['members.user_id', 'members.nick', 'users.username', 'users.global_name'])
      .where('members.guild_id', '=', guildId)
      .execute();
    return rows.map((r) => ({ user_id: String(r.user_id), nick: r.nick ?? null, username: r.username, global_name: r.global_name ?? null }));
  }

  /** Members of a guild that may hold a role (their role lists mention its id), with their role lists. */
  async holdersOf(guildId: string, roleId: string): Promise<{ user_id: string; roles: string[] }[]> {
    const rows = await this.db
      .selectFrom('members')
      .select(['user_id', 'roles'])
      .where('guild_id', '=', guildId)
      .where('roles', 'like', `%"${roleId}"%`)
      .execute();
    return rows.map((r) => ({ user_id: String(r.user_id), roles: parseJson<string[]>(r.roles, []) }));
  }

  /** Replaces a member's role ids. */
  async setRoles(guildId: string, userId: string, roles: string[]): Promise<void> {
    await this.db
      .updateTable('members')
      .set({ roles: JSON.stringify(roles) })
      .where('guild_id', '=', guildId)
      .where('user_id', '=', userId)
      .execute();
  }

  /** The role lists of every member of a guild. */
  async roleListsIn(guildId: string): Promise<string[][]> {
    const rows = await this.db.selectFrom('members').select('roles').where('guild_id', '=', guildId).execute();
    return rows.map((r) => parseJson<string[]>(r.roles, []));
  }

  /** The role ids of a member (empty when not a member). */
  async roleIdsOf(guildId: string, userId: string): Promise<string[]> {
    const m = await this.db.selectFrom('members').select('roles').where('guild_id', '=', guildId).where('user_id', '=', userId).executeTakeFirst();
    return parseJson<string[]>(m?.roles, []);
  }

  /** The guilds a user is a member of (id, name, icon, MFA level), by id. */
  async guildSummariesOf(userId: string): Promise<{ id: string; name: string; icon: string | null; mfa_level: number }[]> {
    const rows = await this.db
      .selectFrom('members')
      .innerJoin('guilds', 'guilds.id', 'members.guild_id')
      .select(['guilds.id', 'guilds.name', 'guilds.icon', 'guilds.mfa_level'])
      .where('members.user_id', '=', userId)
      .orderBy('guilds.id')
      .execute();
    return rows.map((g) => ({ id: String(g.id), name: g.name, icon: g.icon, mfa_level: Number(g.mfa_level) }));
  }

  /** The members of a guild among these users, by user id. */
  async someOf(guildId: string, userIds: string[]): Promise<Map<string, MemberRecord>> {
    if (!userIds.length) return new Map();
    const rows = await this.db.selectFrom('members').selectAll().where('guild_id', '=', guildId).where('user_id', 'in', userIds).execute();
    return new Map(rows.map((m) => [String(m.user_id), toMember(m)]));
  }

  /** One page of the guilds a user is a member of, by id: after `after` and before `before`. */
  async guildsPageOf(userId: string, page: { after?: string; before?: string; limit: number }): Promise<GuildRecord[]> {
    let sel = this.db.selectFrom('members').innerJoin('guilds', 'guilds.id', 'members.guild_id').selectAll('guilds').where('members.user_id', '=', userId);
    if (page.after) sel = sel.where('guilds.id', '>', page.after);
    if (page.before) sel = sel.where('guilds.id', '<', page.before);
    return (await sel.orderBy('guilds.id').limit(page.limit).execute()).map(toGuild);
  }

  /** The ids of the guilds a user is a member of (READY, dispatch routing). */
  async guildIdsOf(userId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('members').select('guild_id').where('user_id', '=', userId).execute();
    return rows.map((r) => String(r.guild_id));
  }

  /** Every member of a guild, in no particular order (GUILD_CREATE of small guilds). */
  async ofGuild(guildId: string): Promise<MemberRecord[]> {
    return (await this.db.selectFrom('members').selectAll().where('guild_id', '=', guildId).execute()).map(toMember);
  }

  /** A guild's members in user id order: all of them, or those among `userIds` (Request Guild Members). */
  async listByUserId(guildId: string, userIds?: string[]): Promise<MemberRecord[]> {
    let q = this.db.selectFrom('members').selectAll().where('guild_id', '=', guildId);
    if (userIds) q = q.where('user_id', 'in', userIds.length ? userIds : ['0']);
    return (await q.orderBy('user_id').execute()).map(toMember);
  }

  /** Members of a guild among these users, by user id (a fixed statement per count: every MESSAGE_CREATE runs it). */
  async byUserIds(guildId: string, userIds: string[]): Promise<Map<string, MemberRecord>> {
    const out = new Map<string, MemberRecord>();
    for (let i = 0; i < userIds.length; i += 500) {
      const chunk = userIds.slice(i, i + 500);
      const q = (membersInTexts[chunk.length] ??= fixedSql(
        `select * from "members" where "guild_id" = ? and "user_id" in (${Array(chunk.length).fill('?').join(', ')})`,
      ));
      const rows = this.db.isTransaction
        ? (await this.db.executeQuery<Record<string, any>>(compiledFor(this.store.dialect, q, [guildId, ...chunk]))).rows
        : await readRows(this.store, q, [guildId, ...chunk]);
      for (const r of rows) out.set(String(r.user_id), toMember(r));
    }
    return out;
  }

  /** A guild two users are both members of, with whether the second is a bot; null when they share none. */
  async sharedGuild(userId: string, otherId: string): Promise<{ guildId: string; otherIsBot: boolean } | null> {
    const shared = await this.db
      .selectFrom('members as a')
      .innerJoin('members as b', 'a.guild_id', 'b.guild_id')
      .innerJoin('users', 'users.id', 'b.user_id')
      .select(['a.guild_id', 'users.bot'])
      .where('a.user_id', '=', userId)
      .where('b.user_id', '=', otherId)
      .limit(1)
      .executeTakeFirst();
    return shared ? { guildId: String(shared.guild_id), otherIsBot: Number(shared.bot) === 1 } : null;
  }
}

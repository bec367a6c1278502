import { Repo } from './repo.js';
import { toMember } from './mappers.js';
import { toGuild } from './mappers.js';
import type { MemberRecord } from '../records.js';
import type { GuildRecord } from '../records.js';

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

  /** In how many guilds a user is a member. */
  async guildCountOf(userId: string): Promise<number> {
    const row = await this.db.selectFrom('members').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** The guilds a user is a member of (id, name, icon, MFA level), by id. */
  async guildSummariesOf(userId: string): Promise<{ id: string; name: string; icon: string | null; mfa_level: number }[]> {
    const rows = await this.db.selectFrom('members').innerJoin('guilds', 'guilds.id', 'members.guild_id')
      .select(['guilds.id', 'guilds.name', 'guilds.icon', 'guilds.mfa_level']).where('members.user_id', '=', userId).orderBy('guilds.id').execute();
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
}

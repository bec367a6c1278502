import { Repo } from './repo.js';
import { toMember } from './mappers.js';
import type { MemberRecord } from '../records.js';

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
}

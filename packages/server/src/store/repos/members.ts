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

  /** A guild's members in user id order: all of them, or those among `userIds` (Request Guild Members). */
  async listByUserId(guildId: string, userIds?: string[]): Promise<MemberRecord[]> {
    let q = this.db.selectFrom('members').selectAll().where('guild_id', '=', guildId);
    if (userIds) q = q.where('user_id', 'in', userIds.length ? userIds : ['0']);
    return (await q.orderBy('user_id').execute()).map(toMember);
  }
}

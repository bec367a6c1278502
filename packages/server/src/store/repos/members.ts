import { Repo } from './repo.js';
import { toMember } from './mappers.js';
import type { MemberRecord } from '../records.js';
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

  /** Members of a guild among these users, by user id (a fixed statement per count: every MESSAGE_CREATE runs it). */
  async byUserIds(guildId: string, userIds: string[]): Promise<Map<string, MemberRecord>> {
    const out = new Map<string, MemberRecord>();
    for (let i = 0; i < userIds.length; i += 500) {
      const chunk = userIds.slice(i, i + 500);
      const q = (membersInTexts[chunk.length] ??= fixedSql(`select * from "members" where "guild_id" = ? and "user_id" in (${Array(chunk.length).fill('?').join(', ')})`));
      const rows = this.db.isTransaction
        ? (await this.db.executeQuery<Record<string, any>>(compiledFor(this.store.dialect, q, [guildId, ...chunk]))).rows
        : await readRows(this.store, q, [guildId, ...chunk]);
      for (const r of rows) out.set(String(r.user_id), toMember(r));
    }
    return out;
  }

  /** A guild two users are both members of, with whether the second is a bot; null when they share none. */
  async sharedGuild(userId: string, otherId: string): Promise<{ guildId: string; otherIsBot: boolean } | null> {
    const shared = await this.db.selectFrom('members as a').innerJoin('members as b', 'a.guild_id', 'b.guild_id')
      .innerJoin('users', 'users.id', 'b.user_id')
      .select(['a.guild_id', 'users.bot']).where('a.user_id', '=', userId).where('b.user_id', '=', otherId).limit(1).executeTakeFirst();
    return shared ? { guildId: String(shared.guild_id), otherIsBot: Number(shared.bot) === 1 } : null;
  }
}

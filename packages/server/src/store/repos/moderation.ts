import { Repo } from './repo.js';
import type { AutomodRulesTable, BansTable } from '../schema.js';
import type { AuditLogEntriesTable } from '../tables/expressions.js';

/** Bans, the audit log and AutoMod rules. */
export class ModerationRepo extends Repo {
  /** Whether a user is banned from a guild. */
  async isBanned(guildId: string, userId: string): Promise<boolean> {
    return !!(await this.db.selectFrom('bans').select('user_id').where('guild_id', '=', guildId).where('user_id', '=', userId).executeTakeFirst());
  }

  /** Deletes every ban of a guild. */
  async deleteBansOf(guildId: string): Promise<void> {
    await this.db.deleteFrom('bans').where('guild_id', '=', guildId).execute();
  }

  /** Deletes a guild's audit log and AutoMod rules. */
  async deleteLogAndRulesOf(guildId: string): Promise<void> {
    await this.db.deleteFrom('audit_log_entries').where('guild_id', '=', guildId).execute();
    await this.db.deleteFrom('automod_rules').where('guild_id', '=', guildId).execute();
  }

  /** A guild's AutoMod rules (stored rows), by id. */
  async automodRulesOf(guildId: string): Promise<AutomodRulesTable[]> {
    return (await this.db.selectFrom('automod_rules').selectAll().where('guild_id', '=', guildId).orderBy('id').execute()) as AutomodRulesTable[];
  }

  /** One AutoMod rule of a guild, or null. */
  async automodRule(guildId: string, ruleId: string): Promise<AutomodRulesTable | null> {
    return (
      ((await this.db.selectFrom('automod_rules').selectAll().where('id', '=', ruleId).where('guild_id', '=', guildId).executeTakeFirst()) as
        AutomodRulesTable | undefined) ?? null
    );
  }

  /** The AutoMod rules of a guild among `ids`. */
  async automodRulesByIds(guildId: string, ids: string[]): Promise<AutomodRulesTable[]> {
    if (!ids.length) return [];
    return (await this.db.selectFrom('automod_rules').selectAll().where('guild_id', '=', guildId).where('id', 'in', ids).execute()) as AutomodRulesTable[];
  }

  /** Inserts an AutoMod rule. */
  async insertAutomodRule(row: AutomodRulesTable): Promise<void> {
    await this.db.insertInto('automod_rules').values(row).execute();
  }

  /** Rewrites an AutoMod rule's definition and enabled flag. */
  async updateAutomodRule(id: string, data: string, enabled: number): Promise<void> {
    await this.db.updateTable('automod_rules').set({ data, enabled }).where('id', '=', id).execute();
  }

  /** Deletes an AutoMod rule. */
  async deleteAutomodRule(id: string): Promise<void> {
    await this.db.deleteFrom('automod_rules').where('id', '=', id).execute();
  }

  /** Appends one audit log entry. */
  async insertAuditEntry(row: AuditLogEntriesTable): Promise<void> {
    await this.db.insertInto('audit_log_entries').values(row).execute();
  }

  /** Deletes a guild's audit log. */
  async deleteAuditLogOf(guildId: string): Promise<void> {
    await this.db.deleteFrom('audit_log_entries').where('guild_id', '=', guildId).execute();
  }

  /**
   * One page of a guild's audit log created at or after `since`, filtered by actor, target and type: newest first, or
   * oldest first when only `after` is given.
   */
  async auditLogPage(
    guildId: string,
    q: { since: number; user_id?: string; target_id?: string; action_type?: number; before?: string; after?: string; limit: number },
  ): Promise<AuditLogEntriesTable[]> {
    let sel = this.db.selectFrom('audit_log_entries').selectAll().where('guild_id', '=', guildId).where('created_at', '>=', q.since);
    if (q.user_id !== undefined) sel = sel.where('user_id', '=', q.user_id);
    if (q.target_id !== undefined) sel = sel.where('target_id', '=', q.target_id);
    if (q.action_type !== undefined) sel = sel.where('action_type', '=', q.action_type);
    const ascending = q.after !== undefined && q.before === undefined;
    if (q.before !== undefined) sel = sel.where('id', '<', q.before);
    if (q.after !== undefined) sel = sel.where('id', '>', q.after);
    return (await sel
      .orderBy('id', ascending ? 'asc' : 'desc')
      .limit(q.limit)
      .execute()) as AuditLogEntriesTable[];
  }

  /** The page of a guild's bans just before user id `before` (all when null), in ascending user id order. */
  async bansBefore(guildId: string, before: string | null, limit: number): Promise<{ user_id: string; reason: string | null }[]> {
    let sel = this.db.selectFrom('bans').selectAll().where('guild_id', '=', guildId);
    if (before !== null) sel = sel.where('user_id', '<', before);
    const rows = (await sel.orderBy('user_id', 'desc').limit(limit).execute()).reverse();
    return rows.map((r) => ({ user_id: String(r.user_id), reason: r.reason ?? null }));
  }

  /** A guild's bans after user id `after`, in ascending user id order. */
  async bansAfter(guildId: string, after: string, limit: number): Promise<{ user_id: string; reason: string | null }[]> {
    const rows = await this.db
      .selectFrom('bans')
      .selectAll()
      .where('guild_id', '=', guildId)
      .where('user_id', '>', after)
      .orderBy('user_id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ user_id: String(r.user_id), reason: r.reason ?? null }));
  }

  /** A user's ban in a guild (its reason), or null. */
  async banOf(guildId: string, userId: string): Promise<{ reason: string | null } | null> {
    const row = await this.db.selectFrom('bans').selectAll().where('guild_id', '=', guildId).where('user_id', '=', userId).executeTakeFirst();
    return row ? { reason: row.reason ?? null } : null;
  }

  /** The users among `userIds` banned from a guild. */
  async bannedAmong(guildId: string, userIds: string[]): Promise<string[]> {
    if (!userIds.length) return [];
    return (await this.db.selectFrom('bans').select('user_id').where('guild_id', '=', guildId).where('user_id', 'in', userIds).execute()).map((r) =>
      String(r.user_id),
    );
  }

  /** Inserts bans (several rows at once). */
  async insertBans(rows: BansTable[]): Promise<void> {
    if (!rows.length) return;
    await this.db.insertInto('bans').values(rows).execute();
  }

  /** Lifts a ban; false when there was none. */
  async unban(guildId: string, userId: string): Promise<boolean> {
    const res = await this.db.deleteFrom('bans').where('guild_id', '=', guildId).where('user_id', '=', userId).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  /** Whether a user is banned from a guild. */
  async isBannedFrom(guildId: string, userId: string): Promise<boolean> {
    return !!(await this.db.selectFrom('bans').select('user_id').where('guild_id', '=', guildId).where('user_id', '=', userId).executeTakeFirst());
  }
}

import { Repo } from './repo.js';
import type { InvitesTable } from '../schema.js';
import { toInvite } from './mappers.js';
import type { InviteRecord } from '../records.js';
import '../tables/guild-extras.js';

/** An invite's extras as stored: roles granted on accept, whether only listed users may accept, the last upload job. */
export interface InviteMetaRow {
  role_ids: string;
  targeted: number;
  job: string | null;
}

/** Invites and their target users. */
export class InvitesRepo extends Repo {
  /** Whether an invite code is taken. */
  async codeExists(code: string): Promise<boolean> {
    return !!(await this.db.selectFrom('invites').select('code').where('code', '=', code).executeTakeFirst());
  }

  /** Inserts an invite row (the code must be free). */
  async insertInvite(row: InvitesTable): Promise<void> {
    await this.db.insertInto('invites').values(row).execute();
  }

  /** Deletes every invite of a guild. */
  async deleteInGuild(guildId: string): Promise<void> {
    await this.db.deleteFrom('invites').where('guild_id', '=', guildId).execute();
  }

  /** Deletes the roles and target users attached to a guild's invites (before the invites themselves). */
  async deleteExtrasInGuild(guildId: string): Promise<void> {
    const codes = this.db.selectFrom('invites').select('code').where('guild_id', '=', guildId);
    await this.db.deleteFrom('invite_meta').where('code', 'in', codes).execute();
    await this.db.deleteFrom('invite_targets').where('code', 'in', codes).execute();
  }

  /** The code of a channel's permanent invite with no inviter (the widget's), or null. */
  async permanentSystemInviteOf(channelId: string): Promise<string | null> {
    const rows = await this.db
      .selectFrom('invites')
      .select(['code'])
      .where('channel_id', '=', channelId)
      .where('inviter_id', 'is', null)
      .where('max_age', '=', 0)
      .where('max_uses', '=', 0)
      .limit(1)
      .execute();
    return rows[0]?.code ?? null;
  }

  /** Inserts an invite row. */
  async insertRow(row: InvitesTable): Promise<void> {
    await this.db.insertInto('invites').values(row).execute();
  }

  /** One invite by code, or null (live or not). */
  async byCode(code: string): Promise<InviteRecord | null> {
    const row = await this.db.selectFrom('invites').selectAll().where('code', '=', code).executeTakeFirst();
    return row ? toInvite(row) : null;
  }

  /** The invites of a channel by one inviter with these settings (candidates for reuse). */
  async sameSettings(channelId: string, inviterId: string, maxAge: number, maxUses: number, temporary: boolean): Promise<InviteRecord[]> {
    const rows = await this.db
      .selectFrom('invites')
      .selectAll()
      .where('channel_id', '=', channelId)
      .where('inviter_id', '=', inviterId)
      .where('max_age', '=', maxAge)
      .where('max_uses', '=', maxUses)
      .where('temporary', '=', temporary ? 1 : 0)
      .execute();
    return rows.map(toInvite);
  }

  /** How many invites a guild has (live or not). */
  async countInGuild(guildId: string): Promise<number> {
    const row = await this.db
      .selectFrom('invites')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('guild_id', '=', guildId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Stores an invite. */
  async insert(inv: InviteRecord): Promise<void> {
    await this.db
      .insertInto('invites')
      .values({
        code: inv.code,
        guild_id: inv.guild_id,
        channel_id: inv.channel_id,
        inviter_id: inv.inviter_id,
        max_age: inv.max_age,
        max_uses: inv.max_uses,
        uses: inv.uses,
        temporary: inv.temporary ? 1 : 0,
        target_type: inv.target_type,
        target_user_id: inv.target_user_id,
        flags: inv.flags,
        created_at: inv.created_at,
      })
      .execute();
  }

  /** The invites of a channel, oldest first (live or not). */
  async ofChannel(channelId: string): Promise<InviteRecord[]> {
    return (await this.db.selectFrom('invites').selectAll().where('channel_id', '=', channelId).orderBy('created_at').execute()).map(toInvite);
  }

  /** The invites of a guild, oldest first (live or not). */
  async ofGuild(guildId: string): Promise<InviteRecord[]> {
    return (await this.db.selectFrom('invites').selectAll().where('guild_id', '=', guildId).orderBy('created_at').execute()).map(toInvite);
  }

  /** Deletes an invite (its extras are separate: deleteExtras). */
  async delete(code: string): Promise<void> {
    await this.db.deleteFrom('invites').where('code', '=', code).execute();
  }

  /** Uses an invite once, atomically, unless its uses ran out; false when it could not be used. */
  async useOnce(code: string): Promise<boolean> {
    const used = await this.db
      .updateTable('invites')
      .set((eb) => ({ uses: eb('uses', '+', 1) }))
      .where('code', '=', code)
      .where((eb) => eb.or([eb('max_uses', '=', 0), eb('uses', '<', eb.ref('max_uses'))]))
      .executeTakeFirst();
    return Number(used.numUpdatedRows) > 0;
  }

  /** How many times an invite was used, or null when it is gone. */
  async uses(code: string): Promise<number | null> {
    const row = await this.db.selectFrom('invites').select('uses').where('code', '=', code).executeTakeFirst();
    return row ? Number(row.uses) : null;
  }

  /** An invite's extras, or null. */
  async meta(code: string): Promise<InviteMetaRow | null> {
    const row = await this.db.selectFrom('invite_meta').selectAll().where('code', '=', code).executeTakeFirst();
    return row ? { role_ids: row.role_ids, targeted: Number(row.targeted), job: row.job ?? null } : null;
  }

  /** Which of these codes carry extras. */
  async codesWithMeta(codes: string[]): Promise<Set<string>> {
    if (!codes.length) return new Set();
    const rows = await this.db.selectFrom('invite_meta').select('code').where('code', 'in', codes).execute();
    return new Set(rows.map((r) => r.code));
  }

  /** Stores an invite's extras and its target users (500 per insert), in one transaction. */
  async insertExtras(code: string, meta: InviteMetaRow, targets: string[] | null): Promise<void> {
    const run = async (trx: typeof this.db) => {
      await trx
        .insertInto('invite_meta')
        .values({ code, ...meta })
        .execute();
      for (let i = 0; targets && i < targets.length; i += 500) {
        await trx
          .insertInto('invite_targets')
          .values(targets.slice(i, i + 500).map((user_id) => ({ code, user_id })))
          .execute();
      }
    };
    await (this.db.isTransaction ? run(this.db) : this.db.transaction().execute(run));
  }

  /** The target users of an invite, by id. */
  async targetsOf(code: string): Promise<string[]> {
    const rows = await this.db.selectFrom('invite_targets').select('user_id').where('code', '=', code).orderBy('user_id').execute();
    return rows.map((r) => String(r.user_id));
  }

  /** Whether a user is among an invite's targets. */
  async isTarget(code: string, userId: string): Promise<boolean> {
    return !!(await this.db.selectFrom('invite_targets').select('user_id').where('code', '=', code).where('user_id', '=', userId).executeTakeFirst());
  }

  /** Replaces, adds or removes target users and marks the invite targeted with this job (JSON text), in one transaction. */
  async changeTargets(code: string, op: 'replace' | 'add' | 'remove', ids: string[], job: string): Promise<void> {
    const run = async (trx: typeof this.db) => {
      if (op === 'replace') await trx.deleteFrom('invite_targets').where('code', '=', code).execute();
      if (op === 'remove') {
        for (let i = 0; i < ids.length; i += 500)
          await trx
            .deleteFrom('invite_targets')
            .where('code', '=', code)
            .where('user_id', 'in', ids.slice(i, i + 500))
            .execute();
      } else {
        const have =
          op === 'add'
            ? new Set((await trx.selectFrom('invite_targets').select('user_id').where('code', '=', code).execute()).map((r) => String(r.user_id)))
            : new Set<string>();
        const fresh = ids.filter((id) => !have.has(id));
        for (let i = 0; i < fresh.length; i += 500)
          await trx
            .insertInto('invite_targets')
            .values(fresh.slice(i, i + 500).map((user_id) => ({ code, user_id })))
            .execute();
      }
      const meta = await trx.selectFrom('invite_meta').select('code').where('code', '=', code).executeTakeFirst();
      if (meta) await trx.updateTable('invite_meta').set({ targeted: 1, job }).where('code', '=', code).execute();
      else await trx.insertInto('invite_meta').values({ code, role_ids: '[]', targeted: 1, job }).execute();
    };
    await (this.db.isTransaction ? run(this.db) : this.db.transaction().execute(run));
  }

  /** Drops an invite's extras. */
  async deleteExtras(code: string): Promise<void> {
    await this.db.deleteFrom('invite_targets').where('code', '=', code).execute();
    await this.db.deleteFrom('invite_meta').where('code', '=', code).execute();
  }
}

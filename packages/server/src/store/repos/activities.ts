import { Repo } from './repo.js';
import '../tables/activities.js';

/** A running or ended Activity instance. */
export interface ActivityInstanceRecord {
  instance_id: string;
  application_id: string;
  launch_id: string;
  channel_id: string;
  guild_id: string | null;
  created_at: number;
  ended_at: number | null;
}

/** A Gateway session in an Activity instance. */
export interface ActivityParticipantRecord {
  user_id: string;
  session_id: string;
  nonce: string | null;
  joined_at: number;
}

const toInstance = (r: any): ActivityInstanceRecord => ({
  instance_id: r.instance_id,
  application_id: String(r.application_id),
  launch_id: String(r.launch_id),
  channel_id: String(r.channel_id),
  guild_id: r.guild_id == null ? null : String(r.guild_id),
  created_at: Number(r.created_at),
  ended_at: r.ended_at == null ? null : Number(r.ended_at),
});

/** Activities: settings, URL mappings, instances and proxy tickets. */
export class ActivitiesRepo extends Repo {
  /** One instance (running or ended), or null. */
  async instance(instanceId: string): Promise<ActivityInstanceRecord | null> {
    const row = await this.db.selectFrom('activity_instances').selectAll().where('instance_id', '=', instanceId).executeTakeFirst();
    return row ? toInstance(row) : null;
  }

  /** The participants of an instance, in joining order. */
  async participantsOf(instanceId: string): Promise<ActivityParticipantRecord[]> {
    const rows = await this.db.selectFrom('activity_participants').selectAll().where('instance_id', '=', instanceId).orderBy('joined_at').execute();
    return rows.map((r) => ({ user_id: String(r.user_id), session_id: r.session_id, nonce: r.nonce, joined_at: Number(r.joined_at) }));
  }

  /**
   * In one transaction: joins the running instance of `liveKey` (app:channel), or starts one from `fresh()` when there
   * is none. Null when a concurrent launch or end got in the way (the caller retries).
   */
  async join(liveKey: string, fresh: () => Omit<ActivityInstanceRecord, 'ended_at'>, p: ActivityParticipantRecord): Promise<ActivityInstanceRecord | null> {
    const run = async (trx: typeof this.db) => {
      let row: any = await trx.selectFrom('activity_instances').selectAll().where('live_key', '=', liveKey).executeTakeFirst();
      if (!row) {
        const values = { ...fresh(), live_key: liveKey, ended_at: null };
        const r = await trx
          .insertInto('activity_instances')
          .values(values)
          .onConflict((oc) => oc.column('live_key').doNothing())
          .executeTakeFirst();
        if (!Number(r.numInsertedOrUpdatedRows ?? 0)) return null; // someone started one at the same moment: join theirs
        row = values;
      } else {
        // Takes the row's lock (PostgreSQL), so the instance cannot end between this check and the insert below.
        const r = await trx
          .updateTable('activity_instances')
          .set({ live_key: liveKey })
          .where('instance_id', '=', row.instance_id)
          .where('ended_at', 'is', null)
          .executeTakeFirst();
        if (!Number(r.numUpdatedRows)) return null;
      }
      await trx
        .insertInto('activity_participants')
        .values({ instance_id: row.instance_id, user_id: p.user_id, session_id: p.session_id, nonce: p.nonce, joined_at: p.joined_at })
        .onConflict((oc) => oc.columns(['instance_id', 'user_id', 'session_id']).doUpdateSet({ nonce: p.nonce }))
        .execute();
      return toInstance(row);
    };
    return this.db.isTransaction ? run(this.db) : this.db.transaction().execute(run);
  }

  /** The ids of the instances a Gateway session takes part in. */
  async instanceIdsOfSession(userId: string, sessionId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('activity_participants')
      .select('instance_id')
      .where('user_id', '=', userId)
      .where('session_id', '=', sessionId)
      .execute();
    return rows.map((r) => r.instance_id);
  }

  /**
   * In one transaction: removes a user's participation (one session, or all), and ends the instance at `now` when no
   * one is left. Null: nothing was removed; true: the instance ended; false: others remain.
   */
  async removeParticipants(instanceId: string, userId: string, sessionId: string | undefined, now: number): Promise<boolean | null> {
    const run = async (trx: typeof this.db) => {
      // Lock the instance row first, as launches do.
      await trx.updateTable('activity_instances').set({ instance_id: instanceId }).where('instance_id', '=', instanceId).execute();
      let del = trx.deleteFrom('activity_participants').where('instance_id', '=', instanceId).where('user_id', '=', userId);
      if (sessionId) del = del.where('session_id', '=', sessionId);
      const r = await del.executeTakeFirst();
      if (!Number(r.numDeletedRows)) return null;
      const left = await trx.selectFrom('activity_participants').select('user_id').where('instance_id', '=', instanceId).limit(1).execute();
      if (left.length) return false;
      await trx.updateTable('activity_instances').set({ ended_at: now, live_key: null }).where('instance_id', '=', instanceId).execute();
      return true;
    };
    return this.db.isTransaction ? run(this.db) : this.db.transaction().execute(run);
  }

  /** The running instances in a guild's channels. */
  async runningInGuild(guildId: string): Promise<ActivityInstanceRecord[]> {
    return (await this.db.selectFrom('activity_instances').selectAll().where('guild_id', '=', guildId).where('ended_at', 'is', null).execute()).map(toInstance);
  }
}

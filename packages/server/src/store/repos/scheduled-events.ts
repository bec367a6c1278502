import { Repo } from './repo.js';
import '../tables/expressions.js';

/** A scheduled event as stored (times in ms, JSON columns as text). */
export interface ScheduledEventRow {
  id: string;
  guild_id: string;
  channel_id: string | null;
  creator_id: string | null;
  name: string;
  description: string | null;
  scheduled_start_time: number;
  scheduled_end_time: number | null;
  privacy_level: number;
  status: number;
  entity_type: number;
  entity_id: string | null;
  entity_metadata: string | null;
  image: string | null;
  recurrence_rule: string | null;
  created_at: number;
}
/** An exception of a recurring event (one occurrence moved or cancelled), as stored. */
export interface ScheduledEventExceptionRow {
  event_id: string;
  exception_id: string;
  scheduled_start_time: number | null;
  scheduled_end_time: number | null;
  is_canceled: number;
}
/** A cover image to keep for an event (in the shared image assets, under the event's id). */
export interface EventCover {
  contentType: string;
  data: Buffer;
  hash: string;
}

/** Guild scheduled events and their subscribers. */
export class ScheduledEventsRepo extends Repo {
  /** Deletes every scheduled event of a guild with its subscribers, exceptions and cover images. */
  async deleteInGuild(guildId: string): Promise<void> {
    const ids = (await this.db.selectFrom('scheduled_events').select('id').where('guild_id', '=', guildId).execute()).map((r) => String(r.id));
    await this.deleteMany(ids);
  }

  /** One event of a guild, or null. */
  async byId(guildId: string, eventId: string): Promise<ScheduledEventRow | null> {
    return ((await this.db.selectFrom('scheduled_events').selectAll().where('id', '=', eventId).where('guild_id', '=', guildId).executeTakeFirst()) ??
      null) as ScheduledEventRow | null;
  }

  /** Every event of a guild, by id. */
  async ofGuild(guildId: string): Promise<ScheduledEventRow[]> {
    return (await this.db.selectFrom('scheduled_events').selectAll().where('guild_id', '=', guildId).orderBy('id').execute()) as ScheduledEventRow[];
  }

  /** The events of a guild among these ids. */
  async byIds(guildId: string, ids: string[]): Promise<ScheduledEventRow[]> {
    if (!ids.length) return [];
    return (await this.db.selectFrom('scheduled_events').selectAll().where('guild_id', '=', guildId).where('id', 'in', ids).execute()) as ScheduledEventRow[];
  }

  /** How many events of a guild are scheduled or active. */
  async countOpen(guildId: string): Promise<number> {
    const row = await this.db
      .selectFrom('scheduled_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('guild_id', '=', guildId)
      .where('status', 'in', [1, 2])
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Moves an event from one status to another; false when its status was no longer `from`. */
  async changeStatus(id: string, from: number, to: number): Promise<boolean> {
    const res = await this.db.updateTable('scheduled_events').set({ status: to }).where('id', '=', id).where('status', '=', from).executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** Sets an event's status (and its entity id when given). */
  async setStatus(id: string, status: number, entityId?: string): Promise<void> {
    await this.db
      .updateTable('scheduled_events')
      .set({ status, ...(entityId !== undefined ? { entity_id: entityId } : {}) })
      .where('id', '=', id)
      .execute();
  }

  /** Creates an event with its cover image (none: null), in one transaction. */
  async create(row: ScheduledEventRow, cover: EventCover | null, now: number): Promise<void> {
    const run = async (trx: typeof this.db) => {
      if (cover) {
        await trx.deleteFrom('expression_assets').where('id', '=', row.id).execute();
        await trx
          .insertInto('expression_assets')
          .values({ id: row.id, kind: 'event-cover', content_type: cover.contentType, hash: cover.hash, data: cover.data, created_at: now })
          .execute();
      }
      await trx.insertInto('scheduled_events').values(row).execute();
    };
    await (this.db.isTransaction ? run(this.db) : this.db.transaction().execute(run));
  }

  /**
   * Applies a partial to an event in one transaction: a new cover (a cover, null to remove it, undefined to keep it),
   * and with `dropExceptions` the exceptions of its old recurrence go.
   */
  async update(
    id: string,
    set: Partial<Omit<ScheduledEventRow, 'id' | 'guild_id'>>,
    cover: EventCover | null | undefined,
    dropExceptions: boolean,
    now: number,
  ): Promise<void> {
    const run = async (trx: typeof this.db) => {
      if (cover === null) await trx.deleteFrom('expression_assets').where('id', '=', id).execute();
      else if (cover) {
        await trx.deleteFrom('expression_assets').where('id', '=', id).execute();
        await trx
          .insertInto('expression_assets')
          .values({ id, kind: 'event-cover', content_type: cover.contentType, hash: cover.hash, data: cover.data, created_at: now })
          .execute();
      }
      await trx.updateTable('scheduled_events').set(set).where('id', '=', id).execute();
      if (dropExceptions) await trx.deleteFrom('scheduled_event_exceptions').where('event_id', '=', id).execute();
    };
    await (this.db.isTransaction ? run(this.db) : this.db.transaction().execute(run));
  }

  /** Deletes events with their interested users, exceptions and covers, in one transaction. */
  async deleteMany(ids: string[]): Promise<void> {
    if (!ids.length) return;
    const run = async (trx: typeof this.db) => {
      await trx.deleteFrom('scheduled_event_users').where('event_id', 'in', ids).execute();
      await trx.deleteFrom('scheduled_event_exceptions').where('event_id', 'in', ids).execute();
      await trx.deleteFrom('expression_assets').where('id', 'in', ids).execute();
      await trx.deleteFrom('scheduled_events').where('id', 'in', ids).execute();
    };
    await (this.db.isTransaction ? run(this.db) : this.db.transaction().execute(run));
  }

  /** The exceptions of these events, by exception id. */
  async exceptionsOf(eventIds: string[]): Promise<ScheduledEventExceptionRow[]> {
    if (!eventIds.length) return [];
    return (await this.db
      .selectFrom('scheduled_event_exceptions')
      .selectAll()
      .where('event_id', 'in', eventIds)
      .orderBy('exception_id')
      .execute()) as ScheduledEventExceptionRow[];
  }

  /** One exception of an event, or null. */
  async exception(eventId: string, exceptionId: string): Promise<ScheduledEventExceptionRow | null> {
    return ((await this.db
      .selectFrom('scheduled_event_exceptions')
      .selectAll()
      .where('event_id', '=', eventId)
      .where('exception_id', '=', exceptionId)
      .executeTakeFirst()) ?? null) as ScheduledEventExceptionRow | null;
  }

  /** Stores an exception. */
  async insertException(x: ScheduledEventExceptionRow): Promise<void> {
    await this.db.insertInto('scheduled_event_exceptions').values(x).execute();
  }

  /** Applies a partial to an exception. */
  async updateException(
    eventId: string,
    exceptionId: string,
    set: Partial<Pick<ScheduledEventExceptionRow, 'scheduled_start_time' | 'scheduled_end_time' | 'is_canceled'>>,
  ): Promise<void> {
    await this.db.updateTable('scheduled_event_exceptions').set(set).where('event_id', '=', eventId).where('exception_id', '=', exceptionId).execute();
  }

  /** Deletes an exception and the users interested in it, in one transaction. */
  async deleteException(eventId: string, exceptionId: string): Promise<void> {
    const run = async (trx: typeof this.db) => {
      await trx.deleteFrom('scheduled_event_exceptions').where('event_id', '=', eventId).where('exception_id', '=', exceptionId).execute();
      await trx.deleteFrom('scheduled_event_users').where('event_id', '=', eventId).where('exception_id', '=', exceptionId).execute();
    };
    await (this.db.isTransaction ? run(this.db) : this.db.transaction().execute(run));
  }

  /** How many users are interested in each of these events (the events themselves, exception '0'). */
  async interestedCounts(eventIds: string[]): Promise<Map<string, number>> {
    if (!eventIds.length) return new Map();
    const rows = await this.db
      .selectFrom('scheduled_event_users')
      .select(['event_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('event_id', 'in', eventIds)
      .where('exception_id', '=', '0')
      .groupBy('event_id')
      .execute();
    return new Map(rows.map((c) => [String(c.event_id), Number(c.n)]));
  }

  /** How many users are interested in an event, by exception id ('0': the event itself). */
  async interestedCountsByException(eventId: string): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('scheduled_event_users')
      .select(['exception_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('event_id', '=', eventId)
      .groupBy('exception_id')
      .execute();
    return new Map(rows.map((c) => [String(c.exception_id), Number(c.n)]));
  }

  /** One page of the ids of interested users, ascending: before `before` (wins) or after `after`. */
  async interestedPage(eventId: string, exceptionId: string, page: { before?: string; after?: string; limit: number }): Promise<string[]> {
    let sel = this.db.selectFrom('scheduled_event_users').selectAll().where('event_id', '=', eventId).where('exception_id', '=', exceptionId);
    let rows;
    if (page.before !== undefined) {
      rows = (await sel.where('user_id', '<', page.before).orderBy('user_id', 'desc').limit(page.limit).execute()).reverse();
    } else {
      if (page.after !== undefined) sel = sel.where('user_id', '>', page.after);
      rows = await sel.orderBy('user_id').limit(page.limit).execute();
    }
    return rows.map((r) => String(r.user_id));
  }

  /** Marks a user interested; false when they already were. */
  async addInterested(eventId: string, exceptionId: string, userId: string, now: number): Promise<boolean> {
    const exists = await this.db
      .selectFrom('scheduled_event_users')
      .select('user_id')
      .where('event_id', '=', eventId)
      .where('exception_id', '=', exceptionId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (exists) return false;
    await this.db
      .insertInto('scheduled_event_users')
      .values({ event_id: eventId, exception_id: exceptionId, user_id: userId, created_at: now })
      .onConflict((oc) => oc.columns(['event_id', 'exception_id', 'user_id']).doNothing())
      .execute();
    return true;
  }

  /** Removes a user's interest; false when they were not interested. */
  async removeInterested(eventId: string, exceptionId: string, userId: string): Promise<boolean> {
    const res = await this.db
      .deleteFrom('scheduled_event_users')
      .where('event_id', '=', eventId)
      .where('exception_id', '=', exceptionId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  /** A user stops being interested in every event of a guild. */
  async forgetInterest(guildId: string, userId: string): Promise<void> {
    const ids = this.db.selectFrom('scheduled_events').select('id').where('guild_id', '=', guildId);
    await this.db.deleteFrom('scheduled_event_users').where('user_id', '=', userId).where('event_id', 'in', ids).execute();
  }
}

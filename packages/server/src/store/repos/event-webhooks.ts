import { Repo } from './repo.js';
import '../tables/monetization.js';
import { parseJson } from '../json.js';

/** An outbox row a worker holds the lease of, ready to deliver. */
export interface ClaimedOutboxEvent {
  id: string;
  application_id: string;
  event_type: string;
  body: string;
  attempts: number;
  first_attempt_at: number | null;
  /** A per-event destination (a lobby's override), else null for the app's URL. */
  url: string | null;
}
/** One delivery attempt, as the worker records it. */
export interface DeliveryAttempt {
  /** The id of the delivery log entry. */
  id: string;
  event: ClaimedOutboxEvent;
  url: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  now: number;
  /** The lease holder. */
  owner: string;
  /** When a failure is retried, and whether the event is given up instead. */
  giveUp: boolean;
  nextAttemptAt: number;
  /** The `event_webhooks_status` an app gets when its webhooks are disabled for failing (3, DISABLED_BY_DISCORD). */
  disabledStatus: number;
}

/** Outgoing webhook events: each app's configuration and the outbox. */
export class EventWebhooksRepo extends Repo {
  /** Queues one event for delivery to an app, due now (`url` instead of the app's configured URL when set); `id` names it in the delivery log. */
  async enqueue(e: { id: string; applicationId: string; type: string; body: string; url: string | null; now: number }): Promise<void> {
    await this.db
      .insertInto('event_webhook_outbox')
      .values({
        id: e.id,
        application_id: e.applicationId,
        event_type: e.type,
        body: e.body,
        status: 'pending',
        attempts: 0,
        next_attempt_at: e.now,
        lease_owner: null,
        lease_until: null,
        first_attempt_at: null,
        last_attempt_at: null,
        last_status: null,
        last_error: null,
        created_at: e.now,
        delivered_at: null,
        url: e.url,
      })
      .execute();
  }

  /** Whether writes through this repository belong to an open transaction (they are visible only once it commits). */
  inTransaction(): boolean {
    return this.db.isTransaction;
  }

  /**
   * Takes up to `batch` due rows (pending and due, or delivering with an expired lease) with a lease for `owner`; a
   * row another process wins is skipped (each claim is a conditional UPDATE only one process can win).
   */
  async claimDue(owner: string, now: number, leaseMs: number, batch: number): Promise<ClaimedOutboxEvent[]> {
    const db = this.db;
    const due = (eb: any) =>
      eb.or([eb.and([eb('status', '=', 'pending'), eb('next_attempt_at', '<=', now)]), eb.and([eb('status', '=', 'delivering'), eb('lease_until', '<', now)])]);
    const candidates = await db.selectFrom('event_webhook_outbox').select('id').where(due).orderBy('next_attempt_at').orderBy('id').limit(batch).execute();
    const won: string[] = [];
    for (const c of candidates) {
      const r = await db
        .updateTable('event_webhook_outbox')
        .set({ status: 'delivering', lease_owner: owner, lease_until: now + leaseMs })
        .where('id', '=', String(c.id))
        .where(due)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 1) won.push(String(c.id));
    }
    if (!won.length) return [];
    const rows = await db
      .selectFrom('event_webhook_outbox')
      .select(['id', 'application_id', 'event_type', 'body', 'attempts', 'first_attempt_at', 'url'])
      .where('id', 'in', won)
      .where('lease_owner', '=', owner)
      .execute();
    return rows.map((r) => ({
      id: String(r.id),
      application_id: String(r.application_id),
      event_type: r.event_type,
      body: r.body,
      attempts: Number(r.attempts),
      first_attempt_at: r.first_attempt_at == null ? null : Number(r.first_attempt_at),
      url: r.url ?? null,
    }));
  }

  /**
   * Records an attempt in one transaction: the log entry, the row's next state, the app's failure streak; an event
   * given up with no success since its first attempt disables the app's event webhooks. True when it did.
   */
  async recordAttempt(a: DeliveryAttempt): Promise<boolean> {
    const run = async (trx: typeof this.db): Promise<boolean> => {
      const row = a.event;
      const now = a.now;
      const ok = a.error === null;
      const attempt = row.attempts + 1;
      const firstAttempt = row.first_attempt_at ?? now;
      await trx
        .insertInto('event_webhook_deliveries')
        .values({
          id: a.id,
          application_id: row.application_id,
          event_id: row.id,
          event_type: row.event_type,
          attempt,
          url: a.url,
          ok: ok ? 1 : 0,
          status_code: a.statusCode,
          error: a.error,
          duration_ms: a.durationMs,
          created_at: now,
        })
        .execute();
      const common = {
        attempts: attempt,
        first_attempt_at: firstAttempt,
        last_attempt_at: now,
        last_status: a.statusCode,
        last_error: a.error,
        lease_owner: null,
        lease_until: null,
      };
      if (ok) {
        await trx
          .updateTable('event_webhook_outbox')
          .set({ ...common, status: 'delivered', delivered_at: now })
          .where('id', '=', row.id)
          .execute();
        await trx
          .insertInto('event_webhook_health')
          .values({ application_id: row.application_id, consecutive_failures: 0, last_success_at: now, last_failure_at: null, disabled_at: null })
          .onConflict((oc) => oc.column('application_id').doUpdateSet({ consecutive_failures: 0, last_success_at: now }))
          .execute();
        return false;
      }
      await trx
        .updateTable('event_webhook_outbox')
        .set({ ...common, status: a.giveUp ? 'failed' : 'pending', next_attempt_at: a.nextAttemptAt })
        .where('id', '=', row.id)
        .where('status', '=', 'delivering')
        .where('lease_owner', '=', a.owner)
        .execute();
      await trx
        .insertInto('event_webhook_health')
        .values({ application_id: row.application_id, consecutive_failures: 1, last_success_at: null, last_failure_at: now, disabled_at: null })
        .onConflict((oc) =>
          oc.column('application_id').doUpdateSet((eb) => ({
            consecutive_failures: eb('event_webhook_health.consecutive_failures', '+', 1),
            last_failure_at: now,
          })),
        )
        .execute();
      if (!a.giveUp) return false;
      const health = await trx.selectFrom('event_webhook_health').select('last_success_at').where('application_id', '=', row.application_id).executeTakeFirst();
      if (health?.last_success_at == null || Number(health.last_success_at) < firstAttempt) {
        // Off on the platform's side; pending events discarded; the streak starts again when turned back on.
        const app = await trx.selectFrom('applications').select('extra').where('id', '=', row.application_id).executeTakeFirst();
        if (!app) return true;
        const extra = { ...parseJson<Record<string, any>>(app.extra, {}), event_webhooks_status: a.disabledStatus };
        await trx
          .updateTable('applications')
          .set({ extra: JSON.stringify(extra) })
          .where('id', '=', row.application_id)
          .execute();
        await trx
          .updateTable('event_webhook_outbox')
          .set({ status: 'discarded', last_error: 'event webhooks disabled after repeated failures', lease_owner: null, lease_until: null })
          .where('application_id', '=', row.application_id)
          .where('status', 'in', ['pending', 'delivering'])
          .execute();
        await trx
          .updateTable('event_webhook_health')
          .set({ consecutive_failures: 0, disabled_at: now })
          .where('application_id', '=', row.application_id)
          .execute();
        return true;
      }
      return false;
    };
    return this.db.isTransaction ? run(this.db) : this.db.transaction().execute(run);
  }

  /** Gives an event up without an attempt (the app cannot receive it), if `owner` still holds its lease. */
  async discard(id: string, owner: string, error: string): Promise<void> {
    await this.db
      .updateTable('event_webhook_outbox')
      .set({ status: 'discarded', last_error: error, lease_owner: null, lease_until: null })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .execute();
  }

  /** When the next pending event is due, or null when none is pending. */
  async nextDueAt(): Promise<number | null> {
    const row = await this.db
      .selectFrom('event_webhook_outbox')
      .select((eb) => eb.fn.min('next_attempt_at').as('next'))
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return row?.next == null ? null : Number(row.next);
  }

  /** Deletes delivery attempts and finished events created before `cutoff`. */
  async prune(cutoff: number): Promise<void> {
    await this.db.deleteFrom('event_webhook_deliveries').where('created_at', '<', cutoff).execute();
    await this.db.deleteFrom('event_webhook_outbox').where('status', 'in', ['delivered', 'failed', 'discarded']).where('created_at', '<', cutoff).execute();
  }

  /** Clears an app's failure streak (a new URL was verified). */
  async resetHealth(applicationId: string): Promise<void> {
    await this.db.updateTable('event_webhook_health').set({ consecutive_failures: 0, disabled_at: null }).where('application_id', '=', applicationId).execute();
  }

  /** An app's delivery attempts, newest first, filtered by event, type, and an id to page before. */
  async deliveriesOf(applicationId: string, q: { eventId?: string; eventType?: string; before?: string; limit: number }) {
    let query = this.db.selectFrom('event_webhook_deliveries').selectAll().where('application_id', '=', applicationId);
    if (q.eventId) query = query.where('event_id', '=', q.eventId);
    if (q.eventType) query = query.where('event_type', '=', q.eventType);
    if (q.before) query = query.where('id', '<', q.before);
    const rows = await query.orderBy('id', 'desc').limit(q.limit).execute();
    return rows.map((r) => ({
      id: String(r.id),
      event_id: String(r.event_id),
      event_type: r.event_type,
      attempt: Number(r.attempt),
      url: r.url,
      ok: Number(r.ok) === 1,
      status_code: r.status_code == null ? null : Number(r.status_code),
      error: r.error,
      duration_ms: Number(r.duration_ms),
      created_at: Number(r.created_at),
    }));
  }

  /** An app's outbox events, newest first, filtered by status and an id to page before. */
  async eventsOf(applicationId: string, q: { status?: string; before?: string; limit: number }) {
    let query = this.db.selectFrom('event_webhook_outbox').selectAll().where('application_id', '=', applicationId);
    if (q.status) query = query.where('status', '=', q.status as never);
    if (q.before) query = query.where('id', '<', q.before);
    const rows = await query.orderBy('id', 'desc').limit(q.limit).execute();
    return rows.map((r) => ({
      id: String(r.id),
      event_type: r.event_type,
      status: r.status as string,
      attempts: Number(r.attempts),
      next_attempt_at: r.next_attempt_at == null ? null : Number(r.next_attempt_at),
      last_status: r.last_status == null ? null : Number(r.last_status),
      last_error: r.last_error,
      created_at: r.created_at == null ? null : Number(r.created_at),
      delivered_at: r.delivered_at == null ? null : Number(r.delivered_at),
      body: r.body,
    }));
  }

  /** Dev tools: the outbox (of one app when given), by id, at most 10,000 events. */
  async devOutbox(applicationId?: string) {
    let q = this.db
      .selectFrom('event_webhook_outbox')
      .select(['id', 'application_id', 'event_type', 'status', 'attempts', 'next_attempt_at', 'last_error', 'body']);
    if (applicationId) q = q.where('application_id', '=', applicationId);
    const rows = await q.orderBy('id').limit(10_000).execute();
    return rows.map((r) => ({
      id: String(r.id),
      application_id: String(r.application_id),
      event_type: r.event_type,
      status: r.status as string,
      attempts: Number(r.attempts),
      next_attempt_at: Number(r.next_attempt_at),
      last_error: r.last_error,
      body: r.body,
    }));
  }
}

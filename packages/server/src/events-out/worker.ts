import crypto from 'node:crypto';
import { Passes } from '../core/passes.js';
import type { Ctx } from '../services/context.js';
import { parseJson } from '../store/json.js';
import { VERIFY_REPLY_BYTES, describeFailure, outgoingFor } from '../core/outgoing.js';
import { signedRequest } from '../services/apps/interactions/signing.js';
import { EventWebhookStatus, setOutboxKicker } from '../services/apps/webhook-events/outbox.js';
import type { Db } from '../services/commerce/model.js';
import '../store/tables/monetization.js';

/**
 * The outbox worker: claims due rows, signs each envelope with the app's Ed25519 key (the interactions scheme), POSTs
 * it, and records the attempt. Safe with several processes on one store:
 *
 * - Claiming is a conditional UPDATE (`status = 'pending' AND next_attempt_at <= now`, or `status = 'delivering' AND
 *   lease_until < now`) that only one process can win; the winner holds a lease (`lease_until`) while it delivers.
 * - A process that dies mid-delivery leaves `delivering` rows whose lease expires; any process (itself after a
 *   restart) takes them again. Pending rows simply wait. Delivery is at least once: an event POSTed just before a
 *   crash may be POSTed again.
 *
 * Success is any 2xx within 3 s (the platform asks for 204). A failure is retried after
 * min(backoff × 2^(failures − 1), cap). An event still failing `retryWindowMs` (10 min) after its first attempt is
 * given up (`failed`). If no delivery to the app succeeded during that whole window (the endpoint failed every time
 * for 10 minutes), its event webhooks are disabled (`event_webhooks_status` 3 DISABLED_BY_DISCORD) and its pending
 * events discarded, as the platform stops sending to an endpoint that keeps failing. The per-app failure streak
 * (`event_webhook_health`) is kept for visibility and reset by a success.
 */

export interface OutboxOptions {
  backoffMs: number;
  backoffMaxMs: number;
  retryWindowMs: number;
  timeoutMs: number;
  leaseMs: number;
  pollMs: number;
  batch: number;
  concurrency: number;
}

export const DEFAULT_OUTBOX_OPTIONS: OutboxOptions = {
  backoffMs: 1_000,
  backoffMaxMs: 60_000,
  retryWindowMs: 600_000,
  timeoutMs: 3_000,
  leaseMs: 10_000,
  pollMs: 1_000,
  batch: 50,
  concurrency: 8,
};

interface Claimed {
  id: string;
  application_id: string;
  event_type: string;
  body: string;
  attempts: number;
  first_attempt_at: number | null;
  /** A per-event destination (a lobby's override), else null for the app's URL. */
  url: string | null;
}

const DUE_PENDING = 'pending';

export class OutboxWorker {
  readonly owner = `${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  private readonly opts: OutboxOptions;
  private timer: NodeJS.Timeout | null = null;
  private readonly passes = new Passes(() => this.pass(), () => this.arm().catch(() => {}), 'events-out');
  private lastPrune = 0;
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly ctx: Ctx, opts: Partial<OutboxOptions> = {}) {
    this.opts = { ...DEFAULT_OUTBOX_OPTIONS, ...opts };
  }

  start(): void {
    setOutboxKicker(this.ctx, () => this.kick());
    this.unsubscribe = this.ctx.bus.subscribe((e) => {
      if (e.t === '__CLOCK_MOVED') this.kick();
    });
    this.kick(0);
  }

  /** Runs a pass soon (events just enqueued). */
  kick(delayMs = 5): void {
    if (this.passes.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.run().catch(() => {}), delayMs);
    this.timer.unref();
  }

  /** One pass over every due row; resolves with the number of attempts made by a pass started after the call. */
  run(): Promise<number> {
    return this.passes.run();
  }

  async stop(): Promise<void> {
    setOutboxKicker(this.ctx, null);
    this.unsubscribe?.();
    if (this.timer) clearTimeout(this.timer);
    await this.passes.stop();
  }

  private async pass(): Promise<number> {
    let attempts = 0;
    for (let round = 0; round < 1000 && !this.passes.stopped; round++) {
      const claimed = await this.claim();
      if (!claimed.length) break;
      attempts += claimed.length;
      let next = 0;
      const lane = async () => {
        while (next < claimed.length && !this.passes.stopped) await this.deliver(claimed[next++]);
      };
      await Promise.all(Array.from({ length: Math.min(this.opts.concurrency, claimed.length) }, lane));
    }
    await this.prune();
    return attempts;
  }

  /** Takes up to `batch` due rows with a lease; rows another process wins are skipped. */
  private async claim(): Promise<Claimed[]> {
    const db = this.ctx.db;
    const now = this.ctx.clock.now();
    const due = (eb: any) => eb.or([
      eb.and([eb('status', '=', DUE_PENDING), eb('next_attempt_at', '<=', now)]),
      eb.and([eb('status', '=', 'delivering'), eb('lease_until', '<', now)]),
    ]);
    const candidates = await db.selectFrom('event_webhook_outbox').select('id').where(due)
      .orderBy('next_attempt_at').orderBy('id').limit(this.opts.batch).execute();
    const won: string[] = [];
    for (const c of candidates) {
      const r = await db.updateTable('event_webhook_outbox')
        .set({ status: 'delivering', lease_owner: this.owner, lease_until: now + this.opts.leaseMs })
        .where('id', '=', String(c.id)).where(due).executeTakeFirst();
      if (Number(r.numUpdatedRows) === 1) won.push(String(c.id));
    }
    if (!won.length) return [];
    const rows = await db.selectFrom('event_webhook_outbox')
      .select(['id', 'application_id', 'event_type', 'body', 'attempts', 'first_attempt_at', 'url'])
      .where('id', 'in', won).where('lease_owner', '=', this.owner).execute();
    return rows.map((r) => ({
      id: String(r.id), application_id: String(r.application_id), event_type: r.event_type, body: r.body,
      attempts: Number(r.attempts), first_attempt_at: r.first_attempt_at == null ? null : Number(r.first_attempt_at),
      url: r.url ?? null,
    }));
  }

  private async deliver(row: Claimed): Promise<void> {
    const ctx = this.ctx;
    const appRow = await ctx.db.selectFrom('applications').select(['extra']).where('id', '=', row.application_id).executeTakeFirst();
    const extra = parseJson<Record<string, any>>(appRow?.extra, {});
    const url: unknown = row.url || extra.event_webhooks_url;
    if (!appRow || typeof url !== 'string' || !url || extra.event_webhooks_status !== EventWebhookStatus.ENABLED) {
      await this.finish(row, { status: 'discarded', error: 'event webhooks are not enabled for this application' });
      return;
    }
    const req = await signedRequest(ctx, row.application_id, JSON.parse(row.body));
    if (!req) {
      await this.finish(row, { status: 'discarded', error: 'the application has no signing key' });
      return;
    }
    req.headers['user-agent'] = 'Discord-Webhook/1.0 (+https://discord.com)';
    const t0 = performance.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      // The guarded client: address policy, no redirects, deadline, answer read to at most 64 KiB (core/outgoing.ts).
      const res = await outgoingFor(ctx).request(url, { method: 'POST', headers: req.headers, body: req.body, timeoutMs: this.opts.timeoutMs, maxBytes: VERIFY_REPLY_BYTES });
      statusCode = res.status;
      if (res.status < 200 || res.status > 299) error = `HTTP ${res.status}`;
    } catch (err) {
      // Fixed words only ("refused by policy", "connection refused", …): the log never maps the network behind the URL.
      error = describeFailure(err, this.opts.timeoutMs).message;
    }
    const durationMs = Math.round(performance.now() - t0);
    await this.record(row, url, statusCode, error, durationMs);
  }

  /** Writes the attempt: the log entry, the row's next state, the app's failure streak; may disable the app. */
  private async record(row: Claimed, url: string, statusCode: number | null, error: string | null, durationMs: number): Promise<void> {
    const ctx = this.ctx;
    const now = ctx.clock.now();
    const ok = error === null;
    const attempt = row.attempts + 1;
    const firstAttempt = row.first_attempt_at ?? now;
    let disable = false;
    await ctx.db.transaction().execute(async (trx) => {
      await trx.insertInto('event_webhook_deliveries').values({
        id: ctx.ids.next(), application_id: row.application_id, event_id: row.id, event_type: row.event_type, attempt, url,
        ok: ok ? 1 : 0, status_code: statusCode, error, duration_ms: durationMs, created_at: now,
      }).execute();
      const common = { attempts: attempt, first_attempt_at: firstAttempt, last_attempt_at: now, last_status: statusCode, last_error: error, lease_owner: null, lease_until: null };
      if (ok) {
        await trx.updateTable('event_webhook_outbox').set({ ...common, status: 'delivered', delivered_at: now }).where('id', '=', row.id).execute();
        await trx.insertInto('event_webhook_health')
          .values({ application_id: row.application_id, consecutive_failures: 0, last_success_at: now, last_failure_at: null, disabled_at: null })
          .onConflict((oc) => oc.column('application_id').doUpdateSet({ consecutive_failures: 0, last_success_at: now }))
          .execute();
        return;
      }
      const giveUp = now - firstAttempt >= this.opts.retryWindowMs;
      const delay = Math.min(this.opts.backoffMaxMs, this.opts.backoffMs * 2 ** Math.min(30, attempt - 1));
      await trx.updateTable('event_webhook_outbox')
        .set({ ...common, status: giveUp ? 'failed' : 'pending', next_attempt_at: now + delay })
        .where('id', '=', row.id).where('status', '=', 'delivering').where('lease_owner', '=', this.owner).execute();
      await trx.insertInto('event_webhook_health')
        .values({ application_id: row.application_id, consecutive_failures: 1, last_success_at: null, last_failure_at: now, disabled_at: null })
        .onConflict((oc) => oc.column('application_id').doUpdateSet((eb) => ({
          consecutive_failures: eb('event_webhook_health.consecutive_failures', '+', 1), last_failure_at: now,
        })))
        .execute();
      if (!giveUp) return;
      const health = await trx.selectFrom('event_webhook_health').select('last_success_at').where('application_id', '=', row.application_id).executeTakeFirst();
      if (health?.last_success_at == null || Number(health.last_success_at) < firstAttempt) {
        await disableEventWebhooks(trx, row.application_id, now);
        disable = true;
      }
    });
    if (disable) ctx.bus.publish({ t: '__EVENT_WEBHOOKS_DISABLED', d: { application_id: row.application_id } });
  }

  private async finish(row: Claimed, out: { status: 'discarded'; error: string }): Promise<void> {
    await this.ctx.db.updateTable('event_webhook_outbox')
      .set({ status: out.status, last_error: out.error, lease_owner: null, lease_until: null })
      .where('id', '=', row.id).where('lease_owner', '=', this.owner).execute();
  }

  /** Sets the timer to the next due row (at most `pollMs` away: other processes may enqueue). */
  private async arm(): Promise<void> {
    if (this.passes.stopped) return;
    const row = await this.ctx.db.selectFrom('event_webhook_outbox').select((eb) => eb.fn.min('next_attempt_at').as('next'))
      .where('status', '=', DUE_PENDING).executeTakeFirst();
    const next = row?.next == null ? null : Number(row.next);
    const wait = next == null ? this.opts.pollMs : Math.min(this.opts.pollMs, Math.max(5, next - this.ctx.clock.now()));
    if (this.passes.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.run().catch(() => {}), wait);
    this.timer.unref();
  }

  /** Keeps a week of finished events and delivery attempts. */
  private async prune(): Promise<void> {
    const now = this.ctx.clock.now();
    if (now - this.lastPrune < 600_000) return;
    this.lastPrune = now;
    const cutoff = now - 7 * 86_400_000;
    await this.ctx.db.deleteFrom('event_webhook_deliveries').where('created_at', '<', cutoff).execute();
    await this.ctx.db.deleteFrom('event_webhook_outbox').where('status', 'in', ['delivered', 'failed', 'discarded']).where('created_at', '<', cutoff).execute();
  }
}

/**
 * Turns an app's event webhooks off on the platform's side (status 3) and discards its pending events; the streak
 * starts again from zero when the owner turns them back on.
 */
export async function disableEventWebhooks(db: Db, applicationId: string, now: number): Promise<void> {
  const app = await db.selectFrom('applications').select('extra').where('id', '=', applicationId).executeTakeFirst();
  if (!app) return;
  const extra = { ...parseJson<Record<string, any>>(app.extra, {}), event_webhooks_status: EventWebhookStatus.DISABLED_BY_DISCORD };
  await db.updateTable('applications').set({ extra: JSON.stringify(extra) }).where('id', '=', applicationId).execute();
  await db.updateTable('event_webhook_outbox').set({ status: 'discarded', last_error: 'event webhooks disabled after repeated failures', lease_owner: null, lease_until: null })
    .where('application_id', '=', applicationId).where('status', 'in', ['pending', 'delivering']).execute();
  await db.updateTable('event_webhook_health').set({ consecutive_failures: 0, disabled_at: now }).where('application_id', '=', applicationId).execute();
}

/** Clears an app's failure streak (a new URL was verified). */
export async function resetEventWebhookHealth(db: Db, applicationId: string): Promise<void> {
  await db.updateTable('event_webhook_health').set({ consecutive_failures: 0, disabled_at: null }).where('application_id', '=', applicationId).execute();
}

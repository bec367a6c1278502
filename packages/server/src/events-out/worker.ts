import crypto from 'node:crypto';
import { Passes } from '../core/passes.js';
import type { Ctx } from '../services/context.js';
import { VERIFY_REPLY_BYTES, describeFailure, outgoingFor } from '../core/outgoing.js';
import { signedRequest } from '../services/apps/interactions/signing.js';
import { EventWebhookStatus, setOutboxKicker } from '../services/apps/webhook-events/outbox.js';
import type { ClaimedOutboxEvent } from '../store/repos/event-webhooks.js';

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

type Claimed = ClaimedOutboxEvent;

export class OutboxWorker {
  readonly owner = `${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  private readonly opts: OutboxOptions;
  private timer: NodeJS.Timeout | null = null;
  private readonly passes = new Passes(
    () => this.pass(),
    () => this.arm().catch(() => {}),
    'events-out',
  );
  private lastPrune = 0;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly ctx: Ctx,
    opts: Partial<OutboxOptions> = {},
  ) {
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
    return this.ctx.repos.eventWebhooks.claimDue(this.owner, this.ctx.clock.now(), this.opts.leaseMs, this.opts.batch);
  }

  private async deliver(row: Claimed): Promise<void> {
    const ctx = this.ctx;
    const appRow = await ctx.repos.applications.byId(row.application_id);
    const extra: Record<string, any> = appRow?.extra ?? {};
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
      const send = (timeoutMs: number) =>
        outgoingFor(ctx).request(url, { method: 'POST', headers: req.headers, body: req.body, timeoutMs, maxBytes: VERIFY_REPLY_BYTES });
      // Dev faults (--dev): the app's endpoint may be made to fail, time out or be slow.
      const fault = ctx.faults?.delivery('webhook_events', row.application_id);
      const res = await (fault ? fault.apply(this.opts.timeoutMs, send) : send(this.opts.timeoutMs));
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
    const giveUp = !ok && now - firstAttempt >= this.opts.retryWindowMs;
    const delay = Math.min(this.opts.backoffMaxMs, this.opts.backoffMs * 2 ** Math.min(30, attempt - 1));
    // The log entry, the row's next state and the failure streak in one transaction; a give-up with no success since
    // the first attempt disables the app's event webhooks (DISABLED_BY_DISCORD) and discards its pending events.
    const disable = await ctx.repos.eventWebhooks.recordAttempt({
      id: ctx.ids.next(),
      event: row,
      url,
      statusCode,
      error,
      durationMs,
      now,
      owner: this.owner,
      giveUp,
      nextAttemptAt: now + delay,
      disabledStatus: EventWebhookStatus.DISABLED_BY_DISCORD,
    });
    if (disable) ctx.bus.publish({ t: '__EVENT_WEBHOOKS_DISABLED', d: { application_id: row.application_id } });
  }

  private async finish(row: Claimed, out: { status: 'discarded'; error: string }): Promise<void> {
    await this.ctx.repos.eventWebhooks.discard(row.id, this.owner, out.error);
  }

  /** Sets the timer to the next due row (at most `pollMs` away: other processes may enqueue). */
  private async arm(): Promise<void> {
    if (this.passes.stopped) return;
    const next = await this.ctx.repos.eventWebhooks.nextDueAt();
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
    await this.ctx.repos.eventWebhooks.prune(cutoff);
  }
}

/** Clears an app's failure streak (a new URL was verified). */
export async function resetEventWebhookHealth(ctx: Ctx, applicationId: string): Promise<void> {
  await ctx.repos.eventWebhooks.resetHealth(applicationId);
}

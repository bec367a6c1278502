import type { Ctx } from '../context.js';
import { getApplication } from '../identity/applications.js';
import { Emission } from './emit.js';
import { getEntitlement, saveEntitlement } from './entitlements.js';
import { EntitlementType, MIGRATION_START, SubscriptionStatus, addMonths, type SubscriptionRecord } from './model.js';
import { getSku } from './skus.js';
import { getSubscription, insertPurchase, saveSubscription, discountFor, switchEntitlement } from './subscriptions.js';
import type { PurchaseRecord } from './model.js';
import { Passes } from '../../core/passes.js';

/**
 * The subscription lifecycle, driven by the injected clock. At each period end B a subscription:
 *
 * - ENDING (cancelled): ends. ENTITLEMENT_UPDATE (`ends_at` = B) → SUBSCRIPTION_UPDATE (status 1 INACTIVE).
 * - ACTIVE with a scheduled downgrade: switches SKU. ENTITLEMENT_UPDATE (old `ends_at` = B) → ENTITLEMENT_CREATE (new
 *   SKU) → SUBSCRIPTION_UPDATE (sku_ids, entitlement_ids, renewal_sku_ids, period).
 * - ACTIVE: renews. SUBSCRIPTION_UPDATE (period) and no entitlement event — except a pre-migration type-8 entitlement:
 *   renewing before 2024-10-01 extends its `ends_at` (ENTITLEMENT_UPDATE, the behaviour of the time); renewing from
 *   2024-10-01 on migrates it in place to type 1 with `ends_at` null and emits ENTITLEMENT_CREATE (the same
 *   entitlement, a new event). Entitlement events come first, as in every other row of the sequence table.
 *
 * Due subscriptions are processed one period at a time in period-end order, up to the clock's now, so moving the
 * clock by a year runs twelve renewals in order. Each step is one transaction that writes `WHERE version = ?`: two
 * processes never apply the same step twice.
 */
export async function stepSubscription(ctx: Ctx, subscriptionId: string): Promise<boolean> {
  const found = await getSubscription(ctx, subscriptionId);
  if (!found) return false;
  const emission = new Emission(ctx, found.application_id);
  const app = await getApplication(ctx, found.application_id);
  let done = false;
  try {
    done = await ctx.repos.transaction(async (tx) => {
      const sub = await getSubscription(ctx, subscriptionId, tx);
      const now = ctx.clock.now();
      if (!sub || (sub.status !== SubscriptionStatus.ACTIVE && sub.status !== SubscriptionStatus.ENDING) || sub.current_period_end > now) return false;
      const boundary = sub.current_period_end;
      const ent = sub.entitlement_id ? await getEntitlement(ctx, sub.entitlement_id, tx) : null;
      let next: SubscriptionRecord;

      if (sub.status === SubscriptionStatus.ENDING) {
        if (ent && ent.ends_at !== boundary) {
          const ended = { ...ent, ends_at: boundary };
          await saveEntitlement(tx, ended);
          await emission.entitlement(tx, 'ENTITLEMENT_UPDATE', ended);
        }
        next = { ...sub, status: SubscriptionStatus.INACTIVE, renewal_sku_id: null };
      } else {
        const nextEnd = addMonths(sub.period_anchor, sub.period_index + 2);
        const target = sub.renewal_sku_id && sub.renewal_sku_id !== sub.sku_id ? await getSku(ctx, sub.renewal_sku_id, tx) : null;
        if (target) {
          const created = await switchEntitlement(ctx, tx, emission, sub, ent, target.id, boundary, nextEnd);
          next = { ...sub, sku_id: target.id, entitlement_id: created.id, renewal_sku_id: null };
        } else {
          if (ent && !ent.deleted && ent.type === EntitlementType.APPLICATION_SUBSCRIPTION) {
            if (boundary >= MIGRATION_START) {
              const migrated = { ...ent, type: EntitlementType.PURCHASE, ends_at: null };
              await saveEntitlement(tx, migrated);
              await emission.entitlement(tx, 'ENTITLEMENT_CREATE', migrated);
            } else {
              const extended = { ...ent, ends_at: nextEnd };
              await saveEntitlement(tx, extended);
              await emission.entitlement(tx, 'ENTITLEMENT_UPDATE', extended);
            }
          }
          next = { ...sub, renewal_sku_id: null };
        }
        next = { ...next, period_index: sub.period_index + 1, current_period_start: boundary, current_period_end: nextEnd };
        const sku = target ?? (await getSku(ctx, sub.sku_id, tx));
        if (app && sku) await insertPurchase(tx, renewalPurchase(ctx, app, sub, sku, boundary));
      }
      if (!(await saveSubscription(tx, next, sub.version))) throw new Lost();
      emission.subscription('SUBSCRIPTION_UPDATE', next);
      return true;
    });
  } catch (err) {
    if (err instanceof Lost) return false;
    throw err;
  }
  if (done) await emission.publish();
  return done;
}

class Lost extends Error {}

function renewalPurchase(
  ctx: Ctx,
  app: NonNullable<Awaited<ReturnType<typeof getApplication>>>,
  sub: SubscriptionRecord,
  sku: { id: string; price: number; currency: string },
  at: number,
): PurchaseRecord {
  const d = discountFor(app, sub.user_id);
  return {
    id: ctx.ids.next(),
    application_id: app.id,
    user_id: sub.user_id,
    sku_id: sku.id,
    subscription_id: sub.id,
    entitlement_id: null,
    kind: 'renewal',
    list_price: sku.price,
    amount: Math.round((sku.price * (100 - d.percent)) / 100),
    currency: sku.currency,
    promotion: d.promotion,
    discount_percent: d.percent,
    created_at: at,
  };
}

/**
 * Processes every due period end up to now, oldest first. A batch is re-read as soon as a step leaves its subscription
 * due before the next one in the batch, so events across subscriptions also follow period-end order.
 */
export async function runDueSubscriptions(ctx: Ctx): Promise<number> {
  let processed = 0;
  for (let guard = 0; guard < 100_000; guard++) {
    const now = ctx.clock.now();
    const due = await ctx.repos.commerce.dueSubscriptions([SubscriptionStatus.ACTIVE, SubscriptionStatus.ENDING], now, 50);
    if (!due.length) break;
    let progressed = false;
    for (let i = 0; i < due.length; i++) {
      if (await stepSubscription(ctx, due[i].id)) {
        processed++;
        progressed = true;
      }
      const after = await getSubscription(ctx, due[i].id);
      const nextInBatch = due[i + 1];
      if (
        after &&
        nextInBatch &&
        after.status !== SubscriptionStatus.INACTIVE &&
        after.current_period_end <= now &&
        after.current_period_end < nextInBatch.current_period_end
      )
        break;
    }
    if (!progressed) break;
  }
  return processed;
}

/**
 * Runs the lifecycle: on a timer set to the next period end (at most a minute away), when the dev clock moves, and on
 * demand. Passes never overlap in one process; `run()` resolves after a pass that started after the call.
 */
export class LifecycleWorker {
  private readonly passes = new Passes(
    () => runDueSubscriptions(this.ctx),
    () => this.arm(),
    'monetization lifecycle',
  );
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly ctx: Ctx,
    private readonly maxSleepMs = 60_000,
  ) {}

  start(): void {
    this.unsubscribe = this.ctx.bus.subscribe((e) => {
      if (e.t === '__CLOCK_MOVED') void this.run().catch(() => {});
    });
    void this.run().catch(() => {});
  }

  run(): Promise<number> {
    return this.passes.run();
  }

  /** Sets the timer to the next period end of a live subscription. */
  private async arm(): Promise<void> {
    if (this.passes.stopped) return;
    const next = await this.ctx.repos.commerce.nextPeriodEnd([SubscriptionStatus.ACTIVE, SubscriptionStatus.ENDING]);
    const wait = next == null ? this.maxSleepMs : Math.min(this.maxSleepMs, Math.max(50, next - this.ctx.clock.now()));
    if (this.timer) clearTimeout(this.timer);
    if (this.passes.stopped) return;
    this.timer = setTimeout(() => void this.run().catch(() => {}), wait);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    if (this.timer) clearTimeout(this.timer);
    await this.passes.stop();
  }
}

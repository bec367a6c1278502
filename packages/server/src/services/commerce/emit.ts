import type { Ctx } from '../context.js';
import { enqueueWebhookEvent, kickOutbox } from '../apps/webhook-events/outbox.js';
import type { EntitlementRecord, SubscriptionRecord } from './model.js';
import type { Repos } from '../../store/repos/index.js';
import { entitlementWire, subscriptionWire, type SubscriptionView } from '../../wire/commerce.js';

/**
 * The events of one monetization change. Entitlement events also go to the app's webhook-events outbox, in the
 * change's transaction; Gateway dispatches are collected and published after the commit, in order, to the app's bot
 * sessions (they are not guild-scoped: shard 0).
 */
export class Emission {
  private readonly gateway: { t: string; d: unknown }[] = [];
  private queued = false;

  constructor(
    private readonly ctx: Ctx,
    private readonly applicationId: string,
  ) {}

  async entitlement(repos: Repos, t: 'ENTITLEMENT_CREATE' | 'ENTITLEMENT_UPDATE' | 'ENTITLEMENT_DELETE', e: EntitlementRecord): Promise<void> {
    const d = entitlementWire(e);
    this.gateway.push({ t, d });
    if (await enqueueWebhookEvent(this.ctx, this.applicationId, t, d, repos)) this.queued = true;
  }

  subscription(t: 'SUBSCRIPTION_CREATE' | 'SUBSCRIPTION_UPDATE' | 'SUBSCRIPTION_DELETE', s: SubscriptionRecord, view?: SubscriptionView): void {
    this.gateway.push({ t, d: subscriptionWire(s, view) });
  }

  /** Call after the commit. */
  async publish(): Promise<void> {
    if (this.queued) kickOutbox(this.ctx);
    if (!this.gateway.length) return;
    const app = await this.ctx.repos.applications.byId(this.applicationId);
    const bot = app?.bot_user_id ?? null;
    if (!bot) return;
    for (const e of this.gateway) this.ctx.bus.publish({ t: e.t, d: e.d, user_ids: [bot] });
  }
}

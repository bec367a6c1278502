import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../services/context.js';
import { registerMonetizationDevRoutes } from '../dev/monetization.js';
import { LifecycleWorker } from '../services/commerce/lifecycle.js';
import { setLifecycleKicker } from '../services/commerce/subscriptions.js';
import { subscribeProducers } from '../services/apps/webhook-events/producers.js';
import { OutboxWorker } from './worker.js';

export interface EventsOutRuntime {
  outbox: OutboxWorker;
  lifecycle: LifecycleWorker;
  stop(): Promise<void>;
}

/**
 * Starts the background work of premium apps and webhook events in this process: the outbox worker (which first
 * takes up whatever a previous run left pending or leased), the subscription lifecycle worker, and the producers of
 * bus-announced webhook events. Registers the dev routes in dev mode (call before the HTTP server listens).
 */
export function startEventsOut(ctx: Ctx, app: FastifyInstance): EventsOutRuntime {
  const outbox = new OutboxWorker(ctx, {
    ...(ctx.config.webhookBackoffMs != null ? { backoffMs: ctx.config.webhookBackoffMs } : {}),
    ...(ctx.config.webhookBackoffMaxMs != null ? { backoffMaxMs: ctx.config.webhookBackoffMaxMs } : {}),
    ...(ctx.config.webhookRetryWindowMs != null ? { retryWindowMs: ctx.config.webhookRetryWindowMs } : {}),
  });
  const lifecycle = new LifecycleWorker(ctx);
  if (ctx.config.dev) registerMonetizationDevRoutes(app, ctx, { outbox, lifecycle });
  const unsubscribe = subscribeProducers(ctx);
  setLifecycleKicker(ctx, () => void lifecycle.run().catch(() => {}));
  outbox.start();
  lifecycle.start();
  return {
    outbox, lifecycle,
    async stop() {
      unsubscribe();
      setLifecycleKicker(ctx, null);
      await Promise.all([outbox.stop(), lifecycle.stop()]);
    },
  };
}

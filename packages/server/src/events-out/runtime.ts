import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../services/context.js';
import { registerMonetizationDevRoutes } from '../dev/monetization.js';
import { LifecycleWorker } from '../services/commerce/lifecycle.js';
import { setLifecycleKicker } from '../services/commerce/subscriptions.js';
import { subscribeProducers } from '../services/apps/webhook-events/producers.js';
import { OutboxWorker } from './worker.js';

export interface EventsOutRuntime {
  /** The workers, when this process runs them (`workers: true`). */
  outbox: OutboxWorker | null;
  lifecycle: LifecycleWorker | null;
  stop(): Promise<void>;
}

/**
 * Starts premium apps' and webhook events' work in this process: always the producers of bus-announced webhook events
 * (they enqueue where the change was made, the bus carries them to no other process); with `workers`, the outbox
 * worker (which first takes up whatever a previous run left pending or leased) and the subscription lifecycle worker.
 * A process without them leaves enqueued rows to the worker nodes, which poll the outbox. With `devRoutes` in dev
 * mode, registers the dev routes that drive the workers (call before the HTTP server listens).
 */
export function startEventsOut(
  ctx: Ctx,
  app: FastifyInstance,
  opts: { workers: boolean; devRoutes: boolean } = { workers: true, devRoutes: true },
): EventsOutRuntime {
  const unsubscribe = subscribeProducers(ctx);
  if (!opts.workers) return { outbox: null, lifecycle: null, stop: async () => unsubscribe() };
  const outbox = new OutboxWorker(ctx, {
    ...(ctx.config.webhookBackoffMs != null ? { backoffMs: ctx.config.webhookBackoffMs } : {}),
    ...(ctx.config.webhookBackoffMaxMs != null ? { backoffMaxMs: ctx.config.webhookBackoffMaxMs } : {}),
    ...(ctx.config.webhookRetryWindowMs != null ? { retryWindowMs: ctx.config.webhookRetryWindowMs } : {}),
  });
  const lifecycle = new LifecycleWorker(ctx);
  if (ctx.config.dev && opts.devRoutes) registerMonetizationDevRoutes(app, ctx, { outbox, lifecycle });
  setLifecycleKicker(ctx, () => void lifecycle.run().catch(() => {}));
  outbox.start();
  lifecycle.start();
  return {
    outbox,
    lifecycle,
    async stop() {
      unsubscribe();
      setLifecycleKicker(ctx, null);
      await Promise.all([outbox.stop(), lifecycle.stop()]);
    },
  };
}

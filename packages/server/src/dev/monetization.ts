import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../services/context.js';
import { Errors } from '../core/errors.js';
import { devGuard } from './guard.js';
import { sendError } from '../http/app.js';
import { parseBody, snowflake } from '../core/validation.js';
import { enrollInQuest } from '../services/apps/webhook-events/producers.js';
import type { OutboxWorker } from '../events-out/worker.js';
import type { LifecycleWorker } from '../services/commerce/lifecycle.js';
import { refundEntitlement } from '../services/commerce/subscriptions.js';
import { isId } from '../core/ids.js';

const EnrollBody = z.object({ application_id: snowflake, user_id: snowflake, quest_id: snowflake.optional() });
const RefundBody = z.object({ entitlement_id: snowflake });

/**
 * Dev-only routes of premium apps and webhook events (with --dev, loopback callers only):
 *
 * - `POST /__dev/quests/enroll {application_id, user_id, quest_id?}` → `{event_id, quest_id}`: QUEST_USER_ENROLLMENT.
 * - `POST /__dev/monetization/run` → `{processed}`: runs the subscription lifecycle up to now and waits for it (the
 *   clock route already triggers it; this is the barrier tests wait on).
 * - `POST /__dev/monetization/refund {entitlement_id}` → 204: a refund (ENTITLEMENT_DELETE; a subscription's current
 *   entitlement takes the subscription with it: SUBSCRIPTION_DELETE).
 * - `POST /__dev/event-webhooks/run` → `{attempts}`: one outbox pass now, awaited.
 * - `GET /__dev/event-webhooks/outbox?application_id=` → `{counts: {pending, delivering, …}, events: [...]}`.
 */
export function registerMonetizationDevRoutes(app: FastifyInstance, ctx: Ctx, workers: { outbox: OutboxWorker; lifecycle: LifecycleWorker }): void {
  app.register(async (scope) => {
    scope.addHook('onRequest', devGuard(ctx)); // loopback and the dev token
    scope.setErrorHandler((err, _req, reply) => sendError(reply, err));
    scope.post('/__dev/quests/enroll', async (req) => enrollInQuest(ctx, parseBody(EnrollBody, req.body ?? {})));
    scope.post('/__dev/monetization/run', async () => ({ processed: await workers.lifecycle.run() }));
    scope.post('/__dev/monetization/refund', async (req, reply) => {
      await refundEntitlement(ctx, parseBody(RefundBody, req.body ?? {}).entitlement_id);
      return reply.code(204).send();
    });
    scope.post('/__dev/event-webhooks/run', async () => ({ attempts: await workers.outbox.run() }));
    scope.get('/__dev/event-webhooks/outbox', async (req) => {
      const appId = (req.query as Record<string, string | undefined>).application_id;
      if (appId && !isId(appId)) throw Errors.unknownApplication();
      const rows = await ctx.repos.eventWebhooks.devOutbox(appId || undefined);
      const counts: Record<string, number> = {};
      for (const r of rows) counts[r.status] = (counts[r.status] ?? 0) + 1;
      return {
        counts,
        events: rows.map((r) => ({
          id: r.id,
          application_id: r.application_id,
          event_type: r.event_type,
          status: r.status,
          attempts: r.attempts,
          next_attempt_at: r.next_attempt_at,
          last_error: r.last_error,
          body: JSON.parse(r.body),
        })),
      };
    });
  });
}

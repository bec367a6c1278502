import { z } from 'zod';
import { Routes, type Call } from '../router.js';
import { parseBody, qInt, snowflake } from '../../core/validation.js';
import { requireOwnedApplication } from '../../services/identity/applications.js';
import { isSnowflake } from '@accord/protocol';
import { Errors } from '../../core/errors.js';
import { eventTimestamp } from '../../services/apps/webhook-events/outbox.js';

/**
 * The owner's view of outgoing webhook events (Accord's routes; the platform shows this in the portal only):
 *
 * - `GET /applications/{id}/event-webhooks/deliveries?event_id=&event_type=&before=&limit=` — every delivery attempt,
 *   newest first: `{id, event_id, event_type, attempt, url, ok, status_code, error, duration_ms, timestamp}`.
 * - `GET /applications/{id}/event-webhooks/events?status=&before=&limit=` — the outbox, newest first: `{id, event_type,
 *   status (pending | delivering | delivered | failed | discarded), attempts, next_attempt_at, last_status, last_error,
 *   created_at, delivered_at, payload}`.
 */

const DeliveriesQuery = z.object({
  event_id: snowflake.optional(),
  event_type: z.string().max(64).optional(),
  before: snowflake.optional(),
  limit: qInt(1, 100),
});
const EventsQuery = z.object({
  status: z.enum(['pending', 'delivering', 'delivered', 'failed', 'discarded']).optional(),
  before: snowflake.optional(),
  limit: qInt(1, 100),
});

const iso = (v: unknown) => (v == null ? null : eventTimestamp(Number(v)));

async function ownApp(call: Call) {
  if (!isSnowflake(call.params.application_id)) throw Errors.unknownApplication();
  return requireOwnedApplication(call.ctx, call.actor, call.params.application_id);
}

export default new Routes()
  .get('/applications/{application_id}/event-webhooks/deliveries', 'any', async (call) => {
    const app = await ownApp(call);
    const q = parseBody(DeliveriesQuery, call.query);
    const rows = await call.ctx.repos.eventWebhooks.deliveriesOf(app.id, {
      eventId: q.event_id,
      eventType: q.event_type,
      before: q.before,
      limit: q.limit ?? 50,
    });
    return rows.map((r) => ({
      id: r.id,
      event_id: r.event_id,
      event_type: r.event_type,
      attempt: r.attempt,
      url: r.url,
      ok: r.ok,
      status_code: r.status_code,
      error: r.error,
      duration_ms: r.duration_ms,
      timestamp: iso(r.created_at),
    }));
  })
  .get('/applications/{application_id}/event-webhooks/events', 'any', async (call) => {
    const app = await ownApp(call);
    const q = parseBody(EventsQuery, call.query);
    const rows = await call.ctx.repos.eventWebhooks.eventsOf(app.id, { status: q.status, before: q.before, limit: q.limit ?? 50 });
    return rows.map((r) => ({
      id: r.id,
      event_type: r.event_type,
      status: r.status,
      attempts: r.attempts,
      next_attempt_at: iso(r.next_attempt_at),
      last_status: r.last_status,
      last_error: r.last_error,
      created_at: iso(r.created_at),
      delivered_at: iso(r.delivered_at),
      payload: JSON.parse(r.body),
    }));
  });

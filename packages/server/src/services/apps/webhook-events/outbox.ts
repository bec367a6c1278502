import type { Ctx } from '../../context.js';
import { Repos } from '../../../store/repos/index.js';

/**
 * The durable outbox of outgoing webhook events. A producer writes one row per event, in the transaction of the change
 * when it has one (pass its `tx`); the worker (worker.ts) claims due rows, signs and POSTs them, and
 * retries. Rows are written only for apps whose event webhooks are ENABLED with a URL and that subscribed to the type.
 */

/** Every event type an app may subscribe to (`event_webhooks_types`). */
export const WEBHOOK_EVENT_TYPES = [
  'APPLICATION_AUTHORIZED',
  'APPLICATION_DEAUTHORIZED',
  'ENTITLEMENT_CREATE',
  'ENTITLEMENT_UPDATE',
  'ENTITLEMENT_DELETE',
  'QUEST_USER_ENROLLMENT',
  'LOBBY_MESSAGE_CREATE',
  'LOBBY_MESSAGE_UPDATE',
  'LOBBY_MESSAGE_DELETE',
  'GAME_DIRECT_MESSAGE_CREATE',
  'GAME_DIRECT_MESSAGE_UPDATE',
  'GAME_DIRECT_MESSAGE_DELETE',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** `event_webhooks_status` values. */
export const EventWebhookStatus = { DISABLED: 1, ENABLED: 2, DISABLED_BY_DISCORD: 3 } as const;

/** Envelope timestamps as the docs show them: ISO 8601, microseconds, no offset (`2024-10-18T18:41:21.109604`). */
export function eventTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000');
}

/** The PING sent to validate a URL: `type: 0` and no `event`. */
export const pingEnvelope = (applicationId: string) => ({ version: 1, application_id: applicationId, type: 0 });

export function eventEnvelope(applicationId: string, type: string, timestampMs: number, data: unknown) {
  return { version: 1, application_id: applicationId, type: 1, event: { type, timestamp: eventTimestamp(timestampMs), data } };
}

/**
 * Whether an app's settings (the `extra` of its row) ask for this event type. With an override URL (a lobby's
 * `override_event_webhooks_url`) the app's own URL is not needed; its switch and its subscriptions still decide.
 */
export function wantsEvent(extra: Record<string, any>, type: string, overrideUrl: string | null = null): boolean {
  return (
    (!!overrideUrl || (typeof extra.event_webhooks_url === 'string' && extra.event_webhooks_url !== '')) &&
    extra.event_webhooks_status === EventWebhookStatus.ENABLED &&
    Array.isArray(extra.event_webhooks_types) &&
    extra.event_webhooks_types.includes(type)
  );
}

/** Wakes the worker of this process shortly after an enqueue (set by the worker when it starts). */
const kickers = new WeakMap<Ctx, () => void>();
export const setOutboxKicker = (ctx: Ctx, kick: (() => void) | null) => (kick ? kickers.set(ctx, kick) : kickers.delete(ctx));
export const kickOutbox = (ctx: Ctx) => kickers.get(ctx)?.();

/**
 * Queues one webhook event for an app. Returns the outbox row id (the event's id in the delivery log), or null when the
 * app does not take this event. With a unit of work's `tx`, the row commits or rolls back with the change; the caller
 * may `kickOutbox(ctx)` after the commit (the worker also polls). `url` sends this event there instead of the app's
 * `event_webhooks_url` (a lobby's override).
 */
export async function enqueueWebhookEvent(
  ctx: Ctx,
  applicationId: string,
  type: string,
  data: unknown,
  repos: Repos = ctx.repos,
  url: string | null = null,
): Promise<string | null> {
  const app = await repos.applications.byId(applicationId);
  if (!app || !wantsEvent(app.extra, type, url)) return null;
  const now = ctx.clock.now();
  const id = ctx.ids.next();
  await repos.eventWebhooks.enqueue({ id, applicationId, type, body: JSON.stringify(eventEnvelope(applicationId, type, now, data)), url, now });
  if (!repos.eventWebhooks.inTransaction()) kickOutbox(ctx);
  return id;
}

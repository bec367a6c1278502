import type { Ctx } from '../services/context.js';
import { fieldError } from '../core/errors.js';
import type { ApplicationRecord } from '../store/records.js';
import { signedRequest } from '../services/apps/interactions/signing.js';
import { pingEnvelope } from '../services/apps/webhook-events/outbox.js';
import { resetEventWebhookHealth } from './worker.js';

const VERIFY_TIMEOUT_MS = 3_000;

const invalidUrl = () => fieldError('event_webhooks_url', 'APPLICATION_EVENT_WEBHOOKS_URL_INVALID', 'The specified event webhooks url could not be verified.');

async function post(url: string, req: { body: string; headers: Record<string, string> }): Promise<number | null> {
  try {
    const res = await fetch(url, {
      method: 'POST', headers: { ...req.headers, 'user-agent': 'Discord-Webhook/1.0 (+https://discord.com)' }, body: req.body,
      redirect: 'manual', signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS),
    });
    await res.arrayBuffer().catch(() => undefined);
    return res.status;
  } catch {
    return null;
  }
}

/**
 * Checks an event webhooks URL before it is saved: a signed PING (`{"version":1,"application_id":…,"type":0}`) must be
 * answered 204 within 3 s, and the same PING with a bad signature must be refused with 401 (as discord-interactions'
 * `verifyWebhookEventMiddleware` does). Throws 50035 on `event_webhooks_url` otherwise. A verified URL starts with a
 * clean failure streak.
 */
export async function verifyEventWebhooksUrl(ctx: Ctx, app: Pick<ApplicationRecord, 'id'>, url: string): Promise<void> {
  let parsed: URL;
  try { parsed = new URL(url); } catch { throw invalidUrl(); }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalidUrl();

  const good = await signedRequest(ctx, app.id, pingEnvelope(app.id));
  if (!good || (await post(url, good)) !== 204) throw invalidUrl();
  const bad = await signedRequest(ctx, app.id, pingEnvelope(app.id), { tamper: true });
  if (!bad || (await post(url, bad)) !== 401) throw invalidUrl();
  await resetEventWebhookHealth(ctx.db, app.id);
}

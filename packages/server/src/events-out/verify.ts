import type { Ctx } from '../services/context.js';
import { fieldError } from '../core/errors.js';
import type { ApplicationRecord } from '../store/records.js';
import { signedRequest } from '../services/apps/interactions/signing.js';
import { pingEnvelope } from '../services/apps/webhook-events/outbox.js';
import { OutgoingError, VERIFY_REPLY_BYTES, describeFailure, outgoingFor } from '../core/outgoing.js';
import { urlIssue } from '../core/url-policy.js';
import { resetEventWebhookHealth } from './worker.js';

const VERIFY_TIMEOUT_MS = 3_000;
const FIELD = 'event_webhooks_url';

/** The platform's refusal; a refusal by the outgoing policy says so (and nothing about the network behind it). */
const invalidUrl = (why?: OutgoingError) =>
  fieldError(
    FIELD,
    'APPLICATION_EVENT_WEBHOOKS_URL_INVALID',
    `The specified event webhooks url could not be verified${why?.kind === 'refused' ? ' (refused by policy)' : ''}.`,
  );

/** The answer's status, or the failure; the answer body is read to at most 64 KiB (core/outgoing.ts). */
async function post(ctx: Ctx, url: string, req: { body: string; headers: Record<string, string> }): Promise<number | OutgoingError> {
  try {
    const res = await outgoingFor(ctx).request(url, {
      method: 'POST',
      headers: { ...req.headers, 'user-agent': 'Discord-Webhook/1.0 (+https://discord.com)' },
      body: req.body,
      timeoutMs: VERIFY_TIMEOUT_MS,
      maxBytes: VERIFY_REPLY_BYTES,
    });
    return res.status;
  } catch (err) {
    return describeFailure(err, VERIFY_TIMEOUT_MS);
  }
}

/**
 * Checks an event webhooks URL before it is saved: a signed PING (`{"version":1,"application_id":…,"type":0}`) must be
 * answered 204 within 3 s, and the same PING with a bad signature must be refused with 401 (as discord-interactions'
 * `verifyWebhookEventMiddleware` does). Throws 50035 on `event_webhooks_url` otherwise. The URL must be one the
 * server may call (core/url-policy.ts, `fetch`). A verified URL starts with a clean failure streak.
 */
export async function verifyEventWebhooksUrl(ctx: Ctx, app: Pick<ApplicationRecord, 'id'>, url: string): Promise<void> {
  const issue = urlIssue(url, 'fetch', outgoingFor(ctx));
  if (issue) throw fieldError(FIELD, issue.code, issue.message);

  const good = await signedRequest(ctx, app.id, pingEnvelope(app.id));
  if (!good) throw invalidUrl();
  const first = await post(ctx, url, good);
  if (first instanceof OutgoingError) throw invalidUrl(first);
  if (first !== 204) throw invalidUrl();
  const bad = await signedRequest(ctx, app.id, pingEnvelope(app.id), { tamper: true });
  if (!bad) throw invalidUrl();
  const second = await post(ctx, url, bad);
  if (second instanceof OutgoingError) throw invalidUrl(second);
  if (second !== 401) throw invalidUrl();
  await resetEventWebhookHealth(ctx, app.id);
}

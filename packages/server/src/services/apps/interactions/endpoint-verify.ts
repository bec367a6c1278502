import type { Ctx } from '../../context.js';
import { fieldError } from '../../../core/errors.js';
import type { ApplicationRecord } from '../../../store/records.js';
import { OutgoingError, VERIFY_REPLY_BYTES, outgoingFor } from '../../../core/outgoing.js';
import { urlIssue } from '../../../core/url-policy.js';
import { postSigned, signedRequest } from './signing.js';
import { mintInteractionToken } from './store.js';

const VERIFY_TIMEOUT_MS = 5_000;
const FIELD = 'interactions_endpoint_url';

/** The platform's refusal; a refusal by the outgoing policy says so (and nothing about the network behind it). */
const invalidUrl = (why?: OutgoingError) =>
  fieldError(
    FIELD,
    'APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID',
    `The specified interactions endpoint url could not be verified${why?.kind === 'refused' ? ' (refused by policy)' : ''}.`,
  );

/**
 * Checks an interactions endpoint before it is saved, as the platform does: a correctly signed PING must be answered
 * 200 with JSON `{"type": 1}`, and a PING with a bad signature must be refused with 401. Throws 50035 on
 * `interactions_endpoint_url` otherwise. The URL must be one the server may call (core/url-policy.ts, `fetch`).
 */
export async function verifyInteractionsEndpoint(ctx: Ctx, app: Pick<ApplicationRecord, 'id'>, url: string): Promise<void> {
  const issue = urlIssue(url, 'fetch', outgoingFor(ctx));
  if (issue) throw fieldError(FIELD, issue.code, issue.message);

  const ping = () => ({ type: 1, id: ctx.ids.next(), application_id: app.id, token: mintInteractionToken(ctx.ids.next()), version: 1 });

  const good = await signedRequest(ctx, app.id, ping());
  if (!good) throw invalidUrl();
  const answer = await postSigned(ctx, url, good, VERIFY_TIMEOUT_MS, VERIFY_REPLY_BYTES);
  if (answer instanceof OutgoingError) throw invalidUrl(answer);
  if (answer.status !== 200 || !answer.contentType.toLowerCase().includes('application/json')) throw invalidUrl();
  if (!answer.json || typeof answer.json !== 'object' || (answer.json as { type?: unknown }).type !== 1) throw invalidUrl();

  // The same kind of PING, signed over other bytes: an endpoint that does not check signatures accepts it.
  const bad = await signedRequest(ctx, app.id, ping(), { tamper: true });
  if (!bad) throw invalidUrl();
  const refused = await postSigned(ctx, url, bad, VERIFY_TIMEOUT_MS, VERIFY_REPLY_BYTES);
  if (refused instanceof OutgoingError) throw invalidUrl(refused);
  if (refused.status !== 401) throw invalidUrl();
}

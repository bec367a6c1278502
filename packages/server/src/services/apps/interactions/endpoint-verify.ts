import type { Ctx } from '../../context.js';
import { fieldError } from '../../../core/errors.js';
import type { ApplicationRecord } from '../../../store/records.js';
import { postSigned, signedRequest } from './signing.js';
import { mintInteractionToken } from './store.js';

const VERIFY_TIMEOUT_MS = 5_000;

const invalidUrl = () => fieldError('interactions_endpoint_url', 'APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID', 'The specified interactions endpoint url could not be verified.');

/**
 * Checks an interactions endpoint before it is saved, as the platform does: a correctly signed PING must be answered
 * 200 with JSON `{"type": 1}`, and a PING with a bad signature must be refused with 401. Throws 50035 on
 * `interactions_endpoint_url` otherwise.
 */
export async function verifyInteractionsEndpoint(ctx: Ctx, app: Pick<ApplicationRecord, 'id'>, url: string): Promise<void> {
  let parsed: URL;
  try { parsed = new URL(url); } catch { throw invalidUrl(); }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalidUrl();

  const ping = () => ({ type: 1, id: ctx.ids.next(), application_id: app.id, token: mintInteractionToken(ctx.ids.next()), version: 1 });

  const good = await signedRequest(ctx, app.id, ping());
  if (!good) throw invalidUrl();
  const answer = await postSigned(url, good, VERIFY_TIMEOUT_MS);
  if (!answer || answer.status !== 200 || !answer.contentType.toLowerCase().includes('application/json')) throw invalidUrl();
  if (!answer.json || typeof answer.json !== 'object' || (answer.json as { type?: unknown }).type !== 1) throw invalidUrl();

  // The same kind of PING, signed over other bytes: an endpoint that does not check signatures accepts it.
  const bad = await signedRequest(ctx, app.id, ping(), { tamper: true });
  if (!bad) throw invalidUrl();
  const refused = await postSigned(url, bad, VERIFY_TIMEOUT_MS);
  if (!refused || refused.status !== 401) throw invalidUrl();
}

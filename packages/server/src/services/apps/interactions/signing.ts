import crypto from 'node:crypto';
import type { Ctx } from '../../context.js';
import { parseJson } from '../../../core/json.js';
import { OutgoingError, describeFailure, outgoingFor } from '../../../core/outgoing.js';
import type { DeliveryFault } from '../../../core/dev-faults.js';

/** Ed25519 request signing for HTTP interaction delivery: signature over `timestamp + body`, hex encoded. */

const keys = new WeakMap<Ctx, Map<string, { der: string; key: crypto.KeyObject }>>();

async function signingKey(ctx: Ctx, applicationId: string): Promise<crypto.KeyObject | null> {
  const der = await ctx.repos.applications.signingKeyOf(applicationId);
  if (!der) return null;
  let cache = keys.get(ctx);
  if (!cache) keys.set(ctx, (cache = new Map()));
  const hit = cache.get(applicationId);
  if (hit && hit.der === der) return hit.key;
  const key = crypto.createPrivateKey({ key: Buffer.from(der, 'base64'), format: 'der', type: 'pkcs8' });
  cache.set(applicationId, { der, key });
  return key;
}

/** Ed25519 signature (hex) of `bytes` with the app's key; null when the app has none. Deterministic (RFC 8032). */
export async function signBytes(ctx: Ctx, applicationId: string, bytes: Buffer): Promise<string | null> {
  const key = await signingKey(ctx, applicationId);
  return key ? crypto.sign(null, bytes, key).toString('hex') : null;
}

export interface SignedRequest {
  body: string;
  headers: Record<string, string>;
}

/**
 * The exact bytes to send and their headers. `tamper` signs other bytes than the body (for the endpoint check that a
 * bad signature is refused).
 */
export async function signedRequest(ctx: Ctx, applicationId: string, payload: unknown, opts: { tamper?: boolean } = {}): Promise<SignedRequest | null> {
  const key = await signingKey(ctx, applicationId);
  if (!key) return null;
  const body = JSON.stringify(payload);
  const timestamp = String(Math.floor(ctx.clock.now() / 1000));
  const signed = opts.tamper ? `${timestamp}${body} ` : `${timestamp}${body}`;
  const signature = crypto.sign(null, Buffer.from(signed, 'utf8'), key).toString('hex');
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Discord-Interactions/1.0 (+https://discord.com)',
      'x-signature-ed25519': signature,
      'x-signature-timestamp': timestamp,
    },
  };
}

export interface SignedAnswer {
  status: number;
  /** Parsed JSON; null when the body is empty, undefined when it is not JSON. */
  json: unknown;
  contentType: string;
}

/**
 * POSTs a signed body through the guarded client (core/outgoing.ts: address policy, no redirects, deadline, at most
 * `maxBytes` of answer); resolves to the answer, or the failure in the words app owners may see. `fault`: a dev fault
 * that makes the endpoint misbehave (--dev).
 */
export async function postSigned(
  ctx: Ctx,
  url: string,
  req: SignedRequest,
  timeoutMs: number,
  maxBytes: number,
  fault: DeliveryFault | null = null,
): Promise<SignedAnswer | OutgoingError> {
  try {
    const send = (ms: number) => outgoingFor(ctx).request(url, { method: 'POST', headers: req.headers, body: req.body, timeoutMs: ms, maxBytes });
    const res = await (fault ? fault.apply(timeoutMs, send) : send(timeoutMs));
    const text = res.body.toString('utf8');
    let json: unknown = null;
    if (text) {
      try {
        json = parseJson(text);
      } catch {
        json = undefined;
      }
    }
    return { status: res.status, json, contentType: res.headers['content-type'] ?? '' };
  } catch (err) {
    return err instanceof OutgoingError ? err : describeFailure(err, timeoutMs);
  }
}

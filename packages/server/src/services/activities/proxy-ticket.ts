import crypto from 'node:crypto';
import type { Ctx } from '../context.js';
import { Errors } from '../../core/errors.js';
import { signBytes } from '../apps/interactions/signing.js';
import { loadInstance, participantsOf } from './instances.js';

/**
 * Proxy authentication (docs `multiplayer-experience.mdx`, optional for apps): requests through the proxy carry
 * `X-Discord-Proxy-Payload` (base64 JSON with `created_at`, `expires_at` and the user's context),
 * `X-Signature-Timestamp` (= `created_at`) and `X-Signature-Ed25519`, a signature over the decoded payload bytes with
 * the app's key, verified with its public `verify_key`. The docs' samples disagree on the signature's encoding (base64
 * in JS, hex in Python); Accord sends **hex**, as for interactions.
 *
 * A ticket is that signed payload: `<base64url payload>.<hex signature>`. A participant's client gets one for its
 * instance; the bridge page stores it in a cookie of the app's proxy origin; the proxy checks it and forwards it as
 * the three headers. REQUEST_PROXY_TICKET_REFRESH gets a fresh one.
 */

export const TICKET_TTL_S = 3600;

export interface ProxyTicketPayload {
  created_at: number;
  expires_at: number;
  user_id: string;
  application_id: string;
  instance_id: string;
  channel_id: string;
  guild_id?: string;
}

/** A ticket for a participant of a running instance of the app (404 code 0 otherwise, as the instance route). */
export async function mintProxyTicket(ctx: Ctx, userId: string, applicationId: string, instanceId: string): Promise<string> {
  const inst = await loadInstance(ctx, instanceId);
  if (!inst || inst.ended_at !== null || inst.application_id !== applicationId) throw Errors.notFound();
  if (!(await participantsOf(ctx, instanceId)).some((p) => p.user_id === userId)) throw Errors.notFound();
  const now = Math.floor(ctx.clock.now() / 1000);
  const payload: ProxyTicketPayload = {
    created_at: now,
    expires_at: now + TICKET_TTL_S,
    user_id: userId,
    application_id: applicationId,
    instance_id: instanceId,
    channel_id: inst.channel_id,
    ...(inst.guild_id ? { guild_id: inst.guild_id } : {}),
  };
  const bytes = Buffer.from(JSON.stringify(payload), 'utf8');
  const sig = await signBytes(ctx, applicationId, bytes);
  if (!sig) throw Errors.unknownApplication();
  return `${bytes.toString('base64url')}.${sig}`;
}

export interface VerifiedTicket {
  payload: ProxyTicketPayload;
  /** The three headers a proxied request carries. */
  headers: Record<string, string>;
}

/** Checks a ticket for this app (signature, app, expiry by the server clock); null when it does not hold. */
export async function verifyProxyTicket(ctx: Ctx, applicationId: string, ticket: string): Promise<VerifiedTicket | null> {
  const m = /^([A-Za-z0-9_-]{1,2048})\.([0-9a-f]{128})$/.exec(ticket);
  if (!m) return null;
  const bytes = Buffer.from(m[1], 'base64url');
  const expected = await signBytes(ctx, applicationId, bytes);
  if (!expected || !crypto.timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(m[2], 'hex'))) return null;
  let payload: ProxyTicketPayload;
  try {
    payload = JSON.parse(bytes.toString('utf8'));
  } catch {
    return null;
  }
  if (payload.application_id !== applicationId || payload.expires_at < Math.floor(ctx.clock.now() / 1000)) return null;
  return {
    payload,
    headers: {
      'x-discord-proxy-payload': bytes.toString('base64'),
      'x-signature-timestamp': String(payload.created_at),
      'x-signature-ed25519': m[2],
    },
  };
}

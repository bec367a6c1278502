import type { Ctx } from '../../context.js';
import type { ApplicationRecord } from '../../../store/records.js';
import { APP_FLAGS, getApplication, verifyClientSecret } from '../applications.js';
import { OAuthError, invalidClient } from './errors.js';
import { isId } from '../../../core/ids.js';

/** The client credentials of a token-endpoint request, from HTTP Basic or the form. */
export interface ClientCredentials {
  clientId: string | null;
  clientSecret: string | null;
}

export interface AuthenticatedClient {
  app: ApplicationRecord;
  /** A correct secret was presented. False for public clients and PKCE exchanges that sent none. */
  confidential: boolean;
}

/**
 * Reads the client's credentials: HTTP Basic `client_id:client_secret` (each part form-encoded, RFC 6749 §2.3.1)
 * wins over `client_id`/`client_secret` form fields.
 */
export function readClientCredentials(authorization: string | undefined, body: Record<string, unknown>): ClientCredentials {
  const field = (k: string) => (typeof body[k] === 'string' && body[k] !== '' ? (body[k] as string) : null);
  const m = /^basic\s+(.+)$/i.exec(authorization?.trim() ?? '');
  if (m) {
    const decoded = Buffer.from(m[1], 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    if (i < 0) throw new OAuthError('invalid_client', 'Invalid client');
    const dec = (s: string) => {
      try {
        return decodeURIComponent(s.replace(/\+/g, ' '));
      } catch {
        return s;
      }
    };
    return { clientId: dec(decoded.slice(0, i)) || null, clientSecret: dec(decoded.slice(i + 1)) || null };
  }
  return { clientId: field('client_id'), clientSecret: field('client_secret') };
}

export const isPublicClient = (app: ApplicationRecord) => (app.flags & APP_FLAGS.PUBLIC_OAUTH2_CLIENT) !== 0n;

/**
 * Authenticates the client. A wrong secret always fails; a missing one fails unless `secretOptional` (the caller
 * then decides: public clients, PKCE exchanges). Unknown or malformed client ids are invalid_client (401).
 */
export async function authenticateClient(ctx: Ctx, creds: ClientCredentials, secretOptional: boolean): Promise<AuthenticatedClient> {
  if (!creds.clientId || !isId(creds.clientId)) throw invalidClient();
  const app = await getApplication(ctx, creds.clientId);
  if (!app) throw invalidClient();
  if (creds.clientSecret !== null) {
    if (!(await verifyClientSecret(ctx, app.id, creds.clientSecret))) throw invalidClient();
    return { app, confidential: true };
  }
  if (!secretOptional && !isPublicClient(app)) throw invalidClient();
  return { app, confidential: false };
}

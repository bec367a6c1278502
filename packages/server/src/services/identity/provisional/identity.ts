import { EXTERNAL_AUTH_TYPES } from '@accord/protocol';
import type { Ctx } from '../../context.js';
import { fieldError } from '../../../core/errors.js';
import { hashToken } from '../tokens.js';
import { ProvisionalErrors as PE } from './errors.js';
import { verifyIdToken } from './oidc.js';
import { providersOf } from './providers.js';

/** Who an external auth token says the player is: the provider type and the provider's id for them. */
export interface ExternalIdentity {
  type: string;
  externalId: string;
  /** A display name the provider offers (OIDC `preferred_username`, 1–32 characters). */
  username: string | null;
}

/** The provider type of identities made by POST /partner-sdk/token/bot (the game backend vouches for the player). */
export const BOT_ISSUED = 'DISCORD_BOT_ISSUED_ACCESS_TOKEN';

export const isExternalAuthType = (t: unknown): t is string => typeof t === 'string' && (EXTERNAL_AUTH_TYPES as readonly string[]).includes(t);

/**
 * Resolves `external_auth_type` + `external_auth_token` for an app:
 * - OIDC: a verified ID token (oidc.ts); the identity is `iss` + `sub`;
 * - DEVICE_ID (Accord, opt-in per app): the token is the device id itself (8–256 URL-safe characters);
 * - DISCORD_BOT_ISSUED_ACCESS_TOKEN: an access token this app got from /partner-sdk/token/bot; the identity is the
 *   external user id the backend named then.
 * Other provider types need the platform's partners (Steam, Epic, …) and are not granted (530000).
 */
export async function resolveExternalAuth(ctx: Ctx, applicationId: string, type: unknown, token: unknown): Promise<ExternalIdentity> {
  if (!isExternalAuthType(type)) throw fieldError('external_auth_type', 'BASE_TYPE_CHOICES', `Value must be one of ${EXTERNAL_AUTH_TYPES.join(', ')}.`);
  if (typeof token !== 'string' || token.length < 1 || token.length > 10240)
    throw fieldError('external_auth_token', 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 10240 in length.');
  switch (type) {
    case 'OIDC': {
      const { claims } = await verifyIdToken(ctx, applicationId, token);
      const name =
        typeof claims.preferred_username === 'string' && claims.preferred_username.length >= 1 && claims.preferred_username.length <= 32
          ? claims.preferred_username
          : null;
      return { type, externalId: `${claims.iss} ${claims.sub}`, username: name };
    }
    case 'DEVICE_ID': {
      if (!(await providersOf(ctx, applicationId, 'DEVICE_ID')).length) throw PE.notGranted();
      if (!/^[A-Za-z0-9._:-]{8,256}$/.test(token))
        throw fieldError('external_auth_token', 'BASE_TYPE_INVALID', 'A device id is 8 to 256 letters, digits, ".", "_", ":" or "-".');
      return { type, externalId: token, username: null };
    }
    case BOT_ISSUED: {
      const row = token.length <= 512 ? await ctx.repos.provisional.identityOfAppToken(hashToken(token), applicationId, BOT_ISSUED) : null;
      if (!row || (row.expiresAt != null && row.expiresAt <= ctx.clock.now())) throw PE.invalidAccessToken();
      return { type, externalId: row.externalId, username: row.username };
    }
    default:
      throw PE.notGranted();
  }
}

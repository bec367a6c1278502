import type { Ctx } from '../../context.js';
import { hashToken } from '../tokens.js';
import type { ApplicationRecord, UserRecord } from '../../../store/records.js';
import { putCode, randomSecret } from './codes.js';
import { atHash, signJwt } from './jwt.js';
import { displayScopes, effectiveScopes } from './scopes.js';

/** Access tokens live a week (`expires_in: 604800`), by the server clock, so moving the dev clock expires them. */
export const ACCESS_TOKEN_TTL_S = 604800;
/** A provisional account's token lives an hour (the real GetProvisionalToken's); the game re-authenticates after. */
export const PROVISIONAL_TOKEN_TTL_S = 3600;
/** Refresh tokens outlive many access tokens; each use replaces the token (rotation). */
export const REFRESH_TOKEN_TTL_MS = 365 * 86400_000;

export interface RefreshData {
  /** The scopes as granted (display form; expanded again at issue). */
  scopes: string[];
  /** The authorization code this refresh token descends from (oauth2/lineage.ts), when it came from one. */
  lineage?: string;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  scope: string;
  id_token?: string;
  guild?: unknown;
}

/**
 * Mints an access token (and a refresh token unless `refresh` is false) for a user and an app. The token row carries
 * the effective scopes (sdk.* expanded) so scope checks are plain lookups.
 */
export async function issueTokens(
  ctx: Ctx,
  input: {
    app: ApplicationRecord;
    user: UserRecord;
    scopes: string[];
    refresh: boolean;
    nonce?: string | null;
    guild?: unknown;
    lineage?: string;
    ttlS?: number;
  },
): Promise<TokenResponse> {
  const now = ctx.clock.now();
  const ttlS = input.ttlS ?? ACCESS_TOKEN_TTL_S;
  const scopes = displayScopes(input.scopes);
  const access = randomSecret();
  // Expired tokens of the pair are dead weight.
  await ctx.repos.auth.deleteExpiredBearerTokens(input.app.id, input.user.id, now);
  await ctx.repos.auth.insertToken({
    hash: hashToken(access),
    userId: input.user.id,
    kind: 'bearer',
    applicationId: input.app.id,
    scopes: effectiveScopes(scopes).join(' '),
    expiresAt: now + ttlS * 1000,
    createdAt: now,
  });
  const out: TokenResponse = { access_token: access, token_type: 'Bearer', expires_in: ttlS, scope: scopes.join(' ') };
  if (input.refresh) {
    out.refresh_token = randomSecret();
    await putCode<RefreshData>(ctx, 'refresh_token', out.refresh_token, {
      applicationId: input.app.id,
      userId: input.user.id,
      data: { scopes, ...(input.lineage ? { lineage: input.lineage } : {}) },
      ttlMs: REFRESH_TOKEN_TTL_MS,
    });
  }
  if (scopes.includes('openid')) out.id_token = await idToken(ctx, input.app, input.user, scopes, access, input.nonce ?? null, ttlS);
  if (input.guild) out.guild = input.guild;
  return out;
}

/** The OpenID Connect ID token: who the user is, for this client, signed with the server's key (see /oauth2/keys). */
async function idToken(
  ctx: Ctx,
  app: ApplicationRecord,
  user: UserRecord,
  scopes: string[],
  accessToken: string,
  nonce: string | null,
  ttlS: number,
): Promise<string> {
  const iat = Math.floor(ctx.clock.now() / 1000);
  const effective = effectiveScopes(scopes);
  return signJwt(ctx, {
    iss: ctx.publicUrl,
    sub: user.id,
    aud: app.id,
    exp: iat + ttlS,
    iat,
    auth_time: iat,
    at_hash: atHash(accessToken),
    ...(nonce ? { nonce } : {}),
    ...(effective.includes('identify')
      ? { preferred_username: user.username, nickname: user.global_name ?? user.username, picture: avatarUrl(ctx, user) }
      : {}),
    ...(effective.includes('email') && user.email ? { email: user.email, email_verified: user.verified } : {}),
  });
}

export function avatarUrl(ctx: Ctx, user: UserRecord): string | null {
  return user.avatar ? `${ctx.publicUrl}/avatars/${user.id}/${user.avatar}.png` : null;
}

/** The OIDC userinfo claims for a user, filtered by the token's scopes. */
export function userinfo(ctx: Ctx, user: UserRecord, effective: string[]) {
  return {
    sub: user.id,
    // `picture` is a string when present (OIDC and the spec): omitted, not null, for a user without an avatar.
    ...(effective.includes('identify') || effective.includes('openid')
      ? {
          preferred_username: user.username,
          nickname: user.global_name ?? user.username,
          ...(user.avatar ? { picture: avatarUrl(ctx, user) } : {}),
          locale: 'en-US',
        }
      : {}),
    ...(effective.includes('email') ? { email: user.email, email_verified: user.verified } : {}),
  };
}

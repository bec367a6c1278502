import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { Ctx } from '../../context.js';
import { ApiError } from '../../../core/errors.js';
import { ProvisionalErrors as PE } from './errors.js';
import { jwksOf, providersOf, type ExternalAuthProvider } from './providers.js';

/** ID tokens older than this are refused (530004), even when not yet expired. */
const MAX_TOKEN_AGE_S = 7 * 86400;

export interface VerifiedIdToken {
  provider: ExternalAuthProvider;
  claims: JWTPayload & { sub: string; preferred_username?: unknown };
}

/**
 * Verifies an OIDC ID token against the app's configured providers with `jose`: the provider is picked by the token's
 * `iss`; the header must name a `kid` (530027) found in the provider's JWKS (refetched once for an unknown kid);
 * signature with one of the provider's algorithms; `iss` exact, `aud` includes the configured client id, `sub`, `exp`
 * not passed and `iat` within seven days, all by the server clock.
 */
export async function verifyIdToken(ctx: Ctx, applicationId: string, token: string): Promise<VerifiedIdToken> {
  const providers = await providersOf(ctx, applicationId, 'OIDC');
  if (!providers.length) throw PE.notGranted();
  let header;
  let unverified;
  try {
    header = decodeProtectedHeader(token);
    unverified = decodeJwt(token);
  } catch {
    throw PE.invalidJwt();
  }
  if (typeof header.kid !== 'string' || !header.kid) throw PE.missingKid();
  if (typeof header.alg !== 'string' || header.alg.startsWith('HS') || header.alg === 'none') throw PE.invalidJwt();
  const provider = providers.find((p) => p.issuer === unverified.iss);
  if (!provider) throw PE.issuerMismatch();

  const now = new Date(ctx.clock.now());
  const verify = async (refresh: boolean) => {
    let jwks;
    try {
      jwks = await jwksOf(ctx, provider, refresh);
    } catch {
      throw PE.jwksNotFound();
    }
    return jwtVerify(token, createLocalJWKSet(jwks as any), {
      issuer: provider.issuer!,
      audience: provider.audience!,
      algorithms: provider.algorithms.length ? provider.algorithms : undefined,
      currentDate: now,
      maxTokenAge: MAX_TOKEN_AGE_S,
      requiredClaims: ['sub', 'exp', 'iat'],
    });
  };
  try {
    let result;
    try {
      result = await verify(false);
    } catch (err) {
      if (!(err instanceof joseErrors.JWKSNoMatchingKey)) throw err;
      result = await verify(true); // a rotated key
    }
    return { provider, claims: result.payload as VerifiedIdToken['claims'] };
  } catch (err) {
    throw mapJoseError(err);
  }
}

function mapJoseError(err: unknown): Error {
  // jose reports an `iat` past maxTokenAge as expired, naming the claim.
  if (err instanceof joseErrors.JWTExpired) return err.claim === 'iat' ? PE.issuedTooLongAgo() : PE.expiredIdToken();
  if (err instanceof joseErrors.JWTClaimValidationFailed) {
    if (err.claim === 'iss') return PE.issuerMismatch();
    if (err.claim === 'aud') return PE.audienceMismatch();
    if (err.claim === 'iat') return PE.issuedTooLongAgo();
    return PE.invalidJwt();
  }
  if (err instanceof ApiError) return err;
  return PE.invalidJwt();
}

import crypto from 'node:crypto';
import type { Ctx } from '../../context.js';
import { getGuildRecord } from '../../guilds/lookup.js';
import { renderGuild } from '../../guilds/guild.js';
import { getUser } from '../users.js';
import type { AuthorizationCodeData } from './authorize.js';
import { authenticateClient, isPublicClient, readClientCredentials } from './clients.js';
import { peekCode, takeCode } from './codes.js';
import { pollDeviceCode } from './device.js';
import { extendLineage, openLineage, revokeLineage } from './lineage.js';
import { invalidClient, invalidGrant, OAuthError } from './errors.js';
import { getGrant } from './grants.js';
import { issueTokens, PROVISIONAL_TOKEN_TTL_S, type RefreshData, type TokenResponse } from './issue.js';
import { CLIENT_CREDENTIALS_SCOPES, splitScopes, unknownScopes } from './scopes.js';
import { mergeProvisional } from '../provisional/merge.js';
import { provisionalIds } from '../provisional/accounts.js';

export const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

type Body = Record<string, unknown>;

const str = (body: Body, k: string): string | null => (typeof body[k] === 'string' && body[k] !== '' ? (body[k] as string) : null);

/**
 * POST /oauth2/token. The body is form-encoded (or JSON); the client authenticates with HTTP Basic or form fields.
 * Every failure is an RFC 6749 error: invalid_request, invalid_client (401), invalid_grant, unsupported_grant_type,
 * invalid_scope; the device grant adds RFC 8628's authorization_pending, slow_down, access_denied, expired_token.
 */
export async function tokenEndpoint(ctx: Ctx, authorization: string | undefined, body: Body): Promise<TokenResponse> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new OAuthError('invalid_request', 'Invalid request body.');
  const grantType = str(body, 'grant_type');
  if (!grantType) throw new OAuthError('invalid_request', 'Missing "grant_type" in request.');
  const creds = readClientCredentials(authorization, body);
  switch (grantType) {
    case 'authorization_code':
      return authorizationCode(ctx, creds, body);
    case 'refresh_token':
      return refreshToken(ctx, creds, body);
    case 'client_credentials':
      return clientCredentials(ctx, creds, body);
    case DEVICE_GRANT: {
      const { app } = await authenticateClient(ctx, creds, false);
      const code = str(body, 'device_code');
      if (!code) throw new OAuthError('invalid_request', 'Missing "device_code" in request.');
      return pollDeviceCode(ctx, app, code, body);
    }
    default:
      throw new OAuthError('unsupported_grant_type', `Unsupported grant type: ${grantType.slice(0, 100)}`);
  }
}

function verifyPkce(data: AuthorizationCodeData, verifier: string | null): boolean {
  if (!data.code_challenge) return true;
  if (!verifier || !/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier)) return false;
  const expected = data.code_challenge_method === 'S256' ? crypto.createHash('sha256').update(verifier).digest('base64url') : verifier;
  const a = Buffer.from(expected);
  const b = Buffer.from(data.code_challenge);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

async function authorizationCode(ctx: Ctx, creds: ReturnType<typeof readClientCredentials>, body: Body): Promise<TokenResponse> {
  const verifier = str(body, 'code_verifier');
  // A PKCE exchange may leave the secret out; whether the code really had a challenge is checked below.
  const { app, confidential } = await authenticateClient(ctx, creds, verifier !== null);
  const code = str(body, 'code');
  if (!code) throw new OAuthError('invalid_request', 'Missing "code" in request.');
  const row = await takeCode<AuthorizationCodeData>(ctx, 'authorization_code', code);
  if (!row) {
    // Spent already (or never issued): a replay revokes what the code issued (RFC 6749 §4.1.2).
    await revokeLineage(ctx, code);
    throw invalidGrant('code');
  }
  if (row.expired || row.applicationId !== app.id || !row.userId) throw invalidGrant('code');
  const lineage = await openLineage(ctx, code, row.applicationId, row.userId);
  const data = row.data;
  if (!confidential && !data.code_challenge && !isPublicClient(app)) throw invalidClient();
  if (!verifyPkce(data, verifier)) throw invalidGrant('code_verifier');
  // The redirect_uri must repeat the authorize one; codes minted without one (Embedded App SDK, RPC) ignore it.
  if (data.redirect_uri !== null && str(body, 'redirect_uri') !== data.redirect_uri) throw invalidGrant('redirect_uri');
  const user = await getUser(ctx, row.userId);
  if (!user || !(await getGrant(ctx, app.id, user.id))) throw invalidGrant('code');
  // Social SDK: a provisional account merges into the account that just authorized (GetTokenFromProvisionalMerge).
  if (body.external_auth_type !== undefined || body.external_auth_token !== undefined) {
    await mergeProvisional(ctx, app, user, body.external_auth_type, body.external_auth_token);
  }
  let guild: unknown = undefined;
  if (data.guild_id && data.scopes.includes('bot')) {
    const g = await getGuildRecord(ctx, data.guild_id);
    if (g) guild = await renderGuild(ctx, g);
  }
  const tokens = await issueTokens(ctx, { app, user, scopes: data.scopes, refresh: true, nonce: data.nonce, guild, lineage });
  if (!(await extendLineage(ctx, lineage, user.id, tokens))) throw invalidGrant('code');
  return tokens;
}

/**
 * The refresh grant rotates: the presented refresh token is spent and a new one issued. It fails with invalid_grant
 * when the token was spent or revoked, when the grant behind it was removed (revocation, the user deauthorizing the
 * app), or when the user no longer exists.
 */
async function refreshToken(ctx: Ctx, creds: ReturnType<typeof readClientCredentials>, body: Body): Promise<TokenResponse> {
  const { app } = await authenticateClient(ctx, creds, false);
  const token = str(body, 'refresh_token');
  if (!token) throw new OAuthError('invalid_request', 'Missing "refresh_token" in request.');
  const row = await peekCode<RefreshData>(ctx, 'refresh_token', token);
  if (!row || row.expired || row.applicationId !== app.id || !row.userId) throw invalidGrant('refresh_token');
  const user = await getUser(ctx, row.userId);
  const grant = user ? await getGrant(ctx, app.id, user.id) : null;
  if (!user || !grant) throw invalidGrant('refresh_token');
  // A narrower scope may be asked for (RFC 6749 §6); never a wider one.
  let scopes = row.data.scopes;
  const asked = splitScopes(str(body, 'scope'));
  if (asked.length) {
    if (asked.some((s) => !scopes.includes(s))) throw new OAuthError('invalid_scope', 'The requested scope exceeds the granted scope.');
    scopes = asked;
  }
  // Spend it; of two concurrent refreshes with one token only one wins.
  if (!(await takeCode(ctx, 'refresh_token', token))) throw invalidGrant('refresh_token');
  const lineage = row.data.lineage;
  const provisional = (await provisionalIds(ctx, [user.id])).has(user.id);
  const tokens = await issueTokens(ctx, { app, user, scopes, refresh: true, lineage, ...(provisional ? { ttlS: PROVISIONAL_TOKEN_TTL_S } : {}) });
  if (lineage && !(await extendLineage(ctx, lineage, user.id, tokens))) throw invalidGrant('refresh_token');
  return tokens;
}

/** A token for the app's owner, without a user's consent: confidential clients only, a limited scope set, no refresh. */
async function clientCredentials(ctx: Ctx, creds: ReturnType<typeof readClientCredentials>, body: Body): Promise<TokenResponse> {
  const { app, confidential } = await authenticateClient(ctx, creds, false);
  if (!confidential) throw invalidClient();
  const scopes = splitScopes(str(body, 'scope'));
  if (!scopes.length) scopes.push('identify');
  const bad = [...unknownScopes(scopes), ...scopes.filter((s) => !CLIENT_CREDENTIALS_SCOPES.has(s))];
  if (bad.length) throw new OAuthError('invalid_scope', `Invalid scope: ${[...new Set(bad)].join(', ')}`);
  const owner = await getUser(ctx, app.owner_id);
  if (!owner) throw invalidClient();
  return issueTokens(ctx, { app, user: owner, scopes, refresh: false });
}

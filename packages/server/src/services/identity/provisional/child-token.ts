import { z } from 'zod';
import type { Ctx } from '../../context.js';
import { ApiError, Errors } from '../../../core/errors.js';
import { snowflake } from '../../../core/validation.js';
import { getApplication, verifyClientSecret } from '../applications.js';
import { hashToken } from '../tokens.js';
import { getUser } from '../users.js';
import { isPublicClient } from '../oauth2/clients.js';
import { recordGrant } from '../oauth2/grants.js';
import { issueTokens } from '../oauth2/issue.js';
import { ProvisionalErrors as PE } from './errors.js';

/**
 * Publisher-level account linking: a player authorized the publisher's (parent) app once; each of its games (child
 * apps, linked to the parent by the platform: `extra.parent_application_id`) exchanges the parent's access token for
 * its own, with the parent token's scopes and what remains of its lifetime, without a refresh token.
 * Public parents (the SDK's ExchangeChildToken) need no secret; confidential ones send `parent_client_secret`.
 */
export const ChildTokenBody = z.object({
  parent_access_token: z.string().min(1).max(512),
  child_application_id: snowflake,
  parent_client_secret: z.string().max(1024).nullable().optional(),
});

export async function exchangeChildToken(ctx: Ctx, body: z.infer<typeof ChildTokenBody>) {
  const t = await ctx.repos.auth.tokenByHash(hashToken(body.parent_access_token));
  const now = ctx.clock.now();
  if (!t || t.kind !== 'bearer' || t.applicationId == null || (t.expiresAt != null && t.expiresAt <= now)) throw PE.invalidAccessToken();
  const parent = await getApplication(ctx, t.applicationId);
  const child = await getApplication(ctx, body.child_application_id);
  if (!parent) throw PE.invalidAccessToken();
  if (!child) throw Errors.unknownApplication();
  if (child.extra.parent_application_id !== parent.id) throw new ApiError(403, 50001, "The application is not a child of the token's application");
  if (body.parent_client_secret) {
    if (!(await verifyClientSecret(ctx, parent.id, body.parent_client_secret))) throw PE.invalidClientSecret();
  } else if (!isPublicClient(parent)) throw PE.invalidClientSecret();
  const user = await getUser(ctx, t.userId);
  if (!user) throw PE.invalidAccessToken();
  const scopes = String(t.scopes ?? '')
    .split(' ')
    .filter(Boolean);
  await recordGrant(ctx, child, user, scopes, 1);
  const out = await issueTokens(ctx, { app: child, user, scopes, refresh: false });
  const remaining = t.expiresAt == null ? out.expires_in : Math.max(1, Math.floor((t.expiresAt - now) / 1000));
  await ctx.repos.auth.setTokenExpiry(hashToken(out.access_token), now + remaining * 1000);
  return { access_token: out.access_token, token_type: 'Bearer', expires_in: remaining, scope: out.scope };
}

import type { Ctx } from '../../context.js';
import { ApiError } from '../../../core/errors.js';
import type { ApplicationRecord, UserRecord } from '../../../store/records.js';
import { createUser, getUser } from '../users.js';
import { getGrant, recordGrant } from '../oauth2/grants.js';
import { issueTokens, PROVISIONAL_TOKEN_TTL_S } from '../oauth2/issue.js';
import { ProvisionalErrors as PE } from './errors.js';
import type { ExternalIdentity } from './identity.js';

/** A provisional account: a user made for one app from an external identity, without a platform login. */
export interface ProvisionalAccount {
  userId: string;
  applicationId: string;
  /** Set on the restricted account a ban left behind: the banned account it came from. */
  bannedUserId: string | null;
}

export type { ExternalIdentityRecord as IdentityRow } from '../../../store/repos/provisional.js';
import type { ExternalIdentityRecord as IdentityRow } from '../../../store/repos/provisional.js';
import { randomBytes } from '../../../core/random.js';

export async function provisionalAccount(ctx: Ctx, userId: string): Promise<ProvisionalAccount | null> {
  return ctx.repos.provisional.account(userId);
}

export async function findIdentity(ctx: Ctx, applicationId: string, type: string, externalId: string): Promise<IdentityRow | null> {
  return ctx.repos.provisional.identity(applicationId, type, externalId);
}

export async function identitiesOfUser(ctx: Ctx, userId: string, applicationId?: string): Promise<IdentityRow[]> {
  return ctx.repos.provisional.identitiesOf(userId, applicationId);
}

export async function linkIdentity(ctx: Ctx, applicationId: string, ident: ExternalIdentity, userId: string): Promise<void> {
  await ctx.repos.provisional.linkIdentity(
    {
      applicationId,
      providerType: ident.type,
      externalId: ident.externalId,
      userId,
      username: ident.username,
    },
    ctx.clock.now(),
  );
}

/** A username no one has: the provider's name (or "player") made safe, plus random characters. */
async function freshUsername(ctx: Ctx, hint: string | null): Promise<string> {
  const base =
    (hint ?? 'player')
      .toLowerCase()
      .replace(/[^a-z0-9_.]/g, '')
      .replace(/\.{2,}/g, '.')
      .slice(0, 24) || 'player';
  for (let i = 0; i < 5; i++) {
    const name = `${base}_${randomBytes(3).toString('hex')}`;
    if (!(await ctx.repos.users.humanUsernameTaken(name))) return name;
  }
  throw PE.usernameGeneration();
}

/** Creates a provisional user for an app (restricted when `bannedUserId` is set) with a display name. */
export async function createProvisionalUser(
  ctx: Ctx,
  applicationId: string,
  opts: { hint: string | null; globalName: string | null; bannedUserId?: string | null },
): Promise<UserRecord> {
  let user: UserRecord | null = null;
  for (let i = 0; i < 3 && !user; i++) {
    try {
      user = await createUser(ctx, { username: await freshUsername(ctx, opts.hint), globalName: opts.globalName });
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== 50035) throw err; // a concurrent create took the name: try another
    }
  }
  if (!user) throw PE.usernameGeneration();
  await ctx.repos.provisional.insertAccount({ userId: user.id, applicationId, bannedUserId: opts.bannedUserId ?? null }, ctx.clock.now());
  return user;
}

/** The scopes a provisional account's token carries: everything the Social SDK's communication layer needs. */
export const PROVISIONAL_SCOPES = ['openid', 'sdk.social_layer'];

/**
 * Tokens for a provisional account (the spec's ProvisionalTokenResponse: `id_token` always, through `openid`). A
 * refresh token only for confidential callers (client secret, Bot token): the refresh grant is deprecated for
 * provisional accounts, and public clients re-authenticate with the provider and call UpdateToken instead.
 */
export async function provisionalTokens(ctx: Ctx, app: ApplicationRecord, user: UserRecord, refresh: boolean) {
  if (!(await getGrant(ctx, app.id, user.id))) await recordGrant(ctx, app, user, PROVISIONAL_SCOPES, 1);
  const out = await issueTokens(ctx, { app, user, scopes: PROVISIONAL_SCOPES, refresh, ttlS: PROVISIONAL_TOKEN_TTL_S });
  return {
    token_type: out.token_type,
    access_token: out.access_token,
    expires_in: out.expires_in,
    scope: out.scope,
    id_token: out.id_token!,
    ...(out.refresh_token ? { refresh_token: out.refresh_token } : {}),
  };
}

/** Whether a user is provisional (for the wire: `is_provisional`, and for the merge rules). */
export async function provisionalIds(ctx: Ctx, userIds: string[]): Promise<Set<string>> {
  return ctx.repos.provisional.provisionalAmong(userIds);
}

export { getUser };

/**
 * The user's application profiles for an app (the SDK's GetUserApplicationProfiles): the external identities the
 * app knows them by.
 */
export async function applicationProfiles(ctx: Ctx, userId: string, applicationId: string) {
  return (await identitiesOfUser(ctx, userId, applicationId)).map((i) => {
    const [issuer, sub] =
      i.providerType === 'OIDC'
        ? [i.externalId.slice(0, i.externalId.lastIndexOf(' ')), i.externalId.slice(i.externalId.lastIndexOf(' ') + 1)]
        : [null, i.externalId];
    return {
      provider_type: i.providerType,
      provider_id: issuer ?? i.providerType,
      provider_issued_user_id: sub,
      username: i.username,
      avatar_hash: null,
      metadata: {},
    };
  });
}

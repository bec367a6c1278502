import crypto from 'node:crypto';
import type { Ctx } from '../../context.js';
import { ApiError } from '../../../core/errors.js';
import { id, idOrNull } from '../../../store/schema.js';
import '../../../store/tables/social.js';
import type { ApplicationRecord, UserRecord } from '../../../store/records.js';
import { createUser, getUser } from '../users.js';
import { getGrant, recordGrant } from '../oauth2/grants.js';
import { issueTokens } from '../oauth2/issue.js';
import { ProvisionalErrors as PE } from './errors.js';
import type { ExternalIdentity } from './identity.js';

/** A provisional account: a user made for one app from an external identity, without a platform login. */
export interface ProvisionalAccount {
  userId: string;
  applicationId: string;
  /** Set on the restricted account a ban left behind: the banned account it came from. */
  bannedUserId: string | null;
}

export interface IdentityRow {
  applicationId: string;
  providerType: string;
  externalId: string;
  userId: string;
  username: string | null;
}

const toIdentity = (r: any): IdentityRow => ({
  applicationId: id(r.application_id), providerType: String(r.provider_type), externalId: String(r.external_id), userId: id(r.user_id), username: r.username ?? null,
});

export async function provisionalAccount(ctx: Ctx, userId: string): Promise<ProvisionalAccount | null> {
  const r = await ctx.db.selectFrom('provisional_accounts').selectAll().where('user_id', '=', userId).executeTakeFirst();
  return r ? { userId: id(r.user_id), applicationId: id(r.application_id), bannedUserId: idOrNull(r.banned_user_id) } : null;
}

export async function findIdentity(ctx: Ctx, applicationId: string, type: string, externalId: string): Promise<IdentityRow | null> {
  const r = await ctx.db.selectFrom('external_identities').selectAll()
    .where('application_id', '=', applicationId).where('provider_type', '=', type).where('external_id', '=', externalId).executeTakeFirst();
  return r ? toIdentity(r) : null;
}

export async function identitiesOfUser(ctx: Ctx, userId: string, applicationId?: string): Promise<IdentityRow[]> {
  let q = ctx.db.selectFrom('external_identities').selectAll().where('user_id', '=', userId);
  if (applicationId) q = q.where('application_id', '=', applicationId);
  return (await q.orderBy('created_at').execute()).map(toIdentity);
}

export async function linkIdentity(ctx: Ctx, applicationId: string, ident: ExternalIdentity, userId: string): Promise<void> {
  await ctx.db.insertInto('external_identities').values({
    application_id: applicationId, provider_type: ident.type, external_id: ident.externalId, user_id: userId, username: ident.username, created_at: ctx.clock.now(),
  }).onConflict((oc) => oc.columns(['application_id', 'provider_type', 'external_id']).doUpdateSet({ user_id: userId })).execute();
}

/** A username no one has: the provider's name (or "player") made safe, plus random characters. */
async function freshUsername(ctx: Ctx, hint: string | null): Promise<string> {
  const base = (hint ?? 'player').toLowerCase().replace(/[^a-z0-9_.]/g, '').replace(/\.{2,}/g, '.').slice(0, 24) || 'player';
  for (let i = 0; i < 5; i++) {
    const name = `${base}_${crypto.randomBytes(3).toString('hex')}`;
    const taken = await ctx.db.selectFrom('users').select('id').where('username', '=', name).where('bot', '=', 0).executeTakeFirst();
    if (!taken) return name;
  }
  throw PE.usernameGeneration();
}

/** Creates a provisional user for an app (restricted when `bannedUserId` is set) with a display name. */
export async function createProvisionalUser(ctx: Ctx, applicationId: string, opts: { hint: string | null; globalName: string | null; bannedUserId?: string | null }): Promise<UserRecord> {
  let user: UserRecord | null = null;
  for (let i = 0; i < 3 && !user; i++) {
    try {
      user = await createUser(ctx, { username: await freshUsername(ctx, opts.hint), globalName: opts.globalName });
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== 50035) throw err; // a concurrent create took the name: try another
    }
  }
  if (!user) throw PE.usernameGeneration();
  await ctx.db.insertInto('provisional_accounts').values({ user_id: user.id, application_id: applicationId, banned_user_id: opts.bannedUserId ?? null, created_at: ctx.clock.now() }).execute();
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
  const out = await issueTokens(ctx, { app, user, scopes: PROVISIONAL_SCOPES, refresh });
  return { token_type: out.token_type, access_token: out.access_token, expires_in: out.expires_in, scope: out.scope, id_token: out.id_token!, ...(out.refresh_token ? { refresh_token: out.refresh_token } : {}) };
}

/** Whether a user is provisional (for the wire: `is_provisional`, and for the merge rules). */
export async function provisionalIds(ctx: Ctx, userIds: string[]): Promise<Set<string>> {
  if (!userIds.length) return new Set();
  const rows = await ctx.db.selectFrom('provisional_accounts').select('user_id').where('user_id', 'in', userIds).execute();
  return new Set(rows.map((r) => id(r.user_id)));
}

export { getUser };

/**
 * The user's application profiles for an app (the SDK's GetUserApplicationProfiles): the external identities the
 * app knows them by.
 */
export async function applicationProfiles(ctx: Ctx, userId: string, applicationId: string) {
  return (await identitiesOfUser(ctx, userId, applicationId)).map((i) => {
    const [issuer, sub] = i.providerType === 'OIDC' ? [i.externalId.slice(0, i.externalId.lastIndexOf(' ')), i.externalId.slice(i.externalId.lastIndexOf(' ') + 1)] : [null, i.externalId];
    return { provider_type: i.providerType, provider_id: issuer ?? i.providerType, provider_issued_user_id: sub, username: i.username, avatar_hash: null, metadata: {} };
  });
}

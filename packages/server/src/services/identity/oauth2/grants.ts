import type { Ctx } from '../../context.js';
import type { ApplicationRecord, UserRecord } from '../../../store/records.js';
import { id } from '../../../store/schema.js';
import { publicUser } from '../../../wire/user.js';
import { deleteUserCodes } from './codes.js';
import { splitScopes, unionScopes } from './scopes.js';

/**
 * A user's authorization of an app (`oauth_grants`, one row per app and user, scopes accumulated) and an app's guild
 * installs (`application_guild_installs`). Revoking the grant kills every token and refresh token of the pair.
 */
export interface Grant {
  applicationId: string;
  userId: string;
  scopes: string[];
  integrationType: number | null;
  createdAt: number;
}

export async function getGrant(ctx: Ctx, applicationId: string, userId: string): Promise<Grant | null> {
  const row = await ctx.db.selectFrom('oauth_grants').selectAll().where('application_id', '=', applicationId).where('user_id', '=', userId).executeTakeFirst();
  return row ? toGrant(row) : null;
}

export async function listGrants(ctx: Ctx, userId: string): Promise<Grant[]> {
  const rows = await ctx.db.selectFrom('oauth_grants').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
  return rows.map(toGrant);
}

const toGrant = (r: { application_id: string | number; user_id: string | number; scopes: string; integration_type: number | null; created_at: number | string }): Grant => ({
  applicationId: id(r.application_id), userId: id(r.user_id), scopes: splitScopes(r.scopes),
  integrationType: r.integration_type == null ? null : Number(r.integration_type), createdAt: Number(r.created_at),
});

/**
 * Records (or widens) a grant and announces it. A user install (integration_type 1) sticks: a later guild-side
 * consent by the same user does not turn it back into 0, so the user install count stays right.
 */
export async function recordGrant(
  ctx: Ctx,
  app: ApplicationRecord,
  user: UserRecord,
  scopes: string[],
  integrationType: 0 | 1,
  guild?: Record<string, unknown> | null,
): Promise<Grant> {
  const prev = await getGrant(ctx, app.id, user.id);
  const merged = unionScopes(prev?.scopes ?? [], scopes);
  const type = prev?.integrationType === 1 ? 1 : integrationType;
  const now = ctx.clock.now();
  await ctx.db.insertInto('oauth_grants')
    .values({ application_id: app.id, user_id: user.id, scopes: merged.join(' '), integration_type: type, created_at: now })
    .onConflict((oc) => oc.columns(['application_id', 'user_id']).doUpdateSet({ scopes: merged.join(' '), integration_type: type }))
    .execute();
  ctx.bus.publish({
    t: '__APPLICATION_AUTHORIZED',
    d: { application_id: app.id, user: publicUser(user), scopes, integration_type: integrationType, ...(guild ? { guild } : {}) },
  });
  return { applicationId: app.id, userId: user.id, scopes: merged, integrationType: type, createdAt: prev?.createdAt ?? now };
}

/**
 * Deauthorizes an app for a user: every access token, refresh token and pending code of the pair goes, and the grant
 * with them; a later refresh gets invalid_grant. Announced when there was anything to revoke.
 */
export async function revokeAuthorization(ctx: Ctx, applicationId: string, user: UserRecord | { id: string }): Promise<boolean> {
  const tokens = await ctx.db.deleteFrom('tokens').where('application_id', '=', applicationId).where('user_id', '=', user.id).where('kind', '=', 'bearer').executeTakeFirst();
  await deleteUserCodes(ctx, applicationId, user.id);
  const grant = await ctx.db.deleteFrom('oauth_grants').where('application_id', '=', applicationId).where('user_id', '=', user.id).executeTakeFirst();
  const any = Number(tokens.numDeletedRows) > 0 || Number(grant.numDeletedRows) > 0;
  if (Number(tokens.numDeletedRows) > 0) ctx.bus.publish({ t: '__TOKENS_CHANGED', d: { user_id: user.id } });
  if (any) {
    const wireUser = 'username' in user ? publicUser(user) : { id: user.id };
    ctx.bus.publish({ t: '__APPLICATION_DEAUTHORIZED', d: { application_id: applicationId, user: wireUser } });
  }
  return any;
}

/** Records that an app was installed in a guild (bot or commands-only), keeping the widest scope set. */
export async function recordGuildInstall(ctx: Ctx, applicationId: string, guildId: string, userId: string, scopes: string[]): Promise<void> {
  const prev = await ctx.db.selectFrom('application_guild_installs').select('scopes')
    .where('application_id', '=', applicationId).where('guild_id', '=', guildId).executeTakeFirst();
  const merged = unionScopes(splitScopes(prev?.scopes ?? ''), scopes).join(' ');
  await ctx.db.insertInto('application_guild_installs')
    .values({ application_id: applicationId, guild_id: guildId, user_id: userId, scopes: merged, created_at: ctx.clock.now() })
    .onConflict((oc) => oc.columns(['application_id', 'guild_id']).doUpdateSet({ scopes: merged }))
    .execute();
}

/**
 * Whether an app is installed in a guild: its bot is a member, or someone installed it there with
 * `applications.commands` (no bot). For the interactions runtime (authorizing_integration_owners["0"]).
 */
export async function isInstalledInGuild(ctx: Ctx, app: ApplicationRecord, guildId: string): Promise<boolean> {
  if (app.bot_user_id && (await ctx.access.isMember(guildId, app.bot_user_id))) return true;
  const row = await ctx.db.selectFrom('application_guild_installs').select('scopes')
    .where('application_id', '=', app.id).where('guild_id', '=', guildId).executeTakeFirst();
  return !!row && splitScopes(row.scopes).includes('applications.commands');
}

/** Whether a user installed the app to their account (integration_type 1). */
export async function isUserInstalled(ctx: Ctx, applicationId: string, userId: string): Promise<boolean> {
  return (await getGrant(ctx, applicationId, userId))?.integrationType === 1;
}

export async function installCounts(ctx: Ctx, app: ApplicationRecord): Promise<{ users: number; guilds: number; authorizations: number }> {
  const [users, auths, guilds] = await Promise.all([
    ctx.db.selectFrom('oauth_grants').select((eb) => eb.fn.countAll<number>().as('n')).where('application_id', '=', app.id).where('integration_type', '=', 1).executeTakeFirst(),
    ctx.db.selectFrom('oauth_grants').select((eb) => eb.fn.countAll<number>().as('n')).where('application_id', '=', app.id).executeTakeFirst(),
    app.bot_user_id
      ? ctx.db.selectFrom('members').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', app.bot_user_id).executeTakeFirst()
      : Promise.resolve({ n: 0 }),
  ]);
  return { users: Number(users?.n ?? 0), guilds: Number(guilds?.n ?? 0), authorizations: Number(auths?.n ?? 0) };
}

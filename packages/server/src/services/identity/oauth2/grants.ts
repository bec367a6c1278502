import type { Ctx } from '../../context.js';
import type { ApplicationRecord, UserRecord } from '../../../store/records.js';
import type { OAuthGrantRecord } from '../../../store/repos/oauth.js';
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
  const row = await ctx.repos.oauth.grant(applicationId, userId);
  return row ? toGrant(row) : null;
}

export async function listGrants(ctx: Ctx, userId: string): Promise<Grant[]> {
  return (await ctx.repos.oauth.grantsOf(userId)).map(toGrant);
}

const toGrant = (r: OAuthGrantRecord): Grant => ({
  applicationId: r.applicationId,
  userId: r.userId,
  scopes: splitScopes(r.scopes),
  integrationType: r.integrationType,
  createdAt: r.createdAt,
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
  await ctx.repos.oauth.putGrant({ applicationId: app.id, userId: user.id, scopes: merged.join(' '), integrationType: type, createdAt: now });
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
  const tokens = await ctx.repos.auth.revokeBearerTokens(applicationId, user.id);
  await deleteUserCodes(ctx, applicationId, user.id);
  const grant = await ctx.repos.oauth.deleteGrant(applicationId, user.id);
  const any = tokens > 0 || grant;
  if (tokens > 0) ctx.bus.publish({ t: '__TOKENS_CHANGED', d: { user_id: user.id } });
  if (any) {
    const wireUser = 'username' in user ? publicUser(user) : { id: user.id };
    ctx.bus.publish({ t: '__APPLICATION_DEAUTHORIZED', d: { application_id: applicationId, user: wireUser } });
  }
  return any;
}

/** Records that an app was installed in a guild (bot or commands-only), keeping the widest scope set. */
export async function recordGuildInstall(ctx: Ctx, applicationId: string, guildId: string, userId: string, scopes: string[]): Promise<void> {
  const prev = await ctx.repos.applications.guildInstallScopes(applicationId, guildId);
  const merged = unionScopes(splitScopes(prev ?? ''), scopes).join(' ');
  await ctx.repos.applications.putGuildInstall(applicationId, guildId, userId, merged, ctx.clock.now());
}

/**
 * Whether an app is installed in a guild: its bot is a member, or someone installed it there with
 * `applications.commands` (no bot). For the interactions runtime (authorizing_integration_owners["0"]).
 */
export async function isInstalledInGuild(ctx: Ctx, app: ApplicationRecord, guildId: string): Promise<boolean> {
  if (app.bot_user_id && (await ctx.access.isMember(guildId, app.bot_user_id))) return true;
  const scopes = await ctx.repos.applications.guildInstallScopes(app.id, guildId);
  return scopes !== null && splitScopes(scopes).includes('applications.commands');
}

/**
 * The apps installed in a guild, by id: those whose bot is a member and those installed with
 * `applications.commands` (no bot needed). What the guild's command index offers.
 */
export async function appsInstalledIn(ctx: Ctx, guildId: string): Promise<ApplicationRecord[]> {
  const [withBot, installs] = await Promise.all([ctx.repos.applications.withBotInGuild(guildId), ctx.repos.applications.installsIn(guildId)]);
  const have = new Set(withBot.map((a) => a.id));
  const commandsOnly = installs
    .filter((i) => !have.has(i.application_id) && splitScopes(i.scopes).includes('applications.commands'))
    .map((i) => i.application_id);
  const extra = commandsOnly.length ? await ctx.repos.applications.listByIds(commandsOnly) : [];
  return [...withBot, ...extra].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : BigInt(a.id) > BigInt(b.id) ? 1 : 0));
}

/** Whether a user installed the app to their account (integration_type 1). */
export async function isUserInstalled(ctx: Ctx, applicationId: string, userId: string): Promise<boolean> {
  return (await getGrant(ctx, applicationId, userId))?.integrationType === 1;
}

export async function installCounts(ctx: Ctx, app: ApplicationRecord): Promise<{ users: number; guilds: number; authorizations: number }> {
  const [grants, guilds] = await Promise.all([ctx.repos.oauth.grantCounts(app.id), ctx.repos.applications.installedGuildCount(app.id, app.bot_user_id)]);
  return { users: grants.userInstalls, guilds, authorizations: grants.authorizations };
}

import type { Actor, Ctx } from '../../context.js';
import { Errors, fieldError } from '../../../core/errors.js';
import { P } from '@accord/protocol';
import { hashToken } from '../tokens.js';
import { publicApplication, application as applicationWire } from '../../../wire/application.js';
import { publicUser } from '../../../wire/user.js';
import { applicationOfBot, getApplication } from '../applications.js';
import { guildRoles, memberView } from '../../guilds/lookup.js';
import { checkId } from '../../../core/ids.js';
import { addMember } from '../../guilds/membership.js';
import { getMember } from '../../guilds/lookup.js';
import { getUser } from '../users.js';
import { readClientCredentials, authenticateClient } from './clients.js';
import { peekCode } from './codes.js';
import { OAuthError } from './errors.js';
import { installCounts, listGrants, revokeAuthorization } from './grants.js';
import { userinfo } from './issue.js';
import { displayScopes, effectiveScopes } from './scopes.js';
import { unmergeAfterRevocation } from '../provisional/merge.js';
import { isId } from '../../../core/ids.js';

/** What a bearer or bot token may read about its own authorization, and the revocation paths. */

/** The app behind a bot or bearer token; user tokens are not OAuth2 tokens (401). */
async function appOfActor(ctx: Ctx, actor: Actor) {
  const app =
    actor.kind === 'bot'
      ? await applicationOfBot(ctx, actor.user.id)
      : actor.kind === 'bearer' && actor.applicationId
        ? await getApplication(ctx, actor.applicationId)
        : null;
  if (!app) throw Errors.unauthorized();
  return app;
}

/** GET /oauth2/@me: the token's application, scopes and expiry, and the user when `identify` was granted. */
export async function currentAuthorization(ctx: Ctx, actor: Actor, authorization: string | undefined) {
  const app = await appOfActor(ctx, actor);
  let expires: string | null = null;
  if (actor.kind === 'bearer') {
    const raw = (authorization ?? '').trim().replace(/^bearer\s+/i, '');
    const row = await ctx.repos.auth.tokenByHash(hashToken(raw));
    expires = row?.expiresAt != null ? new Date(row.expiresAt).toISOString() : null;
  }
  const scopes = actor.kind === 'bot' ? ['bot'] : displayScopes(actor.scopes);
  const showUser = actor.kind === 'bot' || effectiveScopes(actor.scopes).includes('identify');
  return { application: publicApplication(app), scopes, expires, ...(showUser ? { user: publicUser(actor.user) } : {}) };
}

/** GET /oauth2/applications/@me: the full application object for its bot or one of its bearer tokens. */
export async function currentApplication(ctx: Ctx, actor: Actor) {
  const app = await appOfActor(ctx, actor);
  const [owner, bot, counts] = await Promise.all([getUser(ctx, app.owner_id), app.bot_user_id ? getUser(ctx, app.bot_user_id) : null, installCounts(ctx, app)]);
  return applicationWire(app, { owner, bot, counts });
}

/** GET /oauth2/applications/{id}/rpc: public app info for anyone (local RPC servers validate client ids with it). */
export async function rpcApplication(ctx: Ctx, id: string) {
  const app = isId(id) ? await getApplication(ctx, id) : null;
  if (!app) throw Errors.unknownApplication();
  return publicApplication(app);
}

/** GET /oauth2/userinfo (OpenID Connect). */
export function currentUserinfo(ctx: Ctx, actor: Actor) {
  return userinfo(ctx, actor.user, actor.kind === 'bearer' ? effectiveScopes(actor.scopes) : ['identify']);
}

/**
 * POST /oauth2/token/revoke (RFC 7009): an access or refresh token of the authenticated client. Revokes every token
 * of that app for that user and the grant itself. Unknown tokens are not an error (200 `{}` all the same).
 */
export async function revokeEndpoint(ctx: Ctx, authorization: string | undefined, body: Record<string, unknown>) {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new OAuthError('invalid_request', 'Invalid request body.');
  const { app } = await authenticateClient(ctx, readClientCredentials(authorization, body), false);
  const token = typeof body.token === 'string' ? body.token : '';
  if (!token) throw new OAuthError('invalid_request', 'Missing "token" in request.');
  let userId: string | null = null;
  if (token.length <= 512) {
    const t = await ctx.repos.auth.tokenByHash(hashToken(token));
    if (t && t.kind === 'bearer' && t.applicationId === app.id) userId = t.userId;
    else {
      const r = await peekCode(ctx, 'refresh_token', token);
      if (r && r.applicationId === app.id) userId = r.userId;
    }
  }
  if (userId) {
    await revokeAuthorization(ctx, app.id, (await getUser(ctx, userId)) ?? { id: userId });
    await unmergeAfterRevocation(ctx, app.id, userId); // for a Social SDK app, every revocation is an unmerge
  }
  return {};
}

/** GET /oauth2/tokens (user): the apps the user authorized. `id` is the application id. */
export async function listAuthorizedApps(ctx: Ctx, actor: Actor) {
  const out = [];
  for (const g of await listGrants(ctx, actor.user.id)) {
    const app = await getApplication(ctx, g.applicationId);
    if (app) out.push({ id: app.id, scopes: g.scopes, application: publicApplication(app) });
  }
  return out;
}

/** DELETE /oauth2/tokens/{application_id} (user): the user removes an app from their authorized apps. */
export async function deauthorizeApp(ctx: Ctx, actor: Actor, applicationId: string): Promise<void> {
  checkId(applicationId, Errors.unknownApplication);
  if (!(await revokeAuthorization(ctx, applicationId, actor.user))) throw Errors.unknownApplication();
  await unmergeAfterRevocation(ctx, applicationId, actor.user.id);
}

/**
 * PUT /guilds/{guild_id}/members/{user_id} (guilds.join): a bot adds a user to its guild with an access token that
 * user gave its app. The bot needs CREATE_INSTANT_INVITE, and MANAGE_NICKNAMES / MANAGE_ROLES for nick / roles.
 * Returns the new member, or null when the user is already a member (the route answers 204).
 */
export async function joinWithAccessToken(
  ctx: Ctx,
  actor: Actor,
  guildId: string,
  userId: string,
  input: { access_token: string; nick?: string | null; roles?: string[] },
) {
  if (actor.kind !== 'bot') throw Errors.onlyBots();
  checkId(guildId, Errors.unknownGuild);
  checkId(userId, Errors.unknownUser);
  const perms = await ctx.access.requireGuild(guildId, actor.user.id, P.CREATE_INSTANT_INVITE);
  const app = await applicationOfBot(ctx, actor.user.id);
  if (!app) throw Errors.unknownApplication();
  const token = await ctx.repos.auth.tokenByHash(hashToken(input.access_token));
  const live =
    token &&
    token.kind === 'bearer' &&
    token.applicationId === app.id &&
    token.userId === userId &&
    (token.expiresAt == null || token.expiresAt > ctx.clock.now());
  if (!live) throw fieldError('access_token', 'ACCESS_TOKEN_INVALID', 'Invalid OAuth2 access token.');
  if (
    !String(token.scopes ?? '')
      .split(' ')
      .includes('guilds.join')
  )
    throw Errors.missingScope();

  if (await getMember(ctx, guildId, userId)) return null;
  if (input.nick != null && !ctx.access.hasPerm(perms, P.MANAGE_NICKNAMES)) throw Errors.missingPermissions();
  const roleIds = [...new Set(input.roles ?? [])].filter((r) => r !== guildId);
  if (roleIds.length) {
    if (!ctx.access.hasPerm(perms, P.MANAGE_ROLES)) throw Errors.missingPermissions();
    const roles = new Map((await guildRoles(ctx, guildId)).map((r) => [r.id, r]));
    const top = await ctx.access.topPosition(guildId, actor.user.id);
    roleIds.forEach((id, i) => {
      const role = roles.get(id);
      if (!role) throw fieldError(['roles', i], 'ROLE_INVALID', 'Unknown role.');
      if (role.managed) throw fieldError(['roles', i], 'ROLE_INVALID', 'Managed roles cannot be assigned.');
      if (role.position >= top) throw Errors.missingPermissions();
    });
  }
  const m = await addMember(ctx, guildId, userId, { roles: roleIds, nick: input.nick ?? null });
  return m ? memberView(ctx, m) : null;
}

/** GET /users/@me/guilds/{guild_id}/member (guilds.members.read). */
export async function ownMember(ctx: Ctx, actor: Actor, guildId: string) {
  checkId(guildId, Errors.unknownGuild);
  const m = await getMember(ctx, guildId, actor.user.id);
  if (!m) throw Errors.unknownGuild();
  return memberView(ctx, m);
}

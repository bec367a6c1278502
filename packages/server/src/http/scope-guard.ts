import type { Actor } from '../services/context.js';
import { Errors } from '../core/errors.js';
import type { RouteDef } from './router.js';

/**
 * Which routes an OAuth2 bearer token may call, and with which scope (any one of the listed ones; an empty list:
 * any bearer token of an app). Every other route refuses bearer tokens, so a new route is closed to them until it is
 * listed here. Keys are `METHOD path` with parameter names erased (`{}`), so modules may name parameters freely.
 *
 * Refusals: a route not listed is 401 `{"message": "401: Unauthorized", "code": 0}`, as the platform answers a
 * bearer token on a bot route. A listed route whose scope is missing is 403 50026 "Missing required OAuth2 scope"
 * (the platform answers 401 on /users/@me without identify; Accord prefers the explicit code, which tells the
 * developer which thing is wrong). Routes with optional auth treat an unlisted bearer token as anonymous.
 *
 * Ownership checks (a token of app A calling app B's commands) stay in the services, which see `actor.applicationId`.
 */
const READ_COMMANDS = ['applications.commands.update', 'applications.commands.permissions.update'];
const LOBBIES = ['lobbies.write', 'sdk.social_layer'];

const BEARER_ROUTES: Record<string, readonly string[]> = {
  'GET /users/@me': ['identify'],
  'GET /users/@me/guilds': ['guilds'],
  'GET /users/@me/guilds/{}/member': ['guilds.members.read'],
  'GET /users/@me/connections': ['connections'],
  'GET /users/@me/relationships': ['relationships.read'],
  'GET /users/@me/channels': ['dm_channels.read'],
  'GET /oauth2/@me': [],
  'GET /oauth2/applications/@me': [],
  'GET /oauth2/userinfo': ['openid'],
  // applications.commands.update (client_credentials): the app's own commands; reads also with permissions.update.
  'GET /applications/{}/commands': READ_COMMANDS,
  'POST /applications/{}/commands': ['applications.commands.update'],
  'PUT /applications/{}/commands': ['applications.commands.update'],
  'GET /applications/{}/commands/{}': READ_COMMANDS,
  'PATCH /applications/{}/commands/{}': ['applications.commands.update'],
  'DELETE /applications/{}/commands/{}': ['applications.commands.update'],
  'GET /applications/{}/guilds/{}/commands': READ_COMMANDS,
  'POST /applications/{}/guilds/{}/commands': ['applications.commands.update'],
  'PUT /applications/{}/guilds/{}/commands': ['applications.commands.update'],
  'GET /applications/{}/guilds/{}/commands/{}': READ_COMMANDS,
  'PATCH /applications/{}/guilds/{}/commands/{}': ['applications.commands.update'],
  'DELETE /applications/{}/guilds/{}/commands/{}': ['applications.commands.update'],
  'GET /applications/{}/guilds/{}/commands/permissions': READ_COMMANDS,
  'GET /applications/{}/guilds/{}/commands/{}/permissions': READ_COMMANDS,
  'PUT /applications/{}/guilds/{}/commands/{}/permissions': ['applications.commands.permissions.update'],
  // Monetization (applications.entitlements) and the user's role connection.
  'GET /applications/{}/entitlements': ['applications.entitlements'],
  'GET /applications/{}/entitlements/{}': ['applications.entitlements'],
  'POST /applications/{}/entitlements/{}/consume': ['applications.entitlements'],
  'DELETE /applications/{}/entitlements/{}': ['applications.entitlements'],
  'GET /users/@me/applications/{}/entitlements': ['applications.entitlements'],
  'GET /skus/{}/subscriptions': ['applications.entitlements'],
  'GET /skus/{}/subscriptions/{}': ['applications.entitlements'],
  'GET /users/@me/applications/{}/role-connection': ['role_connections.write'],
  'PUT /users/@me/applications/{}/role-connection': ['role_connections.write'],
  'DELETE /users/@me/applications/{}/role-connection': ['role_connections.write'],
  // An Activity's share-moment upload: any bearer token of the app (the service checks it is that app's).
  'POST /applications/{}/attachment': [],
  // Social SDK lobbies (lobbies.write; sdk.social_layer expands to it, and is accepted as such on tokens minted
  // without the expansion). The app's own lobby routes (create, edit, delete, members, bulk) take its Bot token only.
  'PUT /lobbies': LOBBIES,
  'GET /lobbies/{}': LOBBIES,
  'PATCH /lobbies/{}/channel-linking': LOBBIES,
  'DELETE /lobbies/{}/members/@me': LOBBIES,
  'POST /lobbies/{}/members/@me/invites': LOBBIES,
  'GET /lobbies/{}/messages': LOBBIES,
  'POST /lobbies/{}/messages': LOBBIES,
  // Social SDK players (routes/relationships.ts, routes/game-dms.ts, routes/social-reads.ts).
  'GET /users/@me/game-relationships': ['relationships.read'],
  'POST /users/@me/game-relationships': ['relationships.write'],
  'PUT /users/@me/game-relationships/{}': ['relationships.write'],
  'DELETE /users/@me/game-relationships/{}': ['relationships.write'],
  'GET /users/@me/dms': ['dm_channels.read'],
  'GET /users/@me/dms/{}/messages': ['dm_channels.messages.read'],
  'POST /users/@me/dms/{}/messages': ['dm_channels.messages.write'],
  'PATCH /users/@me/dms/{}/messages/{}': ['dm_channels.messages.write'],
  'DELETE /users/@me/dms/{}/messages/{}': ['dm_channels.messages.write'],
  'POST /users/@me/activity-invites': ['activities.write'],
  // UpdateProvisionalAccountDisplayName: a provisional account's own token (routes/partner-sdk.ts).
  'PATCH /partner-sdk/provisional-accounts/@me': ['account.global_name.update'],
  'POST /users/@me/activity-invites/{}/accept': ['activities.write'],
  'GET /users/@me/guilds/{}/channels': ['guilds'],
  'GET /users/{}/application-profiles': ['identify'],
};

const keyOf = (def: RouteDef) => `${def.method} ${def.path.replace(/\{\w+\}/g, '{}')}`;

/** Lets a bearer token through to a route its scopes cover; returns the actor the route sees (null: anonymous). */
export function guardBearer(def: RouteDef, actor: Actor): Actor | null {
  const needed = BEARER_ROUTES[keyOf(def)];
  if (!needed) {
    if (def.auth === 'optional') return null;
    throw Errors.unauthorized();
  }
  if (needed.length && !needed.some((s) => actor.scopes.includes(s))) throw Errors.missingScope();
  return actor;
}

/** Whether a route is open to bearer tokens at all (tests, docs). */
export const bearerRouteScopes = (method: string, path: string): readonly string[] | undefined => BEARER_ROUTES[`${method} ${path.replace(/\{\w+\}/g, '{}')}`];

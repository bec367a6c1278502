/**
 * OAuth2 scopes: the names the server knows, the `sdk.*` expansions, and the helpers that turn a request's scope
 * string into the set a token carries.
 *
 * A token stores its *effective* scopes (the requested ones plus what `sdk.*` expands to), so every check is a plain
 * `scopes.includes(x)`. What is shown back (`scope` of the token response, `scopes` of /oauth2/@me) is the requested
 * form: scopes implied by an `sdk.*` scope present in the set are folded back into it.
 */

/** Scopes a user can grant through the consent screen or the device flow. */
export const KNOWN_SCOPES = new Set([
  'identify',
  'email',
  'connections',
  'guilds',
  'guilds.join',
  'guilds.members.read',
  'gdm.join',
  'bot',
  'applications.commands',
  'applications.commands.update',
  'applications.commands.permissions.update',
  'applications.entitlements',
  'applications.store.update',
  'applications.builds.read',
  'applications.builds.upload',
  'identify.premium',
  'openid',
  'role_connections.write',
  'messages.read',
  'voice',
  'rpc',
  'rpc.activities.write',
  'rpc.notifications.read',
  'rpc.voice.read',
  'rpc.voice.write',
  'rpc.screenshare.read',
  'rpc.video.read',
  'rpc.video.write',
  'activities.read',
  'activities.write',
  'relationships.read',
  'relationships.write',
  'presences.read',
  'presences.write',
  'dm_channels.read',
  'dm_channels.messages.read',
  'dm_channels.messages.write',
  'lobbies.write',
  'gateway.connect',
  'account.global_name.update',
  'application_identities.write',
  'payment_sources.country_code',
  'sdk.social_layer',
  'sdk.social_layer_presence',
]);

/**
 * What the Social SDK scopes stand for. The platform does not publish the exact lists; this is Accord's choice,
 * built from the scopes the Social SDK features need (see reference/social-sdk.md §7):
 * - `sdk.social_layer_presence` (account linking, friends, rich presence);
 * - `sdk.social_layer` = all of the above, plus DMs, lobbies, guilds and linked channels.
 * `openid` is never implied: games request it beside the sdk scope (GetDefaultCommunicationScopes).
 */
export const SDK_EXPANSIONS: Record<string, readonly string[]> = {
  'sdk.social_layer_presence': [
    'identify',
    'relationships.read',
    'relationships.write',
    'presences.read',
    'presences.write',
    'activities.read',
    'activities.write',
    'gateway.connect',
    'account.global_name.update',
    'application_identities.write',
  ],
  'sdk.social_layer': [
    'identify',
    'email',
    'guilds',
    'connections',
    'relationships.read',
    'relationships.write',
    'presences.read',
    'presences.write',
    'activities.read',
    'activities.write',
    'gateway.connect',
    'account.global_name.update',
    'application_identities.write',
    'dm_channels.read',
    'dm_channels.messages.read',
    'dm_channels.messages.write',
    'gdm.join',
    'lobbies.write',
  ],
};

/** What `client_credentials` may ask for: a token for the app's owner, limited to these. */
export const CLIENT_CREDENTIALS_SCOPES = new Set([
  'identify',
  'email',
  'connections',
  'guilds',
  'guilds.members.read',
  'role_connections.write',
  'applications.commands.update',
  'applications.commands.permissions.update',
  'applications.entitlements',
  'applications.store.update',
  'applications.builds.read',
  'applications.builds.upload',
]);

/** Splits a scope string (space-separated; `+` tolerated for hand-built URLs) into unique names, in order. */
export function splitScopes(raw: unknown): string[] {
  if (Array.isArray(raw)) raw = raw.join(' ');
  if (typeof raw !== 'string') return [];
  return [...new Set(raw.split(/[\s+]+/).filter(Boolean))];
}

export const unknownScopes = (scopes: string[]) => scopes.filter((s) => !KNOWN_SCOPES.has(s));

/** The requested scopes plus every scope an `sdk.*` one expands to. */
export function effectiveScopes(scopes: readonly string[]): string[] {
  const out = new Set(scopes);
  for (const s of scopes) for (const x of SDK_EXPANSIONS[s] ?? []) out.add(x);
  return [...out];
}

/** The inverse of effectiveScopes for display: drops scopes implied by an `sdk.*` scope in the set. */
export function displayScopes(scopes: readonly string[]): string[] {
  const implied = new Set<string>();
  for (const s of scopes) for (const x of SDK_EXPANSIONS[s] ?? []) implied.add(x);
  return scopes.filter((s) => !implied.has(s));
}

export const unionScopes = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])];

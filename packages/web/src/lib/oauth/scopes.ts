/**
 * OAuth2 scopes in plain words: what the consent page tells a person an app may do, and the scopes the portal's URL
 * generator offers. The names are the platform's; the sentences are ours.
 */

export interface ScopeInfo {
  scope: string;
  /** What the person allows, as a sentence ("Access your email address"). */
  allows: string;
  /** Shown by the URL generator only to developers (RPC, SDK, builds). */
  advanced?: boolean;
}

const SCOPES: ScopeInfo[] = [
  { scope: 'identify', allows: 'Access your username, avatar and banner' },
  { scope: 'email', allows: 'Access your email address' },
  { scope: 'connections', allows: 'Access your third-party connections' },
  { scope: 'guilds', allows: 'Know what servers you are in' },
  { scope: 'guilds.join', allows: 'Join servers for you' },
  { scope: 'guilds.members.read', allows: 'Read your member info (nickname, avatar, roles) in servers you belong to' },
  { scope: 'gdm.join', allows: 'Join group DMs for you' },
  { scope: 'bot', allows: 'Add a bot to a server' },
  { scope: 'applications.commands', allows: 'Use its commands' },
  { scope: 'applications.commands.update', allows: 'Update its commands on your behalf' },
  { scope: 'applications.commands.permissions.update', allows: 'Update who may use its commands in your servers' },
  { scope: 'applications.entitlements', allows: 'Know which of its products you own' },
  { scope: 'applications.store.update', allows: 'Manage its store listing', advanced: true },
  { scope: 'applications.builds.read', allows: 'Read its builds', advanced: true },
  { scope: 'applications.builds.upload', allows: 'Upload its builds', advanced: true },
  { scope: 'role_connections.write', allows: 'Update your linked role metadata for it' },
  { scope: 'openid', allows: 'Sign you in with your Accord account' },
  { scope: 'messages.read', allows: 'Read messages from channels you open in your Accord client', advanced: true },
  { scope: 'voice', allows: 'Connect you to voice channels and see who is speaking', advanced: true },
  { scope: 'rpc', allows: 'Control your Accord client on this computer', advanced: true },
  { scope: 'rpc.activities.write', allows: 'Update your activity in your Accord client', advanced: true },
  { scope: 'rpc.notifications.read', allows: 'Read your notifications in your Accord client', advanced: true },
  { scope: 'rpc.voice.read', allows: 'Read your voice settings', advanced: true },
  { scope: 'rpc.voice.write', allows: 'Change your voice settings', advanced: true },
  { scope: 'rpc.screenshare.read', allows: 'See your screen share settings', advanced: true },
  { scope: 'rpc.video.read', allows: 'See your camera settings', advanced: true },
  { scope: 'rpc.video.write', allows: 'Change your camera settings', advanced: true },
  { scope: 'activities.read', allows: 'See your activities', advanced: true },
  { scope: 'activities.write', allows: 'Update your activity', advanced: true },
  { scope: 'relationships.read', allows: 'Know who your friends are', advanced: true },
  { scope: 'relationships.write', allows: 'Manage your friends list', advanced: true },
  { scope: 'presences.read', allows: 'See when your friends are online', advanced: true },
  { scope: 'presences.write', allows: 'Update your online status', advanced: true },
  { scope: 'dm_channels.read', allows: 'See your direct messages list', advanced: true },
  { scope: 'dm_channels.messages.read', allows: 'Read your direct messages', advanced: true },
  { scope: 'dm_channels.messages.write', allows: 'Send direct messages as you', advanced: true },
  { scope: 'lobbies.write', allows: 'Create and join game lobbies for you', advanced: true },
  { scope: 'gateway.connect', allows: 'Connect to Accord as you', advanced: true },
  { scope: 'account.global_name.update', allows: 'Change your display name', advanced: true },
  { scope: 'application_identities.write', allows: 'Link your game account', advanced: true },
  { scope: 'payment_sources.country_code', allows: 'Know the country of your payment method', advanced: true },
  { scope: 'sdk.social_layer', allows: 'Use your friends, messages, lobbies and presence in its game', advanced: true },
  { scope: 'sdk.social_layer_presence', allows: 'Use your friends list and presence in its game', advanced: true },
];

export const KNOWN_SCOPES: readonly ScopeInfo[] = SCOPES;
const BY_NAME = new Map(SCOPES.map((s) => [s.scope, s]));

export const scopeInfo = (scope: string): ScopeInfo => BY_NAME.get(scope) ?? { scope, allows: scope };

/** Scopes that are installs rather than access to the person's account. */
export const INSTALL_SCOPES = new Set(['bot', 'applications.commands']);

/** Splits the `scope` query value (spaces, or `+` in hand-built URLs). */
export const splitScopes = (raw: string | null): string[] => [...new Set((raw ?? '').split(/[\s+]+/).filter(Boolean))];

/** Pseudo-scopes the client grants a socket besides OAuth2 scopes. */
export const LOCAL_SCOPE = 'RPC_LOCAL_SCOPE';
export const AUTHENTICATED_SCOPE = 'RPC_AUTHENTICATED_SCOPE';

/** A command's or event's requirement: one scope, any of several, or none (always allowed). */
export type ScopeRule = string | { any: string[] } | null;

export function allowed(have: ReadonlySet<string>, rule: ScopeRule): boolean {
  if (rule === null) return true;
  if (typeof rule === 'string') return have.has(rule);
  return rule.any.some((s) => have.has(s));
}

/** Scopes that come straight from OAuth2. */
export const S = {
  RPC: 'rpc',
  RPC_ACTIVITIES_WRITE: 'rpc.activities.write',
  RPC_VOICE_READ: 'rpc.voice.read',
  GUILDS: 'guilds',
  MESSAGES_READ: 'messages.read',
  DM_CHANNELS_READ: 'dm_channels.read',
} as const;

/**
 * Social SDK wire constants shared by the server and `@accord/social-sdk`: the Gateway additions of SDK sessions,
 * relationship types, external auth types and the release support window.
 */

/** Gateway opcodes only SDK sessions send (numbers of the official client). */
export const SocialOp = {
  /** Join or leave the voice call of a lobby: `{lobby_id, self_mute, self_deaf, leave?}`. */
  LOBBY_VOICE_STATES: 17,
} as const;

/** Relationship types (Discord and game relationships share the numbers). */
export const RelationshipType = {
  NONE: 0,
  FRIEND: 1,
  BLOCKED: 2,
  PENDING_INCOMING: 3,
  PENDING_OUTGOING: 4,
  IMPLICIT: 5,
  SUGGESTION: 6,
} as const;

/** `external_auth_type` values of the partner-sdk routes (discord-api-spec), plus Accord's opt-in device ids. */
export const EXTERNAL_AUTH_TYPES = [
  'OIDC',
  'EPIC_ONLINE_SERVICES_ACCESS_TOKEN',
  'EPIC_ONLINE_SERVICES_ID_TOKEN',
  'STEAM_SESSION_TICKET',
  'UNITY_SERVICES_ID_TOKEN',
  'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
  'APPLE_ID_TOKEN',
  'PLAYSTATION_NETWORK_ID_TOKEN',
  'DEVICE_ID',
] as const;
export type ExternalAuthType = (typeof EXTERNAL_AUTH_TYPES)[number];

/** The Social SDK release this code base matches, and the support window (the five latest minor releases). */
export const SOCIAL_SDK_RELEASE = '1.10.18687';
export const SOCIAL_SDK_SUPPORTED_MINORS = { major: 1, oldest: 6, newest: 10 } as const;
/** Request header (and Identify `properties.sdk_version`) carrying the SDK release of a client. */
export const SOCIAL_SDK_VERSION_HEADER = 'x-social-sdk-version';

export type SdkVersionVerdict = 'supported' | 'end_of_life' | 'unknown';

/** Where a reported release stands: supported (1.6–1.10), end of life (1.5 and earlier), or unknown (newer, or unreadable). */
export function sdkVersionVerdict(version: string): SdkVersionVerdict {
  const m = /^(\d{1,3})\.(\d{1,3})(?:\.(\d{1,9}))?$/.exec(version.trim());
  if (!m) return 'unknown';
  const major = Number(m[1]);
  const minor = Number(m[2]);
  const w = SOCIAL_SDK_SUPPORTED_MINORS;
  if (major < w.major || (major === w.major && minor < w.oldest)) return 'end_of_life';
  if (major === w.major && minor <= w.newest) return 'supported';
  return 'unknown';
}

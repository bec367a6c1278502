/** Everything but the voice engine: shared by the Node and browser entries. */
export { Client, sortGuildChannels, type ClientCreateOptions, type ClientEvents, type TokenResult } from './client.js';
export { AuthorizationArgs, AuthorizationCodeChallenge, AuthorizationCodeVerifier, defaultScheme } from './authorization-args.js';
export { ClientResult } from './result.js';
export * from './enums.js';
export type { Activity } from './activity.js';
export {
  UserHandle,
  RelationshipHandle,
  LobbyHandle,
  LobbyMemberHandle,
  MessageHandle,
  type ActivityInvite,
  type ChannelHandle,
  type GuildChannel,
  type UserApplicationProfile,
  CallInfoHandle,
  type AvatarFormat,
  type AdditionalContent,
  type VoiceStateHandle,
} from './handles.js';
export { snowflake, snowflakeTime, type Snowflake, type SnowflakeInput } from './snowflake.js';
export { VERSION, VERSION_MAJOR, VERSION_MINOR, VERSION_PATCH } from './version.js';
export { DEFAULT_HTTP_TIMEOUT_MS } from './http.js';
export type { AudioDevice, UserAudioReceivedCallback, UserAudioCapturedCallback } from './voice/types.js';

/** The SDK's enums, with the numbers of the C++ SDK (reference/social-sdk.md), as `as const` objects. */

/** Client::Status */
export const Status = { Disconnected: 0, Connecting: 1, Connected: 2, Ready: 3, Reconnecting: 4, Disconnecting: 5, HttpWait: 6 } as const;
export type Status = (typeof Status)[keyof typeof Status];

/** Client::Error */
export const ClientError = { None: 0, ConnectionFailed: 1, UnexpectedClose: 2, ConnectionCanceled: 3 } as const;
export type ClientError = (typeof ClientError)[keyof typeof ClientError];

/** ClientResult::Type */
export const ErrorType = {
  None: 0,
  NetworkError: 1,
  HTTPError: 2,
  ClientNotReady: 3,
  Disabled: 4,
  ClientDestroyed: 5,
  ValidationError: 6,
  Aborted: 7,
  AuthorizationFailed: 8,
  RPCError: 9,
} as const;
export type ErrorType = (typeof ErrorType)[keyof typeof ErrorType];

export const AuthorizationTokenType = { User: 0, Bearer: 1 } as const;
export type AuthorizationTokenType = (typeof AuthorizationTokenType)[keyof typeof AuthorizationTokenType];

export const IntegrationType = { GuildInstall: 0, UserInstall: 1 } as const;
export type IntegrationType = (typeof IntegrationType)[keyof typeof IntegrationType];

export const AuthenticationCodeChallengeMethod = { S256: 0 } as const;

/** AuthenticationExternalAuthType, and the wire names of /partner-sdk routes. */
export const ExternalAuthType = {
  OIDC: 0,
  EpicOnlineServicesAccessToken: 1,
  EpicOnlineServicesIdToken: 2,
  SteamSessionTicket: 3,
  UnityServicesIdToken: 4,
  DiscordBotIssuedAccessToken: 5,
  AppleIdToken: 6,
  PlayStationNetworkIdToken: 7,
  DeviceId: 100,
} as const;
export type ExternalAuthType = (typeof ExternalAuthType)[keyof typeof ExternalAuthType];
export const EXTERNAL_AUTH_WIRE: Record<ExternalAuthType, string> = {
  0: 'OIDC',
  1: 'EPIC_ONLINE_SERVICES_ACCESS_TOKEN',
  2: 'EPIC_ONLINE_SERVICES_ID_TOKEN',
  3: 'STEAM_SESSION_TICKET',
  4: 'UNITY_SERVICES_ID_TOKEN',
  5: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
  6: 'APPLE_ID_TOKEN',
  7: 'PLAYSTATION_NETWORK_ID_TOKEN',
  100: 'DEVICE_ID',
};

export const ActivityTypes = { Playing: 0, Streaming: 1, Listening: 2, Watching: 3, CustomStatus: 4, Competing: 5, HangStatus: 6 } as const;
export type ActivityTypes = (typeof ActivityTypes)[keyof typeof ActivityTypes];

export const StatusDisplayTypes = { Name: 0, State: 1, Details: 2 } as const;
export type StatusDisplayTypes = (typeof StatusDisplayTypes)[keyof typeof StatusDisplayTypes];

export const ActivityPartyPrivacy = { Private: 0, Public: 1 } as const;
export type ActivityPartyPrivacy = (typeof ActivityPartyPrivacy)[keyof typeof ActivityPartyPrivacy];

export const ActivityActionTypes = { Join: 1, JoinRequest: 5 } as const;
export type ActivityActionTypes = (typeof ActivityActionTypes)[keyof typeof ActivityActionTypes];

export const ActivityGamePlatforms = { Desktop: 1, Xbox: 2, Samsung: 4, IOS: 8, Android: 16, Embedded: 32, PS4: 64, PS5: 128 } as const;
export const PLATFORM_NAMES: [number, string][] = [
  [1, 'desktop'],
  [2, 'xbox'],
  [4, 'samsung'],
  [8, 'ios'],
  [16, 'android'],
  [32, 'embedded'],
  [64, 'ps4'],
  [128, 'ps5'],
];

export const RelationshipType = { None: 0, Friend: 1, Blocked: 2, PendingIncoming: 3, PendingOutgoing: 4, Implicit: 5, Suggestion: 6 } as const;
export type RelationshipType = (typeof RelationshipType)[keyof typeof RelationshipType];

export const RelationshipGroupType = { OnlinePlayingGame: 0, OnlineElsewhere: 1, Offline: 2 } as const;
export type RelationshipGroupType = (typeof RelationshipGroupType)[keyof typeof RelationshipGroupType];

export const StatusType = { Online: 0, Offline: 1, Blocked: 2, Idle: 3, Dnd: 4, Invisible: 5, Streaming: 6, Unknown: 7 } as const;
export type StatusType = (typeof StatusType)[keyof typeof StatusType];

export const ChannelType = {
  GuildText: 0,
  Dm: 1,
  GuildVoice: 2,
  GroupDm: 3,
  GuildCategory: 4,
  GuildNews: 5,
  GuildForum: 15,
  Lobby: 17,
  EphemeralDm: 18,
} as const;

export const LoggingSeverity = { Verbose: 1, Info: 2, Warning: 3, Error: 4, None: 5 } as const;
export type LoggingSeverity = (typeof LoggingSeverity)[keyof typeof LoggingSeverity];

/** Call::Status */
export const CallStatus = { Disconnected: 0, Joining: 1, Connecting: 2, SignalingConnected: 3, Connected: 4, Reconnecting: 5, Disconnecting: 6 } as const;
export type CallStatus = (typeof CallStatus)[keyof typeof CallStatus];

/** Call::Error */
export const CallError = {
  None: 0,
  SignalingConnectionFailed: 1,
  SignalingUnexpectedClose: 2,
  VoiceConnectionFailed: 3,
  JoinTimeout: 4,
  Forbidden: 5,
} as const;
export type CallError = (typeof CallError)[keyof typeof CallError];

export const AudioModeType = { MODE_UNINIT: 0, MODE_VAD: 1, MODE_PTT: 2 } as const;
export type AudioModeType = (typeof AudioModeType)[keyof typeof AudioModeType];

export const statusToString = (s: Status) => Object.keys(Status).find((k) => Status[k as keyof typeof Status] === s) ?? 'Unknown';
export const errorToString = (e: ClientError) => Object.keys(ClientError).find((k) => ClientError[k as keyof typeof ClientError] === e) ?? 'Unknown';

/** Client::Thread (SetThreadPriority has no meaning in JavaScript; the names are kept for ThreadToString). */
export const ClientThread = { Client: 0, Voice: 1, Network: 2 } as const;
export type ClientThread = (typeof ClientThread)[keyof typeof ClientThread];

/** AdditionalContentType: what a message carries besides text (MessageHandle.additionalContent). */
export const AdditionalContentType = { Other: 0, Attachment: 1, Poll: 2, VoiceMessage: 3, Thread: 4, Embed: 5, Sticker: 6 } as const;
export type AdditionalContentType = (typeof AdditionalContentType)[keyof typeof AdditionalContentType];

/** DisclosureTypes: the SDK's own explanatory messages (MessageHandle.disclosureType). */
export const DisclosureTypes = { MessageDataVisibleOnDiscord: 3 } as const;
export type DisclosureTypes = (typeof DisclosureTypes)[keyof typeof DisclosureTypes];

/** UserHandle::AvatarType */
export const AvatarType = { Gif: 0, Webp: 1, Png: 2, Jpeg: 3 } as const;
export type AvatarType = (typeof AvatarType)[keyof typeof AvatarType];

/** The C++ `EnumToString` for any of these enums: the member's name, "unknown" for a value it does not have. */
export function enumToString<E extends Record<string, number>>(e: E, value: number): string {
  return Object.keys(e).find((k) => e[k] === value) ?? 'unknown';
}
export const threadToString = (t: ClientThread) => enumToString(ClientThread, t);
export const callStatusToString = (s: CallStatus) => enumToString(CallStatus, s);
export const callErrorToString = (e: CallError) => enumToString(CallError, e);
export const additionalContentTypeToString = (t: AdditionalContentType) => enumToString(AdditionalContentType, t);
export const avatarTypeToString = (t: AvatarType) => enumToString(AvatarType, t);

/**
 * The Embedded App SDK's postMessage protocol, parent side (reference/activities.md §4–§8): opcodes, close and error
 * codes, and the three frame shapes the SDK accepts. Every frame is `[opcode, payload]`; a reply always carries `evt`
 * (null, or "ERROR") and the command's `nonce`, and `data` (null when empty): the SDK drops anything else silently
 * and the activity's promise never settles.
 */

export const Opcode = { HANDSHAKE: 0, FRAME: 1, CLOSE: 2, HELLO: 3 } as const;

export const CloseCode = {
  NORMAL: 1000,
  UNSUPPORTED: 1003,
  ABNORMAL: 1006,
  INVALID_CLIENTID: 4000,
  INVALID_ORIGIN: 4001,
  RATELIMITED: 4002,
  TOKEN_REVOKED: 4003,
  INVALID_VERSION: 4004,
  INVALID_ENCODING: 4005,
} as const;

export const RpcErrorCode = {
  UNKNOWN: 1000,
  INVALID_PAYLOAD: 4000,
  INVALID_COMMAND: 4002,
  INVALID_GUILD: 4003,
  INVALID_EVENT: 4004,
  INVALID_CHANNEL: 4005,
  INVALID_PERMISSIONS: 4006,
  INVALID_CLIENTID: 4007,
  INVALID_ORIGIN: 4008,
  INVALID_TOKEN: 4009,
  INVALID_USER: 4010,
  OAUTH2_ERROR: 5000,
} as const;

/** A command the parent refuses: becomes `{evt: "ERROR", data: {code, message}}` and rejects the SDK's promise. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export const notAuthenticated = () => new RpcError(RpcErrorCode.INVALID_PERMISSIONS, 'Not authenticated or invalid scope');
export const invalidPayload = (what: string) => new RpcError(RpcErrorCode.INVALID_PAYLOAD, `Invalid payload: ${what}`);

export type Message = [number, unknown];

export interface CommandFrame {
  cmd: string;
  args?: unknown;
  nonce: string;
  evt?: string;
}

export const reply = (cmd: string, nonce: string, data: unknown): Message => [Opcode.FRAME, { cmd, evt: null, nonce, data: data === undefined ? null : data }];

export const errorReply = (cmd: string, nonce: string | null, code: number, message: string): Message => [
  Opcode.FRAME,
  { cmd, evt: 'ERROR', nonce, data: { code, message } },
];

export const dispatchFrame = (evt: string, data: unknown): Message => [Opcode.FRAME, { cmd: 'DISPATCH', evt, nonce: null, data }];

export const closeFrame = (code: number, message?: string): Message => [Opcode.CLOSE, message ? { code, message } : { code }];

/** Every command of SDK 2.5.0 (`Commands`), in the SDK's order. */
export const COMMANDS = [
  'AUTHORIZE',
  'GET_GUILDS',
  'GET_GUILD',
  'GET_CHANNEL',
  'GET_CHANNELS',
  'SELECT_VOICE_CHANNEL',
  'SELECT_TEXT_CHANNEL',
  'SUBSCRIBE',
  'UNSUBSCRIBE',
  'CAPTURE_SHORTCUT',
  'SET_CERTIFIED_DEVICES',
  'SET_ACTIVITY',
  'GET_SKUS',
  'GET_ENTITLEMENTS',
  'GET_SKUS_EMBEDDED',
  'GET_ENTITLEMENTS_EMBEDDED',
  'START_PURCHASE',
  'SET_CONFIG',
  'SEND_ANALYTICS_EVENT',
  'USER_SETTINGS_GET_LOCALE',
  'OPEN_EXTERNAL_LINK',
  'ENCOURAGE_HW_ACCELERATION',
  'CAPTURE_LOG',
  'SET_ORIENTATION_LOCK_STATE',
  'OPEN_INVITE_DIALOG',
  'GET_PLATFORM_BEHAVIORS',
  'GET_CHANNEL_PERMISSIONS',
  'AUTHENTICATE',
  'GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS',
  'GET_QUEST',
  'GET_QUEST_ENROLLMENT_STATUS',
  'GET_RELATIONSHIPS',
  'GET_USER',
  'INITIATE_IMAGE_UPLOAD',
  'INVITE_USER_EMBEDDED',
  'OPEN_SHARE_MOMENT_DIALOG',
  'QUEST_START_TIMER',
  'REQUEST_PROXY_TICKET_REFRESH',
  'SHARE_INTERACTION',
  'SHARE_LINK',
] as const;
export type CommandName = (typeof COMMANDS)[number];

/** Every event of SDK 2.5.0 (`Events`); READY is sent once after the handshake, never subscribed to. */
export const EVENTS = [
  'READY',
  'VOICE_STATE_UPDATE',
  'SPEAKING_START',
  'SPEAKING_STOP',
  'ACTIVITY_LAYOUT_MODE_UPDATE',
  'ORIENTATION_UPDATE',
  'CURRENT_USER_UPDATE',
  'CURRENT_GUILD_MEMBER_UPDATE',
  'ENTITLEMENT_CREATE',
  'THERMAL_STATE_UPDATE',
  'ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE',
  'RELATIONSHIP_UPDATE',
  'ACTIVITY_JOIN',
  'QUEST_ENROLLMENT_STATUS_UPDATE',
] as const;
export type EventName = (typeof EVENTS)[number];

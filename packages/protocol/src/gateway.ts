/** Gateway opcodes and close codes (v10). */
export const Op = {
  DISPATCH: 0,
  HEARTBEAT: 1,
  IDENTIFY: 2,
  PRESENCE_UPDATE: 3,
  VOICE_STATE_UPDATE: 4,
  RESUME: 6,
  RECONNECT: 7,
  REQUEST_GUILD_MEMBERS: 8,
  INVALID_SESSION: 9,
  HELLO: 10,
  HEARTBEAT_ACK: 11,
  REQUEST_SOUNDBOARD_SOUNDS: 31,
  REQUEST_CHANNEL_INFO: 43,
} as const;

export const Close = {
  UNKNOWN_ERROR: 4000,
  UNKNOWN_OPCODE: 4001,
  DECODE_ERROR: 4002,
  NOT_AUTHENTICATED: 4003,
  AUTHENTICATION_FAILED: 4004,
  ALREADY_AUTHENTICATED: 4005,
  INVALID_SEQ: 4007,
  RATE_LIMITED: 4008,
  SESSION_TIMED_OUT: 4009,
  INVALID_SHARD: 4010,
  SHARDING_REQUIRED: 4011,
  INVALID_API_VERSION: 4012,
  INVALID_INTENTS: 4013,
  DISALLOWED_INTENTS: 4014,
} as const;

/** Client frame limits: 4096 bytes, 120 commands per 60 s. */
export const MAX_FRAME = 4096;
export const COMMANDS_PER_MINUTE = 120;

/** Identify `capabilities` bits Accord acts on. */
export const Capability = {
  /** User sessions: the calls already running in the user's DMs come as CALL_CREATE after READY. */
  AUTO_CALL_CONNECT: 1 << 12,
  /** SDK sessions: READY carries `lobbies` and the session counts as connected to them (LOBBY_MEMBER_CONNECT). */
  AUTO_LOBBY_CONNECT: 1 << 16,
} as const;

/** Voice gateway close codes and versions; the opcodes are in @accord/protocol (the web client speaks them too). */
export { VoiceOp } from '@accord/protocol';

/** Ops official clients send that bots do not (video, code version, …): accepted and ignored. */
export const IGNORED_OPS = new Set([10, 12, 14, 15, 16, 17, 18, 19, 20]);

export const VoiceClose = {
  UNKNOWN_OPCODE: 4001,
  DECODE_ERROR: 4002,
  NOT_AUTHENTICATED: 4003,
  AUTHENTICATION_FAILED: 4004,
  ALREADY_AUTHENTICATED: 4005,
  SESSION_INVALID: 4006,
  SESSION_TIMEOUT: 4009,
  SERVER_NOT_FOUND: 4011,
  UNKNOWN_PROTOCOL: 4012,
  DISCONNECTED: 4014,
  SERVER_CRASHED: 4015,
  UNKNOWN_ENCRYPTION_MODE: 4016,
  E2EE_REQUIRED: 4017,
  BAD_REQUEST: 4020,
  RATE_LIMITED: 4021,
  CALL_TERMINATED: 4022,
} as const;

/** Voice gateway versions still served (below 4 were discontinued on 2024-11-18). */
export const MIN_VERSION = 4;
export const MAX_VERSION = 8;

/**
 * The voice gateway's rate limit: messages a client may send (JSON or binary, heartbeats included) per window before
 * it is closed with 4021. Discord does not publish its value; this is the main gateway's budget (120 per 60 s), far
 * above what @discordjs/voice sends (a heartbeat every interval, op 5 per speaking change, a few DAVE ops per member
 * change).
 */
export const VOICE_RATE_LIMIT = { messages: 120, windowMs: 60_000 };

/** RPC error codes (ERROR payloads) and close codes, as the platform and the client libraries number them. */
export const RpcErrorCode = {
  UNKNOWN_ERROR: 1000,
  SERVICE_UNAVAILABLE: 1001,
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
  SELECT_CHANNEL_TIMED_OUT: 5001,
  GET_GUILD_TIMED_OUT: 5002,
  SELECT_VOICE_FORCE_REQUIRED: 5003,
  INVALID_ACTIVITY_SECRET: 5005,
  NO_ELIGIBLE_ACTIVITY: 5006,
} as const;

export const RpcCloseCode = {
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

/** A command failed: answered as `{cmd, evt: "ERROR", nonce, data: {code, message}}`. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** The connection must end: answered with CLOSE `{code, message}` and the socket closed. */
export class RpcClose extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

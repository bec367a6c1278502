/** Voice gateway opcodes (v8), shared by the voice server and the web client. */
export const VoiceOp = {
  IDENTIFY: 0,
  SELECT_PROTOCOL: 1,
  READY: 2,
  HEARTBEAT: 3,
  SESSION_DESCRIPTION: 4,
  SPEAKING: 5,
  HEARTBEAT_ACK: 6,
  RESUME: 7,
  HELLO: 8,
  RESUMED: 9,
  CLIENTS_CONNECT: 11,
  CLIENT_DISCONNECT: 13,
} as const;

/** DAVE's voice gateway opcodes (the protocol whitepaper's numbering), shared by the voice server and both browser clients. */
export const DaveOp = {
  PREPARE_TRANSITION: 21,
  EXECUTE_TRANSITION: 22,
  TRANSITION_READY: 23,
  PREPARE_EPOCH: 24,
  EXTERNAL_SENDER: 25,
  KEY_PACKAGE: 26,
  PROPOSALS: 27,
  COMMIT_WELCOME: 28,
  ANNOUNCE_COMMIT: 29,
  WELCOME: 30,
  INVALID_COMMIT_WELCOME: 31,
} as const;

/** The DAVE protocol version the voice server speaks. */
export const DAVE_PROTOCOL_VERSION = 1;

import { Call } from './call.js';
import type { VoiceEngine } from './types.js';

/** The Node voice engine: calls over the voice gateway, UDP, DAVE and Opus. */
export const nodeVoiceEngine: VoiceEngine = {
  createCall: (host, lobbyId, received, captured) => new Call(host, lobbyId, received, captured),
};

export { Call };
export type { CallEvents } from './call.js';

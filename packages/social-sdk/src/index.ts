/**
 * @accord/social-sdk for Node: the whole surface, calls included (voice gateway, UDP, DAVE via @snazzah/davey, Opus
 * via opusscript).
 */
import { Client } from './client.js';
import { nodeVoiceEngine } from './voice/engine.js';

Client.useVoiceEngine(nodeVoiceEngine);

export * from './common.js';
export { Call, type CallEvents } from './voice/engine.js';

/**
 * @accord/social-sdk for browsers: the whole surface, calls included (WebRTC with DAVE in the page, the audio devices
 * through enumerateDevices, getUserMedia and setSinkId). davey's WebAssembly is fetched from `davey.wasm` beside this
 * module on the first call; a game that serves it elsewhere registers the engine again with its URL.
 */
import { Client } from './client.js';
import { browserVoiceEngine } from './voice/browser/engine.js';

Client.useVoiceEngine(browserVoiceEngine({ daveWasmUrl: new URL('./davey.wasm', import.meta.url) }));

export * from './common.js';
export { BrowserCall as Call, browserVoiceEngine, type BrowserVoiceOptions } from './voice/browser/engine.js';
export type { CallEvents } from './voice/call-base.js';

import type { VoiceEngine } from '../types.js';
import { BrowserCall } from './call.js';
import { browserDevices } from './devices.js';
import { supportsEncodedTransforms } from './peer.js';

export interface BrowserVoiceOptions {
  /** Where davey's WebAssembly is served (the SDK's build puts `davey.wasm` beside `browser.js`). */
  daveWasmUrl: string | URL;
}

/**
 * The browser voice engine: calls over WebRTC with DAVE in the page, and the machine's audio devices. davey loads on
 * the first call; a browser without encoded transforms (or without the module) joins without end-to-end encryption,
 * where the call does not require it.
 */
export function browserVoiceEngine(opts: BrowserVoiceOptions): VoiceEngine {
  const loadDavey = () =>
    supportsEncodedTransforms() ? import('./davey.js').then((m) => m.loadDavey(opts.daveWasmUrl)).catch(() => null) : Promise.resolve(null);
  return {
    devices: browserDevices,
    createCall: (host, lobbyId, received, captured) => new BrowserCall(host, lobbyId, loadDavey, received, captured),
  };
}

export { BrowserCall };

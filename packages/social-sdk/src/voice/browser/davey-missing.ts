import type { DaveyModule } from './davey.js';

/**
 * Stands in for davey.ts when the build could not fetch davey's WebAssembly (offline, see scripts/davey-wasm.mjs): the
 * client still joins voice, without end-to-end encryption, where the channel does not require it.
 */
export function loadDavey(_wasmUrl?: string | URL): Promise<DaveyModule> {
  return Promise.reject(new Error('This build has no DAVE module (its WebAssembly could not be fetched when it was built).'));
}

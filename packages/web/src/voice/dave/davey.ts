import { loadDavey as loadFrom, type DaveyModule } from '@accord/social-sdk/browser-voice/davey';
import wasmUrl from '@snazzah/davey-wasm32-wasi/davey.wasm32-wasi.wasm?url';

/** davey's WebAssembly, emitted by this build as an asset (vite.config.ts points at the SDK's cache of it). */
export function loadDavey(): Promise<DaveyModule> {
  return loadFrom(wasmUrl);
}

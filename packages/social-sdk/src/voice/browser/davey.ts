// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the ambient declarations of a module outside node_modules (modules.d.ts), for every project that compiles this file
/// <reference path="./modules.d.ts" />
import { WASI, getDefaultContext, instantiateNapiModuleSync } from '@napi-rs/wasm-runtime';
import { unshareMemoryImport } from './wasm-memory.js';

/** What this client uses of @snazzah/davey (its WebAssembly build has the native addon's API). */
export interface DaveyModule {
  DAVE_PROTOCOL_VERSION: number;
  DAVESession: new (protocolVersion: number, userId: string, channelId: string) => DaveySession;
}

export interface DaveySession {
  readonly ready: boolean;
  readonly voicePrivacyCode: string;
  readonly epoch: bigint | null;
  reinit(protocolVersion: number, userId: string, channelId: string): void;
  reset(): void;
  setPassthroughMode(passthrough: boolean, transitionExpiry?: number): void;
  setExternalSender(data: Uint8Array): void;
  getSerializedKeyPackage(): Uint8Array;
  processProposals(op: number, proposals: Uint8Array, recognizedUserIds?: string[]): { commit?: Uint8Array; welcome?: Uint8Array };
  processWelcome(welcome: Uint8Array): void;
  processCommit(commit: Uint8Array): void;
  getVerificationCode(userId: string): Promise<string>;
  encryptOpus(packet: Uint8Array): Uint8Array;
  decrypt(userId: string, mediaType: number, packet: Uint8Array): Uint8Array;
  canPassthrough(userId: string): boolean;
  getUserIds(): string[];
}

/**
 * The napi runtime hands byte arrays out as `Buffer`s, which browsers lack: plain Uint8Arrays do (the few static
 * methods it calls are provided). Views it creates over the module's memory go stale when that memory grows, so
 * callers copy what they receive before calling the module again.
 */
function BufferShim(buffer: ArrayBuffer, offset?: number, length?: number): Uint8Array {
  return new Uint8Array(buffer, offset, length);
}
BufferShim.from = (src: ArrayBuffer | ArrayLike<number>, offset?: number, length?: number) =>
  src instanceof ArrayBuffer ? new Uint8Array(src, offset, length) : Uint8Array.from(src);
BufferShim.alloc = (size: number) => new Uint8Array(size);
BufferShim.isBuffer = (v: unknown) => v instanceof Uint8Array;

const loading = new Map<string, Promise<DaveyModule>>();

/**
 * Loads davey once per URL (about 1 MB of WebAssembly, fetched when voice is first used). Each bundler places the
 * file its own way: the web client's build names it with `?url`, the SDK's browser build copies it beside itself.
 */
export function loadDavey(wasmUrl: string | URL): Promise<DaveyModule> {
  const key = String(wasmUrl);
  let p = loading.get(key);
  if (p) return p;
  p = (async () => {
    const res = await fetch(wasmUrl);
    if (!res.ok) throw new Error(`DAVE module: HTTP ${res.status}`);
    const { bytes, minPages, maxPages } = unshareMemoryImport(new Uint8Array(await res.arrayBuffer()));
    const memory = new WebAssembly.Memory({ initial: minPages, maximum: maxPages ?? 65536 });
    const context = getDefaultContext() as { feature: { Buffer?: unknown } };
    context.feature.Buffer ??= BufferShim;
    const { napiModule } = instantiateNapiModuleSync(bytes, {
      context,
      asyncWorkPoolSize: 0,
      wasi: new WASI({ version: 'preview1' }),
      overwriteImports(imports) {
        imports.env = { ...imports.env, ...imports.napi, ...imports.emnapi, memory };
        return imports;
      },
      beforeInit({ instance }) {
        for (const name of Object.keys(instance.exports)) if (name.startsWith('__napi_register__')) (instance.exports[name] as () => void)();
      },
    });
    return napiModule.exports as DaveyModule;
  })();
  loading.set(key, p);
  p.catch(() => loading.delete(key));
  return p;
}

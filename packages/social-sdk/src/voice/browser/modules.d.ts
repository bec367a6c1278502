// The WebAssembly runtime comes from packages/web/.cache/davey (scripts/davey-wasm.mjs), not from node_modules:
// only the little this client calls is declared.
declare module '@napi-rs/wasm-runtime' {
  export class WASI {
    constructor(opts: { version: 'preview1' });
  }
  export function getDefaultContext(): unknown;
  export function instantiateNapiModuleSync(
    wasm: BufferSource,
    opts: {
      context: unknown;
      asyncWorkPoolSize: number;
      wasi: WASI;
      overwriteImports(imports: Record<string, any>): Record<string, any>;
      beforeInit(arg: { instance: WebAssembly.Instance }): void;
    },
  ): { napiModule: { exports: any } };
}

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
// @ts-expect-error a plain .mjs script (also run on its own), without type declarations
import { ensureDaveyWasm, packageDir } from './scripts/davey-wasm.mjs';

// The server serves dist/index.html on the client's page paths and dist/assets/* under /assets/.
// `npm run dev -w @accord/web` proxies the API to a server on 127.0.0.1:8080 (ACCORD_URL to change it).
const api = process.env.ACCORD_URL ?? 'http://127.0.0.1:8080';

export default defineConfig(() => {
  // DAVE's WebAssembly build and its runtime are fetched into .cache/davey (see scripts/davey-wasm.mjs). Without them
  // (offline, no npm cache) the build still succeeds, with a stand-in that reports DAVE as unavailable.
  let davey = true;
  try {
    ensureDaveyWasm({ log: (m: string) => console.log(m) });
  } catch (err) {
    davey = false;
    console.warn(`davey-wasm: ${(err as Error).message}\ndavey-wasm: building without DAVE (browser voice only where a channel does not require it)`);
  }
  return {
    plugins: [react()],
    base: '/',
    resolve: {
      alias: davey
        ? [
            { find: /^@napi-rs\/wasm-runtime$/, replacement: `${packageDir('@napi-rs/wasm-runtime')}/runtime.js` },
            { find: /^@snazzah\/davey-wasm32-wasi\//, replacement: `${packageDir('@snazzah/davey-wasm32-wasi')}/` },
          ]
        : [{ find: /^\.\/dave\/davey\.js$/, replacement: fileURLToPath(new URL('./src/voice/dave/davey-missing.ts', import.meta.url)) }],
    },
    build: {
      outDir: 'dist',
      assetsDir: 'assets',
      target: 'es2022',
      sourcemap: false,
      reportCompressedSize: false,
      chunkSizeWarningLimit: 600,
    },
    server: {
      proxy: {
        '/api': api,
        '/attachments': api,
        '/emojis': api,
        '/stickers': api,
      },
    },
  };
});

/**
 * Builds the two bundles: `dist/index.js` for Node (calls over UDP; ws, davey and opusscript stay dependencies) and
 * `dist/browser.js` for browsers (calls over WebRTC, no Node built-ins) with `dist/davey.wasm` beside it: davey's
 * WebAssembly build and its runtime come from .cache/davey (scripts/davey-wasm.mjs); without them (offline) the
 * browser build has no DAVE and joins only calls that do not require it. @accord/protocol is bundled into both.
 */
import { build } from 'esbuild';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { ensureDaveyWasm, packageDir } from './davey-wasm.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const common = { bundle: true, format: 'esm', sourcemap: true, target: 'es2022', logLevel: 'warning', absWorkingDir: root };

await build({
  ...common,
  entryPoints: ['src/index.ts'],
  outfile: 'dist/index.js',
  platform: 'node',
  external: ['ws', '@snazzah/davey', 'opusscript'],
});

let davey = true;
try {
  ensureDaveyWasm({ log: (m) => console.log(m) });
} catch (err) {
  davey = false;
  console.warn(`${err.message}\nsocial-sdk: the browser build has no DAVE`);
}

/** davey's runtime from the cache, or the stand-in that reports DAVE as unavailable. */
const daveyPlugin = {
  name: 'davey',
  setup(b) {
    b.onResolve({ filter: /^@napi-rs\/wasm-runtime$/ }, () => ({ path: path.join(packageDir('@napi-rs/wasm-runtime'), 'runtime.js') }));
    if (!davey) b.onResolve({ filter: /^\.\/davey\.js$/ }, (a) => ({ path: path.join(a.resolveDir, 'davey-missing.ts') }));
  },
};

await build({
  ...common,
  entryPoints: ['src/browser.ts'],
  outdir: 'dist',
  // davey's runtime is a chunk of its own, fetched with the first call.
  splitting: true,
  chunkNames: 'browser-[name]-[hash]',
  platform: 'browser',
  plugins: [daveyPlugin],
  // Reached only in Node (the loopback Authorize server, the `ws` fallback): left out of the browser bundle.
  external: ['node:*', 'ws'],
});
if (davey) fs.copyFileSync(path.join(packageDir('@snazzah/davey-wasm32-wasi'), 'davey.wasm32-wasi.wasm'), path.join(root, 'dist', 'davey.wasm'));
console.log(`social-sdk: dist/index.js (node), dist/browser.js with its chunks and ${davey ? 'dist/davey.wasm' : 'no DAVE'} (browser)`);

/**
 * Builds the two bundles: `dist/index.js` for Node (calls included; ws, davey and opusscript stay dependencies) and
 * `dist/browser.js` for browsers (no calls, no Node built-ins). @accord/protocol is bundled into both.
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const common = { bundle: true, format: 'esm', sourcemap: true, target: 'es2022', logLevel: 'warning', absWorkingDir: root };

await build({
  ...common,
  entryPoints: ['src/index.ts'],
  outfile: 'dist/index.js',
  platform: 'node',
  external: ['ws', '@snazzah/davey', 'opusscript'],
});

await build({
  ...common,
  entryPoints: ['src/browser.ts'],
  outfile: 'dist/browser.js',
  platform: 'browser',
  // Reached only in Node (the loopback Authorize server, the `ws` fallback): left out of the browser bundle.
  external: ['node:*', 'ws'],
});
console.log('social-sdk: dist/index.js (node), dist/browser.js (browser)');

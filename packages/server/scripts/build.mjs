// Bundles the server into dist/ (dependencies stay external), so `npm start` loads a few files on plain node
// instead of compiling every module through the TypeScript loader at each start. The voice media worker is its
// own entry, next to the boot file that starts it. `node scripts/build.mjs [outdir]`: dist/ by default (`npm test`
// builds one for its child-process servers elsewhere).
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.resolve(process.argv[2] ?? path.join(root, 'dist'));
const t0 = performance.now();
await build({
  entryPoints: { accord: path.join(root, 'src/main.ts'), worker: path.join(root, 'src/voice/media/worker.ts') },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Pure-JS dependencies are bundled too: loading one file is much faster than resolving hundreds. Native addons
  // and optional peers stay external; ioredis too, imported dynamically only in distributed mode (REDIS_URL).
  external: ['better-sqlite3', 'bufferutil', 'utf-8-validate', 'pg', 'pg-native', 'ioredis', '@snazzah/davey', 'tsx', 'tsx/*', 'esbuild'],
  banner: { js: "import { createRequire as __accordRequire } from 'node:module'; const require = __accordRequire(import.meta.url);" },
  sourcemap: 'linked',
  logLevel: 'warning',
});
fs.copyFileSync(path.join(root, 'src/voice/media/boot.mjs'), path.join(outdir, 'boot.mjs'));
console.log(`accord: built ${path.relative(process.cwd(), outdir) || '.'}/ in ${(performance.now() - t0).toFixed(0)} ms`);

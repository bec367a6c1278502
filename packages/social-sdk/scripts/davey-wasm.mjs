/**
 * DAVE in the browser needs @snazzah/davey's WebAssembly build, which npm will not install here: the package declares
 * `cpu: ["wasm32"]`, so as a dependency `npm install` fails (EBADPLATFORM) and as an optional one it is skipped. This
 * fetches that exact tarball and the runtime it loads with (`npm pack`, the registry's ordinary client), checks each
 * against its pinned sha512 integrity, and unpacks them into packages/social-sdk/.cache/davey/node_modules (gitignored),
 * where the bundlers are pointed: the SDK's browser build (scripts/build.mjs) and the web client's (its vite.config.ts).
 * Run by both builds and on its own: `node scripts/davey-wasm.mjs`.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const DAVEY_CACHE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '.cache', 'davey');

/** Exact versions, with the integrity the registry publishes for them. */
export const PINNED = [
  ['@snazzah/davey-wasm32-wasi@0.1.12', 'sha512-MPKFuqYVkDFXheR7qmtEY4FWxQ/ADfgsCojQWHi13sibUqCTR9q2F1LqNn2i9IVh3sh1sxeg87fdFMCH63pl7g=='],
  ['@napi-rs/wasm-runtime@1.2.7', 'sha512-zJccwplOAbgfZju95IUHazLnx9RAPtPN2YGJXI6UbrgeaR9QfPjGrQL6ERkSAtnVCA4Q+83ApGyaX5zdpCaKkQ=='],
  ['@emnapi/core@1.9.2', 'sha512-UC+ZhH3XtczQYfOlu3lNEkdW/p4dsJ1r/bP7H8+rhao3TTTMO1ATq/4DdIi23XuGoFY+Cz0JmCbdVl0hz9jZcA=='],
  ['@emnapi/runtime@1.9.2', 'sha512-3U4+MIWHImeyu1wnmVygh5WlgfYDtyf0k8AbLhMFxOipihf6nrWC4syIm/SwEeec0mNSafiiNnMJwbza/Is6Lw=='],
  ['@emnapi/wasi-threads@1.2.1', 'sha512-uTII7OYF+/Mes/MrcIOYp5yOtSMLBWSIoLPpcgwipoiKbli6k322tcoFsxoIIxPDqW01SQGAgko4EzZi2BNv2w=='],
  ['@tybys/wasm-util@0.10.5', 'sha512-dOGOPxlaNV+G046mZzN+9C0dAcQZeSKcXiVaM0TYy/LM4ttTmgSBDxYfovcYI8Em3+eAbiAYpvWLOv8+ZVRJKA=='],
];

const nameOf = (spec) => spec.slice(0, spec.lastIndexOf('@'));

/** The unpacked directory of a pinned package. */
export const packageDir = (name) => path.join(DAVEY_CACHE, 'node_modules', ...name.split('/'));

function sri(file) {
  return `sha512-${crypto.createHash('sha512').update(fs.readFileSync(file)).digest('base64')}`;
}

/**
 * Fetches and unpacks what is missing; a package already unpacked from the pinned integrity is kept. One `npm pack`
 * for all of them: each run of npm costs seconds before it fetches anything.
 */
export function ensureDaveyWasm({ log = () => {} } = {}) {
  const tarballs = path.join(DAVEY_CACHE, 'tarballs');
  const missing = PINNED.filter(([spec, integrity]) => {
    const stamp = path.join(packageDir(nameOf(spec)), '.integrity');
    return !(fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === integrity);
  });
  if (!missing.length) return DAVEY_CACHE;
  fs.mkdirSync(tarballs, { recursive: true });
  log(`davey-wasm: fetching ${missing.map(([spec]) => spec).join(', ')}`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const out = execFileSync(npm, ['pack', ...missing.map(([spec]) => spec), '--json', '--pack-destination', tarballs], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    shell: process.platform === 'win32',
  });
  const packed = JSON.parse(out);
  for (const [spec, integrity] of missing) {
    const file = path.join(tarballs, packed.find((p) => `${p.name}@${p.version}` === spec).filename);
    const got = sri(file);
    if (got !== integrity) {
      fs.rmSync(file, { force: true });
      throw new Error(`davey-wasm: ${spec} does not match its pinned integrity (got ${got})`);
    }
    const dir = packageDir(nameOf(spec));
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    execFileSync('tar', ['-xzf', file, '-C', dir, '--strip-components=1'], { stdio: 'inherit' });
    fs.writeFileSync(path.join(dir, '.integrity'), integrity);
  }
  return DAVEY_CACHE;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  ensureDaveyWasm({ log: (m) => console.log(m) });
  console.log(`davey-wasm: ready in ${DAVEY_CACHE}`);
}

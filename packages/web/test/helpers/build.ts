import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** packages/web */
export const WEB_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

function newest(dir: string): number {
  let t = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return t;
}

/**
 * The tests run against the built client the server serves. `npm install` builds it; this builds it again only
 * when a source file is newer than the build (a developer editing and re-running one test file).
 */
export async function ensureBuilt(): Promise<void> {
  const index = path.join(WEB_ROOT, 'dist', 'index.html');
  const built = fs.existsSync(index) ? fs.statSync(index).mtimeMs : 0;
  const sources = Math.max(newest(path.join(WEB_ROOT, 'src')), fs.statSync(path.join(WEB_ROOT, 'index.html')).mtimeMs);
  if (built > sources) return;
  const { build } = await import('vite');
  await build({ root: WEB_ROOT, logLevel: 'warn', configFile: path.join(WEB_ROOT, 'vite.config.ts') });
}

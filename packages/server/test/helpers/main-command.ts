import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

const MAIN_TS = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

/**
 * The node arguments that run `accord` (src/main.ts) as a child process, before its own arguments: the server bundle
 * `npm test` built once for the run (ACCORD_TEST_MAIN, the same build as `npm start`'s), or else the sources through
 * tsx. Loading the sources through tsx costs each child about a second and a half of CPU.
 */
export function mainCommand(): string[] {
  const bundle = process.env.ACCORD_TEST_MAIN;
  if (bundle && fs.existsSync(bundle)) return ['--enable-source-maps', bundle];
  return ['--import', 'tsx', MAIN_TS];
}

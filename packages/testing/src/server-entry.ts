import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** The server package's folder, and the tsx loader it ships: the toolkit's child processes run TypeScript through it. */
export function serverEntry(): { main: string; tsx: string } {
  const pkg = path.dirname(require.resolve('@accord/server/package.json'));
  return { main: path.join(pkg, 'src', 'main.ts'), tsx: require.resolve('tsx', { paths: [pkg] }) };
}

/**
 * The node arguments that run `accord` before its own: the server's sources through tsx, so the platform always
 * matches this checkout; or, inside this repository's `npm test`, the server bundle it built from this checkout for
 * the run (ACCORD_TEST_MAIN), which spares each start the second or two of CPU that loading the sources costs.
 */
export function serverCommand(): string[] {
  const bundle = process.env.ACCORD_TEST_MAIN;
  if (bundle && fs.existsSync(bundle)) return ['--enable-source-maps', bundle];
  const { main, tsx } = serverEntry();
  return ['--import', tsx, main];
}

import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** The server package's folder, and the tsx loader it ships: the toolkit's child processes run TypeScript through it. */
export function serverEntry(): { main: string; tsx: string } {
  const pkg = path.dirname(require.resolve('@accord/server/package.json'));
  return { main: path.join(pkg, 'src', 'main.ts'), tsx: require.resolve('tsx', { paths: [pkg] }) };
}

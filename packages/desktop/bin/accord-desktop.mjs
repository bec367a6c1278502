#!/usr/bin/env node
// Runs the TypeScript sources through tsx's loader (a dependency of this package).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
main().catch((err) => {
  console.error(`accord-desktop: ${err?.message ?? err}`);
  process.exit(1);
});

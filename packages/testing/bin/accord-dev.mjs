#!/usr/bin/env node
// `npx accord-dev [accord start flags]`: a local Accord in dev mode for developing a bot: the API, the Gateway and the
// web client on one port, with the dev token printed, until Ctrl-C. `--world` also builds a world (two people, a guild
// and an app with its bot) and prints its tokens. Runs the toolkit's TypeScript through tsx, which the server ships.
import { createRequire } from 'node:module';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const tsx = require.resolve('tsx', { paths: [path.dirname(require.resolve('@accord/server/package.json'))] });
const main = path.join(path.dirname(fileURLToPath(import.meta.url)), 'main.ts');
const child = spawn(process.execPath, ['--import', tsx, main, ...process.argv.slice(2)], { stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

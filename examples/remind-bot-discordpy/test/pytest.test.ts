// engine-independent: a discord.py bot driven through the pytest plugin against its own Accord on SQLite
/** The discord.py example's pytest suite (Debian's python3-pytest, pytest-asyncio and discord.py). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = path.resolve(HERE, '..', '..');

test('remind-bot-discordpy: its pytest suite passes', { timeout: 180_000 }, async () => {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PYTHONPATH: [HERE, path.join(ROOT, 'packages', 'testing', 'python')].join(path.delimiter),
    PYTHONDONTWRITEBYTECODE: '1',
    ACCORD_ROOT: ROOT,
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const child = spawn('/usr/bin/python3', ['-m', 'pytest', '-q', 'tests'], { cwd: HERE, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0, `pytest failed:\n${out.slice(-6000)}`);
  assert.match(out, /\b1 passed\b/, out.slice(-2000));
});

/**
 * The pytest plugin (packages/testing/python) run as a Python developer runs it: Debian's python3-pytest and
 * python3-pytest-asyncio on the system Python drive a discord.py bot (python3-discord) against an Accord the plugin
 * starts itself. `.ci/run` installs the three packages.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PYTHON = '/usr/bin/python3';
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const PLUGIN = path.join(ROOT, 'packages', 'testing', 'python');
const TESTS = 10; // packages/testing/python/tests/test_*.py

test('pytest, pytest-asyncio and discord.py are installed for the system Python', () => {
  const r = spawnSync(PYTHON, ['-c', 'import pytest, pytest_asyncio, discord, sys; sys.stdout.write(pytest.__version__)'], { encoding: 'utf8' });
  assert.equal(r.status, 0, `apt-get install -y python3-pytest python3-pytest-asyncio python3-discord: ${r.stderr}`);
  assert.match(r.stdout, /^\d+\./);
});

test(
  'the pytest plugin: slash command → button → modal → ephemeral answer, typed subcommands, the clock, timeouts that list what arrived',
  { timeout: 240_000 },
  async () => {
    // The plugin starts its own Accord on SQLite in a temp dir: no database or Redis of this run reaches it.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PYTHONPATH: [PLUGIN, process.env.PYTHONPATH].filter(Boolean).join(path.delimiter),
      PYTHONDONTWRITEBYTECODE: '1',
      ACCORD_ROOT: ROOT,
    };
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    const child = spawn(PYTHON, ['-m', 'pytest', '-q', path.join(PLUGIN, 'tests')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 0, `pytest failed:\n${out.slice(-6000)}`);
    assert.match(out, new RegExp(`\\b${TESTS} passed\\b`), out.slice(-3000));
    assert.doesNotMatch(out, /\b\d+ (failed|error)/, out.slice(-3000));
  },
);

import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Accord, type WorldSnapshot } from './accord.js';
import { serverCommand } from './server-entry.js';

export interface StartOptions {
  /** Data directory; a fresh temp dir (removed at close) by default. */
  dataDir?: string;
  /** Extra `accord start` flags, e.g. ['--rate-limits', 'off'] or ['--database-url', url]. */
  args?: string[];
  /** Environment of the server process (added to this one's). */
  env?: Record<string, string>;
  /** Start from this world: a snapshot file, or a snapshot from `accord.snapshot()`. */
  import?: string | WorldSnapshot;
  /** Write the world to this file when the server stops (`close()`). */
  exportOnExit?: string;
  /** A frozen clock (2026-01-01 until moved), ids and secrets from a fixed sequence: two runs, the same world. */
  deterministic?: boolean;
  /** Server output on this process's stderr (default: only when it fails to start). */
  verbose?: boolean;
  /** Milliseconds to wait for the server to listen (default 30 s). */
  startTimeoutMs?: number;
  /**
   * Registers `close()` with the test runner: node:test's `after` (call startAccord at a file's top level or in a test;
   * node:test runs an `after` made in a `before` hook when that hook ends, so there pass false and close it yourself),
   * or the `afterAll` global of vitest and jest. Default true.
   */
  autoClose?: boolean;
}

/**
 * Starts Accord in a child process on a free port, in dev mode, with SQLite in a temp dir unless told otherwise, and
 * resolves when it listens. The process is this test file's: it is stopped and its data removed by `close()`.
 */
export async function startAccord(options: StartOptions = {}): Promise<Accord> {
  const ownDir = !options.dataDir;
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'accord-testing-'));
  const devToken = crypto.randomBytes(24).toString('base64url');
  const args = [...(options.args ?? [])];
  if (options.deterministic) args.push('--deterministic');
  if (options.exportOnExit) args.push('--export-on-exit', path.resolve(options.exportOnExit));
  if (options.import) {
    const file = typeof options.import === 'string' ? path.resolve(options.import) : path.join(dataDir, 'import.json');
    if (typeof options.import !== 'string') fs.writeFileSync(file, JSON.stringify(options.import));
    args.push('--import', file);
  }
  const child = spawn(process.execPath, [...serverCommand(), 'start', '--port', '0', '--host', '127.0.0.1', '--data', dataDir, '--dev', ...args], {
    env: { ...process.env, ACCORD_DEV_TOKEN: devToken, ACCORD_LOG_LEVEL: 'silent', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
    if (options.verbose) process.stderr.write(chunk);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let url: string;
  try {
    url = await listening(child, () => output, options.startTimeoutMs ?? 30_000);
  } catch (err) {
    child.kill('SIGKILL');
    if (ownDir) fs.rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  const accord = new Accord(
    url,
    devToken,
    async () => {
      await stop(child);
      if (ownDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
    dataDir,
  );
  if (options.autoClose !== false) await registerClose(accord);
  return accord;
}

function listening(child: ChildProcess, output: () => string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(`Accord did not start within ${timeoutMs} ms`), timeoutMs);
    const onData = () => {
      const m = /accord: listening on (\S+)/.exec(output());
      if (m) {
        cleanup();
        resolve(m[1]);
      }
    };
    const onExit = (code: number | null) => fail(`Accord exited (${code}) before listening`);
    const fail = (why: string) => {
      cleanup();
      reject(new Error(`${why}; its output:\n${output().trim() || '(none)'}`));
    };
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.off('exit', onExit);
    };
    child.stdout!.on('data', onData);
    child.once('exit', onExit);
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** The runner's teardown hook: vitest and jest have `afterAll` as a global; node:test's `after` is imported. */
async function registerClose(accord: Accord): Promise<void> {
  const g = globalThis as { afterAll?: (fn: () => Promise<void>) => void };
  if (typeof g.afterAll === 'function') return g.afterAll(() => accord.close());
  if (!process.execArgv.includes('--test') && !process.env.NODE_TEST_CONTEXT) return;
  const { after } = await import('node:test');
  after(() => accord.close());
}

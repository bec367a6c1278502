import path from 'node:path';

/** Where the IPC sockets live: the first set of XDG_RUNTIME_DIR, TMPDIR, TMP, TEMP, else /tmp (docs "IPC Path"). */
export function ipcDirectory(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.XDG_RUNTIME_DIR || env.TMPDIR || env.TMP || env.TEMP || '/tmp';
  // discord-rpc strips one trailing slash; keep "/" itself intact.
  return dir.length > 1 ? dir.replace(/\/+$/, '') : dir;
}

/** The socket (or named pipe) for slot n (0…9) on a platform. */
export function ipcPath(n: number, platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string {
  if (!Number.isInteger(n) || n < 0 || n > 9) throw new RangeError(`IPC slot must be 0…9, got ${n}`);
  if (platform === 'win32') return `\\\\?\\pipe\\discord-ipc-${n}`;
  return path.posix.join(ipcDirectory(env), `discord-ipc-${n}`);
}

/** Every candidate path, slot 0 first. */
export const ipcPaths = (platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string[] =>
  Array.from({ length: 10 }, (_, n) => ipcPath(n, platform, env));

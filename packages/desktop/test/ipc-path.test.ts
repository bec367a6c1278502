import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ipcDirectory, ipcPath, ipcPaths } from '../src/platform/ipc-path.ts';

describe('IPC paths', () => {
  it('Windows uses the named pipe \\\\?\\pipe\\discord-ipc-N whatever the environment', () => {
    assert.equal(ipcPath(0, 'win32', { XDG_RUNTIME_DIR: '/run/user/1000' }), '\\\\?\\pipe\\discord-ipc-0');
    assert.equal(ipcPath(9, 'win32', {}), '\\\\?\\pipe\\discord-ipc-9');
    assert.deepEqual(ipcPaths('win32', {}).slice(0, 2), ['\\\\?\\pipe\\discord-ipc-0', '\\\\?\\pipe\\discord-ipc-1']);
  });

  it('Linux and macOS take the first of XDG_RUNTIME_DIR, TMPDIR, TMP, TEMP, else /tmp', () => {
    assert.equal(ipcPath(0, 'linux', { XDG_RUNTIME_DIR: '/run/user/1000', TMPDIR: '/var/tmp' }), '/run/user/1000/discord-ipc-0');
    assert.equal(ipcPath(3, 'darwin', { TMPDIR: '/var/folders/xy/T/' }), '/var/folders/xy/T/discord-ipc-3');
    assert.equal(ipcPath(1, 'linux', { TMP: '/scratch' }), '/scratch/discord-ipc-1');
    assert.equal(ipcPath(1, 'linux', { TEMP: '/temp' }), '/temp/discord-ipc-1');
    assert.equal(ipcPath(2, 'linux', {}), '/tmp/discord-ipc-2');
    // An empty variable counts as unset, as in the libraries (`||`).
    assert.equal(ipcDirectory({ XDG_RUNTIME_DIR: '', TMPDIR: '/t' }), '/t');
    assert.equal(ipcDirectory({ TMPDIR: '/' }), '/');
  });

  it('only slots 0…9 exist', () => {
    assert.equal(ipcPaths('linux', {}).length, 10);
    assert.throws(() => ipcPath(10, 'linux', {}), RangeError);
    assert.throws(() => ipcPath(-1, 'win32', {}), RangeError);
  });
});

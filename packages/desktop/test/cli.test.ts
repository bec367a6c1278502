import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@xhayper/discord-rpc';
import { startTestServer, type TestServer } from '../../server/test/helpers/server.ts';

const BIN = fileURLToPath(new URL('../bin/accord-desktop.mjs', import.meta.url));

/** `accord-desktop --login … --password … --dev` as a person runs it, with a real RPC library talking to it. */
describe('accord-desktop (the command)', () => {
  let t: TestServer;
  let child: ChildProcess;
  let dir: string;
  let out = '';
  const previous = process.env.XDG_RUNTIME_DIR;

  before(async () => {
    t = await startTestServer();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accord-cli-'));
    process.env.XDG_RUNTIME_DIR = dir;
    const alice = t.world.users[0];
    child = spawn(process.execPath, [BIN, '--server', t.server.url, '--login', alice.username, '--password', alice.password, '--dev', '--no-websocket'], {
      env: { ...process.env, XDG_RUNTIME_DIR: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stderr!.on('data', (d) => (out += d));
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (d) => {
        out += d;
        if (out.includes('IPC')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
  });
  after(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
    if (previous === undefined) delete process.env.XDG_RUNTIME_DIR;
    else process.env.XDG_RUNTIME_DIR = previous;
  });

  it('prints who it is logged in as and where it listens, never the token or password', () => {
    const alice = t.world.users[0];
    assert.match(out, new RegExp(`logged in as Alice \\(@${alice.username}\\)`));
    assert.ok(out.includes(path.join(dir, 'discord-ipc-0')), out);
    assert.ok(!out.includes(alice.token) && !out.includes(alice.password), 'no secret on the terminal');
  });

  it('serves an app: --dev approves AUTHORIZE, and the exchanged token authenticates', async () => {
    const secret = await t.api(`/applications/${t.world.applicationId}/reset`, { method: 'POST', token: t.world.users[0].token });
    const client = new Client({ clientId: t.world.applicationId, clientSecret: secret.body.secret });
    (client as any).rest.options.api = `${t.server.url}/api`;
    await client.login({ scopes: ['rpc', 'identify'] });
    assert.equal(client.user?.id, t.world.users[0].id);
    assert.equal(client.application?.id, t.world.applicationId);
    await client.destroy();
  });

  it('stops on SIGTERM and removes its socket', async () => {
    child.kill('SIGTERM');
    const code = await new Promise((r) => child.once('exit', r));
    assert.equal(code, 0);
    assert.equal(fs.existsSync(path.join(dir, 'discord-ipc-0')), false);
  });
});

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../../../server/test/helpers/server.ts';
import { RawGateway } from '../../../server/test/helpers/gateway-client.ts';
import { DesktopClient } from '../../src/client.ts';
import { AutoApprovePrompter } from '../../src/consent.ts';

export { RawGateway };
export { waitEvent, until, sleep } from '../../../server/test/helpers/wait.ts';

/**
 * A real Accord server (seeded), and the local client logged in as alice, serving IPC in a fresh temp directory
 * (XDG_RUNTIME_DIR points there, so the RPC libraries find it) and the WebSocket on 6463–6472.
 */
export interface DesktopWorld {
  t: TestServer;
  desktop: DesktopClient;
  prompter: AutoApprovePrompter;
  alice: TestServer['world']['users'][number];
  bob: TestServer['world']['users'][number];
  appId: string;
  clientSecret: string;
  ipcDir: string;
  close(): Promise<void>;
}

export async function startDesktopWorld(opts: { websocket?: boolean } = {}): Promise<DesktopWorld> {
  const t = await startTestServer();
  const ipcDir = fs.mkdtempSync(path.join(os.tmpdir(), 'accord-ipc-'));
  const previous = process.env.XDG_RUNTIME_DIR;
  process.env.XDG_RUNTIME_DIR = ipcDir;
  const [alice, bob] = t.world.users;
  const prompter = new AutoApprovePrompter();
  const desktop = await new DesktopClient({ server: t.server.url, token: alice.token, prompter, websocket: opts.websocket ?? true }).start();
  const secret = await t.api(`/applications/${t.world.applicationId}/reset`, { method: 'POST', token: alice.token });
  assert.equal(secret.status, 200, secret.text);
  return {
    t,
    desktop,
    prompter,
    alice,
    bob,
    appId: t.world.applicationId,
    clientSecret: secret.body.secret,
    ipcDir,
    async close() {
      await desktop.stop();
      await t.close();
      fs.rmSync(ipcDir, { recursive: true, force: true });
      if (previous === undefined) delete process.env.XDG_RUNTIME_DIR;
      else process.env.XDG_RUNTIME_DIR = previous;
    },
  };
}

/** Bob's own Gateway session, to watch what others see of alice. */
export async function watcher(w: DesktopWorld): Promise<RawGateway> {
  const gw = await RawGateway.connect(w.t.server.url);
  await gw.identify(w.bob.token);
  return gw;
}

/** The next PRESENCE_UPDATE about alice that satisfies `pred`, among frames not yet consumed. */
export function nextPresence(gw: RawGateway, userId: string, pred: (d: any) => boolean, after = 0): Promise<any> {
  return gw.wait((f) => f.op === 0 && f.t === 'PRESENCE_UPDATE' && (f.s ?? 0) > after && f.d?.user?.id === userId && pred(f.d), 10_000).then((f) => f.d);
}

export const lastSeq = (gw: RawGateway) => gw.frames.reduce((m, f) => Math.max(m, f.s ?? 0), 0);

import { fork, type ChildProcess } from 'node:child_process';
import OpusScript from 'opusscript';
import type { TestServer } from '../helpers/server.js';
import type { Actor } from '../../src/services/context.js';
import { getUser } from '../../src/services/identity/users.js';
import { createApplication, resetBotToken } from '../../src/services/identity/applications.js';
import { installBot } from '../../src/services/identity/bot-install.js';
import { ALL_PERMISSIONS, P } from '@accord/protocol';

/** The driver child process (real discord.js + @discordjs/voice bots) with the voice CA trusted. */
export class VoiceDriver {
  private next = 1;
  private readonly pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  /** Uncaught exceptions in the bots' process: a client crash is a test failure. */
  readonly crashes: string[] = [];
  private readonly child: ChildProcess;
  readonly ready: Promise<void>;

  constructor(caPath: string) {
    this.child = fork(new URL('./driver.ts', import.meta.url), [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, NODE_EXTRA_CA_CERTS: caPath },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.ready = new Promise((resolve, reject) => {
      this.pending.set(0, { resolve: () => resolve(), reject });
    });
    this.child.on('message', (msg: { id: number; result?: unknown; error?: string }) => {
      if (msg.id === -1) {
        this.crashes.push(msg.error ?? 'crash');
        for (const p of this.pending.values()) p.reject(new Error(`bot process crashed: ${msg.error}`));
        this.pending.clear();
        return;
      }
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.error) p.reject(new Error(msg.error));
      else p.resolve(msg.result);
    });
    this.child.on('exit', (code) => {
      for (const p of this.pending.values()) p.reject(new Error(`bot process exited (${code})`));
      this.pending.clear();
    });
  }

  call<T = any>(cmd: string, args: Record<string, unknown> = {}, timeoutMs = 40_000): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`driver ${cmd} timed out`));
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      this.child.send({ id, cmd, args });
    });
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}

/** A new application with a bot installed in the seed guild (every permission but ADMINISTRATOR, or `permissions`). */
export async function makeBot(
  t: TestServer,
  name: string,
  permissions = ALL_PERMISSIONS & ~P.ADMINISTRATOR,
): Promise<{ token: string; userId: string; appId: string }> {
  const ctx = t.server.ctx;
  const owner: Actor = { user: (await getUser(ctx, t.world.users[0].id))!, kind: 'user', applicationId: null, scopes: [] };
  const app = await createApplication(ctx, owner, { name });
  const token = await resetBotToken(ctx, app);
  await installBot(ctx, owner, { clientId: app.id, guildId: t.world.guildId, permissions });
  return { token, userId: app.bot_user_id!, appId: app.id };
}

/** `count` distinct 20 ms stereo Opus frames (a sweeping tone), base64. */
export function opusFrames(count: number, seed = 0): string[] {
  const enc = new OpusScript(48000, 2, OpusScript.Application.AUDIO);
  const out: string[] = [];
  let phase = 0;
  for (let f = 0; f < count; f++) {
    const pcm = Buffer.alloc(960 * 4);
    const freq = 200 + ((f * 37 + seed * 101) % 600);
    for (let i = 0; i < 960; i++) {
      phase += (2 * Math.PI * freq) / 48000;
      const v = Math.round(Math.sin(phase) * 9000);
      pcm.writeInt16LE(v, i * 4);
      pcm.writeInt16LE(v, i * 4 + 2);
    }
    out.push(Buffer.from(enc.encode(pcm, 960)).toString('base64'));
  }
  enc.delete();
  return out;
}

/** Opus silence, sent (unencrypted by DAVE) after a stream ends. */
export const SILENCE = Buffer.from([0xf8, 0xff, 0xfe]).toString('base64');

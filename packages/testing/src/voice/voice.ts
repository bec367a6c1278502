import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { pcmFromWav, wavFromPcm } from './pcm.js';
import { serverEntry } from '../server-entry.js';

/** The voice child process (driver.ts), started on first use with the server's local CA trusted. */
export class VoiceDriver {
  private next = 1;
  private readonly pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  private readonly child: ChildProcess;
  readonly ready: Promise<void>;

  constructor(caPath: string) {
    const { tsx } = serverEntry();
    this.child = fork(fileURLToPath(new URL('./driver.ts', import.meta.url)), [], {
      execArgv: ['--import', tsx],
      env: { ...process.env, NODE_EXTRA_CA_CERTS: caPath },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    this.ready = new Promise((resolve, reject) => this.pending.set(0, { resolve: () => resolve(), reject }));
    this.child.on('message', (msg: { id: number; result?: unknown; error?: string }) => {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.error) p.reject(new Error(msg.error));
      else p.resolve(msg.result);
    });
    this.child.on('exit', (code) => {
      for (const p of this.pending.values()) p.reject(new Error(`the voice process exited (${code})`));
      this.pending.clear();
    });
  }

  async call<T = any>(cmd: string, args: Record<string, unknown>, timeoutMs = 30_000): Promise<T> {
    await this.ready;
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`voice: ${cmd} took over ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (v) => (clearTimeout(timer), resolve(v)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      this.child.send({ id, cmd, args });
    });
  }

  close(): void {
    if (this.child.connected) this.child.disconnect();
    this.child.kill();
  }
}

let calls = 0;

/** A person in a voice channel: speak a WAV, and hear what others say as WAV. DAVE end-to-end encryption is on. */
export class VoiceCall {
  private readonly key = `call${++calls}`;

  constructor(private readonly driver: VoiceDriver) {}

  /** @internal */
  async join(gatewayUrl: string, token: string, guildId: string, channelId: string): Promise<this> {
    await this.driver.call('join', { key: this.key, gatewayUrl, token, guildId, channelId, timeoutMs: 20_000 });
    return this;
  }

  /** Speaks a WAV (16-bit, 48 kHz, mono or stereo); resolves once it was sent. */
  async speak(wav: Buffer): Promise<void> {
    const pcm = pcmFromWav(wav);
    await this.driver.call('speak', { key: this.key, pcm: pcm.toString('base64') }, 20_000 + pcm.length / 100);
  }

  /** Starts recording what one person or bot says (a user id, or anything with `id` or `botUserId`). */
  async listen(who: string | { id: string; botUserId?: string }): Promise<void> {
    await this.driver.call('listen', { key: this.key, userId: userIdOf(who) });
  }

  /** What they said since `listen`, as a WAV (48 kHz stereo). */
  async heard(who: string | { id: string; botUserId?: string }): Promise<Buffer> {
    const pcm = await this.driver.call<string>('heard', { key: this.key, userId: userIdOf(who) });
    return wavFromPcm(Buffer.from(pcm, 'base64'));
  }

  async leave(): Promise<void> {
    await this.driver.call('leave', { key: this.key });
  }
}

const userIdOf = (who: string | { id: string; botUserId?: string }) => (typeof who === 'string' ? who : (who.botUserId ?? who.id));

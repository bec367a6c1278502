import { Worker } from 'node:worker_threads';
import { MediaHost, type MediaCommand, type MediaReply } from './host.js';
import type { VoiceFaultTable } from '../../dev/faults/voice.js';
import type { CapturedFrame, MediaEvent, MediaMember, MediaPatch, MediaStats } from './sfu.js';

/** One media host as the gateway sees it: a UDP port that takes commands. */
interface HostHandle {
  port: number;
  members: number;
  send(cmd: MediaCommand): void;
  request(cmd: MediaCommand): Promise<MediaReply>;
  close(): Promise<void>;
}

export interface MediaPlaneOptions {
  /** Worker threads, each with its own UDP port; 0 runs the SFU on the main thread. */
  workers: number;
  bindHost: string;
  /** First UDP port (worker i listens on port + i); 0 picks free ports. */
  port: number;
  onEvent(e: MediaEvent): void;
}

/**
 * The UDP side of voice: media hosts (worker threads, or the main thread) and the placement of rooms on them. All
 * members of a room share a host, since forwarding stays inside one socket; new rooms go to the least loaded host.
 * Hosts start on first use, so a server that never carries voice never spawns a thread.
 */
export class MediaPlane {
  private hosts: HostHandle[] = [];
  private starting: Promise<void> | null = null;
  private readonly roomHost = new Map<string, { host: HostHandle; members: number }>();
  private readonly ssrcHost = new Map<number, { host: HostHandle; room: string }>();
  private faults: VoiceFaultTable = {};

  constructor(private readonly opts: MediaPlaneOptions) {}

  private start(): Promise<void> {
    this.starting ??= (async () => {
      const n = Math.max(0, Math.floor(this.opts.workers));
      if (n === 0) this.hosts = [await inlineHost(this.opts)];
      else this.hosts = await Promise.all(Array.from({ length: n }, (_, i) => workerHost(this.opts, i)));
      if (Object.keys(this.faults).length) for (const h of this.hosts) h.send({ t: 'faults', table: this.faults });
    })();
    return this.starting;
  }

  /** The UDP port serving `room`, starting hosts if needed. */
  async portFor(room: string): Promise<number> {
    await this.start();
    return this.hostFor(room).port;
  }

  private hostFor(room: string): HostHandle {
    const placed = this.roomHost.get(room);
    if (placed) return placed.host;
    return this.hosts.reduce((a, b) => (b.members < a.members ? b : a));
  }

  async add(member: MediaMember): Promise<void> {
    await this.start();
    this.remove(member.ssrc);
    const host = this.hostFor(member.room);
    const placed = this.roomHost.get(member.room) ?? { host, members: 0 };
    placed.members++;
    this.roomHost.set(member.room, placed);
    host.members++;
    this.ssrcHost.set(member.ssrc, { host, room: member.room });
    host.send({ t: 'add', member });
  }

  update(ssrc: number, patch: MediaPatch): void {
    this.ssrcHost.get(ssrc)?.host.send({ t: 'update', ssrc, patch });
  }

  remove(ssrc: number): void {
    const at = this.ssrcHost.get(ssrc);
    if (!at) return;
    this.ssrcHost.delete(ssrc);
    at.host.members--;
    const placed = this.roomHost.get(at.room);
    if (placed && --placed.members <= 0) this.roomHost.delete(at.room);
    at.host.send({ t: 'remove', ssrc });
  }

  /** Dev faults (--dev): loss and jitter per user, kept for hosts that start later. */
  setFaults(table: VoiceFaultTable): void {
    this.faults = table;
    for (const h of this.hosts) h.send({ t: 'faults', table });
  }

  /** Test and dev hook: record what the server sees of each forwarded packet (after transport decryption). */
  async setCapture(on: boolean): Promise<void> {
    await this.start();
    await Promise.all(this.hosts.map((h) => h.request({ t: 'capture', on })));
  }

  async takeCaptured(): Promise<CapturedFrame[]> {
    const parts = await Promise.all(this.hosts.map((h) => h.request({ t: 'take' })));
    return (parts as CapturedFrame[][]).flat().map((f) => ({ ...f, payload: Buffer.from(f.payload) }));
  }

  async stats(): Promise<MediaStats[]> {
    return (await Promise.all(this.hosts.map((h) => h.request({ t: 'stats' })))) as MediaStats[];
  }

  get ports(): number[] {
    return this.hosts.map((h) => h.port);
  }

  async close(): Promise<void> {
    if (this.starting) await this.starting.catch(() => {});
    await Promise.all(this.hosts.map((h) => h.close()));
    this.hosts = [];
  }
}

async function inlineHost(opts: MediaPlaneOptions): Promise<HostHandle> {
  const host = new MediaHost((e) => {
    if (e.type !== 'listening') opts.onEvent(e);
  });
  const port = await host.listen(opts.bindHost, opts.port);
  return {
    port,
    members: 0,
    send: (cmd) => void host.command(cmd),
    request: async (cmd) => host.command(cmd),
    close: async () => host.close(),
  };
}

const ENTRY = new URL(import.meta.url.endsWith('.ts') ? './worker.ts' : './worker.js', import.meta.url).href;
const BOOT = new URL('./boot.mjs', import.meta.url);

function workerHost(opts: MediaPlaneOptions, index: number): Promise<HostHandle> {
  const worker = new Worker(BOOT, { workerData: { entry: ENTRY, host: opts.bindHost, port: opts.port ? opts.port + index : 0 } });
  const pending = new Map<number, (r: MediaReply) => void>();
  let nextId = 1;
  return new Promise((resolve, reject) => {
    let handle: HostHandle | null = null;
    worker.on('message', (msg: { event?: MediaEvent; id?: number; result?: MediaReply; error?: string }) => {
      if (msg.error) return reject(new Error(`voice media worker: ${msg.error}`));
      if (msg.id !== undefined) {
        pending.get(msg.id)?.(msg.result ?? null);
        pending.delete(msg.id);
        return;
      }
      if (!msg.event) return;
      if (msg.event.type === 'listening') {
        handle = {
          port: msg.event.port,
          members: 0,
          send: (cmd) => worker.postMessage({ cmd }),
          request: (cmd) =>
            new Promise((res) => {
              const id = nextId++;
              pending.set(id, res);
              worker.postMessage({ id, cmd });
            }),
          close: () =>
            new Promise<void>((res) => {
              worker.once('exit', () => res());
              worker.postMessage({ close: true });
              setTimeout(() => void worker.terminate(), 1000).unref();
            }),
        };
        return resolve(handle);
      }
      opts.onEvent(msg.event);
    });
    worker.on('error', (err) => {
      console.error('[voice] media worker failed', err);
      reject(err);
    });
    worker.unref();
  });
}

import path from 'node:path';
import { request, type RequestOptions } from './api.js';
import { VoiceDriver } from './voice/voice.js';
import { AppWatch, Clock, DevApi, Faults } from './dev.js';
import { buildWorld, type World, type WorldSpec } from './world.js';

/** A world snapshot: every table's rows, the clock and the newest id (the server's store/snapshot.ts). */
export interface WorldSnapshot {
  format: 'accord-world';
  version: 1;
  clock: number;
  last_id: string | null;
  tables: Record<string, Record<string, unknown>[]>;
}

/** A running Accord: its URLs, a world builder, the clock, the inspector and faults (dev mode). */
export class Accord {
  /** `http://127.0.0.1:<port>/api/v10`, what libraries take as their API base. */
  readonly api: string;
  readonly dev: DevApi;
  readonly clock: Clock;
  readonly faults: Faults;
  private readonly watches: AppWatch[] = [];
  private readonly worlds: World[] = [];
  private readonly onCloses: (() => unknown)[] = [];
  private closed = false;
  private voice: VoiceDriver | null = null;

  /** `dataDir`: the server's, where its local CA (which the voice gateway's certificate comes from) is kept. */
  constructor(
    readonly url: string,
    devToken: string,
    private readonly stop: () => Promise<void>,
    private readonly dataDir: string,
  ) {
    this.api = `${url}/api/v10`;
    this.dev = new DevApi(url, devToken);
    this.clock = new Clock(this.dev);
    this.faults = new Faults(this.dev);
  }

  /** The Gateway URL clients connect to (`ws://…` or `wss://…`). */
  get gatewayUrl(): string {
    return this.url.replace(/^http/, 'ws');
  }

  /** Calls the API (`/api/v10` + path) with the given Authorization. */
  request<T = any>(path: string, opts?: RequestOptions): Promise<T> {
    return request<T>(this.api, path, opts);
  }

  /** People, a guild with channels and roles, and apps installed in it, in one call. */
  async world(spec?: WorldSpec): Promise<World> {
    const w = await buildWorld(this.api, this.gatewayUrl, spec, this.worlds.length + 1);
    for (const p of Object.values(w.people)) p.voiceDriver = () => (this.voice ??= new VoiceDriver(path.join(this.dataDir, 'voice-tls', 'ca.pem')));
    this.worlds.push(w);
    return w;
  }

  /** The whole world as JSON, as `--export-on-exit` writes it and `startAccord({ import })` reads it. */
  snapshot(): Promise<WorldSnapshot> {
    return this.dev.call<WorldSnapshot>('/snapshot');
  }

  /** Watches one app from now on (and its recent past): its Gateway dispatches and API requests. */
  watch(app: { id: string } | string): AppWatch {
    const w = new AppWatch(this.dev, typeof app === 'string' ? app : app.id);
    this.watches.push(w);
    return w;
  }

  /**
   * Runs `fn` when Accord closes, before the server stops, the last registered first: stop your bot here, or it keeps
   * reconnecting to a server that is gone and the test file never ends.
   */
  onClose(fn: () => unknown): void {
    this.onCloses.push(fn);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const fn of this.onCloses.reverse()) await fn();
    this.clock.stop();
    this.voice?.close();
    for (const w of this.watches) w.close();
    for (const world of this.worlds) for (const p of Object.values(world.people)) p.gateway.close();
    await this.stop();
  }
}

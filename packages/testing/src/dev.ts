import { request } from './api.js';
import { toMs, type Duration } from './duration.js';
import { Arrivals } from './waiter.js';
import { ClockScheduler } from './scheduler.js';

/** The dev routes (`/__dev/…`) with the server's dev token. */
export class DevApi {
  constructor(
    private readonly url: string,
    readonly token: string,
  ) {}

  call<T = any>(path: string, method = 'GET', body?: unknown): Promise<T> {
    return request<T>(this.url, `/__dev${path}`, { method, body, headers: { 'x-accord-dev-token': this.token } });
  }

  /** The inspector's entries of one application: its backlog, then live ones, as server-sent events. */
  async stream(applicationId: string, onEntry: (e: InspectorEntry) => void, signal: AbortSignal): Promise<void> {
    const res = await fetch(`${this.url}/__dev/inspector/stream?application_id=${applicationId}&backlog=1000`, {
      headers: { 'x-accord-dev-token': this.token },
      signal,
    });
    if (!res.ok || !res.body) throw new Error(`the inspector stream answered ${res.status}`);
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (\w+)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event === 'entry' && data) onEntry(JSON.parse(data));
        if (event === 'ready') onEntry({ kind: 'ready' } as unknown as InspectorEntry);
      }
    }
  }
}

export interface InspectorEntry {
  kind: 'http' | 'gateway';
  id: number;
  at: string;
  /** http */ method?: string;
  /** http */ route?: string;
  /** http */ path?: string;
  /** http */ status?: number;
  /** http */ via?: 'bot' | 'bearer' | 'interaction' | 'webhook';
  /** gateway */ t?: string;
  /** gateway */ d?: any;
}

/** The server's clock, which dev mode lets a test move (timers, expiries, reminders due "in 30 minutes"). */
export class Clock {
  private readonly schedulers: ClockScheduler[] = [];

  constructor(private readonly dev: DevApi) {}

  /** A scheduler on this clock for the bot under test (`now`, `schedule`); moving the clock runs its due jobs. */
  async scheduler(): Promise<ClockScheduler> {
    const s = new ClockScheduler((await this.now()).getTime() - Date.now());
    this.schedulers.push(s);
    return s;
  }

  /** @internal */
  stop(): void {
    for (const s of this.schedulers) s.stop();
  }

  private async moved(now: Date): Promise<Date> {
    for (const s of this.schedulers) await s.moved(now.getTime());
    return now;
  }

  async now(): Promise<Date> {
    return new Date((await this.dev.call<{ now: string }>('/clock')).now);
  }

  /** Moves the clock forward, `advance('30m')`, and runs what the schedulers have due. */
  async advance(by: Duration): Promise<Date> {
    return this.moved(new Date((await this.dev.call<{ now: string }>('/clock', 'POST', { advance_ms: toMs(by) })).now));
  }

  async set(to: Date | string | number): Promise<Date> {
    const at = to instanceof Date ? to.toISOString() : typeof to === 'number' ? to : new Date(to).toISOString();
    return this.moved(new Date((await this.dev.call<{ now: string }>('/clock', 'POST', { set: at })).now));
  }
}

/** What one application did (its API requests) and received (its Gateway dispatches), from the dev inspector. */
export class AppWatch {
  readonly events = new Arrivals<InspectorEntry>((e) => (e.kind === 'http' ? `${e.method} ${e.path} → ${e.status}` : `${e.t}`));
  private readonly abort = new AbortController();
  readonly ready: Promise<void>;

  constructor(
    dev: DevApi,
    readonly applicationId: string,
  ) {
    let ready!: () => void;
    this.ready = new Promise((r) => (ready = r));
    dev.stream(applicationId, (e) => ((e.kind as string) === 'ready' ? ready() : this.events.push(e)), this.abort.signal).catch(() => ready());
  }

  /** The next Gateway dispatch of this type to the app (one that came earlier and was not taken counts). */
  async next(t: string, match: (d: any) => boolean = () => true, timeout: Duration = '5s'): Promise<any> {
    await this.ready;
    return (await this.events.next(`${t} to the app`, (e) => e.kind === 'gateway' && e.t === t && match(e.d), timeout)).d;
  }

  /** The app's next API request that matches (one made earlier and not taken counts). */
  async nextRequest(filter: { method?: string; route?: string } = {}, timeout: Duration = '5s'): Promise<InspectorEntry> {
    await this.ready;
    return this.events.next(
      `${filter.method ?? 'a'} request${filter.route ? ` to ${filter.route}` : ''} by the app`,
      (e) => e.kind === 'http' && (!filter.method || e.method === filter.method) && (!filter.route || e.route === filter.route),
      timeout,
    );
  }

  /** The app's API requests so far. */
  async requests(filter: { method?: string; route?: string } = {}): Promise<InspectorEntry[]> {
    await this.ready;
    return this.events.all().filter((e) => e.kind === 'http' && (!filter.method || e.method === filter.method) && (!filter.route || e.route === filter.route));
  }

  close(): void {
    this.abort.abort();
  }
}

/** Faults scoped to one application (dev mode), e.g. `faults.add(app, 'http', { status: 429, retry_after: 2 })`. */
export class Faults {
  constructor(private readonly dev: DevApi) {}

  add(applicationId: string, kind: string, params: Record<string, unknown> = {}): Promise<{ id: string; [k: string]: unknown }> {
    return this.dev.call('/faults', 'POST', { application_id: applicationId, kind, ...params });
  }

  list(applicationId?: string): Promise<unknown[]> {
    return this.dev.call(`/faults${applicationId ? `?application_id=${applicationId}` : ''}`);
  }

  async remove(id: string): Promise<void> {
    await this.dev.call(`/faults/${id}`, 'DELETE');
  }

  async clear(applicationId: string): Promise<void> {
    await this.dev.call(`/faults?application_id=${applicationId}`, 'DELETE');
  }
}

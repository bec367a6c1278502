import crypto from 'node:crypto';
import type { Redis } from 'ioredis';
import { connectRedis } from '../store/redis.js';
import type { BusEvent, EventBus, SubscribeOptions, Topic } from './bus.js';
import { deliver } from './in-process.js';

/** The channel every process listens on: control events (`__…`) and events with no guild or user to route by. */
const ALL = 'all';

/**
 * Where an event travels between processes: its users' channels and its guild's channel, or the channel every
 * process hears. A process subscribes only to the guilds and users its sessions and caches need.
 */
export function channelsFor(e: BusEvent): string[] {
  if (e.t.startsWith('__')) return [ALL];
  const out: string[] = [];
  if (e.user_ids) for (const u of e.user_ids) out.push(`user:${u}`);
  if (e.guild_id) out.push(`guild:${e.guild_id}`);
  return out.length ? out : [ALL];
}

/** What travels: the publishing process, its sequence number (to drop copies that came on two channels) and the event. */
interface Envelope {
  o: string;
  s: number;
  e: BusEvent;
}

/**
 * The distributed bus on Redis pub/sub. Publishing delivers to this process's handlers at once (as the embedded bus
 * does) and to the channels of the event; events of other processes reach only `remote` handlers. One publishing
 * connection keeps a process's events in order, so a copy of an event that came on a second channel is recognised
 * by its sequence number not being past the last one seen from that process.
 */
export class RedisBus implements EventBus {
  private local: ((e: BusEvent) => void)[] = [];
  private remote: ((e: BusEvent) => void)[] = [];
  private readonly origin = crypto.randomBytes(8).toString('hex');
  private seq = 0;
  private readonly lastSeen = new Map<string, number>();
  private readonly watched = new Map<string, { refs: number; ready: Promise<void> }>();
  private closed = false;

  private constructor(private readonly pub: Redis, private readonly sub: Redis, private readonly prefix: string) {
    sub.on('message', (channel: string, text: string) => this.receive(text));
  }

  /** Connects and listens on the channel every process hears. */
  static async connect(url: string, prefix: string): Promise<RedisBus> {
    const bus = new RedisBus(await connectRedis(url, 'accord-bus-pub'), await connectRedis(url, 'accord-bus-sub'), prefix);
    await bus.sub.subscribe(bus.channel(ALL));
    return bus;
  }

  publish(event: BusEvent): void {
    deliver(this.local, event);
    if (this.closed) return;
    const text = JSON.stringify({ o: this.origin, s: ++this.seq, e: event } satisfies Envelope);
    const channels = channelsFor(event);
    if (channels.length === 1) void this.pub.publish(this.channel(channels[0]), text).catch(report);
    else {
      const p = this.pub.pipeline();
      for (const c of channels) p.publish(this.channel(c), text);
      void p.exec().catch(report);
    }
  }

  subscribe(handler: (e: BusEvent) => void, opts: SubscribeOptions = {}): () => void {
    this.local.push(handler);
    if (opts.remote) this.remote.push(handler);
    return () => {
      this.local = this.local.filter((h) => h !== handler);
      this.remote = this.remote.filter((h) => h !== handler);
    };
  }

  watch(topic: Topic): Promise<void> {
    const w = this.watched.get(topic);
    if (w) {
      w.refs++;
      return w.ready;
    }
    const ready = this.closed ? Promise.resolve() : this.sub.subscribe(this.channel(topic)).then(() => undefined, report);
    this.watched.set(topic, { refs: 1, ready });
    return ready;
  }

  unwatch(topic: Topic): void {
    const w = this.watched.get(topic);
    if (!w || --w.refs > 0) return;
    this.watched.delete(topic);
    if (!this.closed) void this.sub.unsubscribe(this.channel(topic)).catch(report);
  }

  /** Topics this process listens to now (tests, diagnostics). */
  topics(): string[] {
    return [...this.watched.keys()];
  }

  async close(): Promise<void> {
    this.closed = true;
    this.local = [];
    this.remote = [];
    await Promise.allSettled([this.sub.quit(), this.pub.quit()]);
  }

  private channel(name: string): string {
    return `${this.prefix}bus:${name}`;
  }

  private receive(text: string): void {
    let env: Envelope;
    try {
      env = JSON.parse(text);
    } catch {
      return;
    }
    if (env.o === this.origin) return; // delivered locally when published
    const last = this.lastSeen.get(env.o) ?? 0;
    if (env.s <= last) return; // the same event on a second channel
    this.lastSeen.set(env.o, env.s);
    deliver(this.remote, env.e);
  }
}

const report = (err: unknown) => console.error('[bus] redis', err);

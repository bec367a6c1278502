import crypto from 'node:crypto';
import type { Redis } from 'ioredis';
import { closeRedis, connectRedis } from '../store/redis.js';
import type { DependencyHealth } from '../store/health.js';
import { DependencyUnavailable, isUnavailable } from '../core/errors.js';
import type { BusEvent, EventBus, SubscribeOptions, Topic } from './bus.js';
import { deliver } from './in-process.js';

/** The channel every process listens on: control events (`__…`) and events with no guild or user to route by. */
const ALL = 'all';

/** Events kept per guild or user stream for resumes on another node (approximate trim), and how long a quiet stream lives. */
const STREAM_MAXLEN = 20_000;

/**
 * A guild's message traffic: most of its events, and only Gateway sessions need them from other processes (no cache
 * of the guild's state changes with them). They travel on a channel of their own, so a process that watches a guild
 * for its caches alone does not receive them.
 */
const TRAFFIC = /^(MESSAGE_|TYPING_START$)/;

/** Where an event travels: the stream it is kept in for resumes (none for control events), and the channel it is sent on. */
interface Route {
  stream: string | null;
  channel: string;
}

/**
 * Where an event travels between processes: its users' channels, and its guild's channel (the traffic channel for
 * message traffic), or the channel every process hears. A process subscribes only to what its sessions and caches need.
 */
export function routesFor(e: BusEvent): Route[] {
  if (e.t.startsWith('__')) return [{ stream: null, channel: ALL }];
  const out: Route[] = [];
  if (e.user_ids) for (const u of e.user_ids) out.push({ stream: `user:${u}`, channel: `user:${u}` });
  if (e.guild_id) out.push({ stream: `guild:${e.guild_id}`, channel: TRAFFIC.test(e.t) ? `guild:${e.guild_id}:traffic` : `guild:${e.guild_id}` });
  return out.length ? out : [{ stream: null, channel: ALL }];
}

/** The channels a topic's watcher subscribes to. */
function channelsOf(topic: Topic): string[] {
  if (topic.startsWith('guild-changes:')) return [`guild:${topic.slice('guild-changes:'.length)}`];
  if (topic.startsWith('guild:')) return [topic, `${topic}:traffic`];
  return [topic];
}

/**
 * The events of one event-loop turn, published in one call, each atomically: the next number of the deployment's
 * order, the event appended under that number to the stream of each of its topics (kept for resumes), then sent on
 * each topic's channel as "<g>|<envelope>". Redis runs scripts one at a time and a subscriber connection receives
 * messages in publish order, so every node sees events in increasing g. A counter that is missing (a new deployment,
 * or a Redis that lost its data) starts at Redis's clock in microseconds, so numbers keep increasing across a data loss
 * unless the deployment published over a million events a second on average since its counter started.
 * KEYS: the counter, then each event's (stream, channel) pairs and plain channels. ARGV: the streams' MAXLEN and TTL,
 * then 4 per event: its envelope, its number of pairs and of plain channels, and the key of an event published at most
 * once (`once`) or ''. Returns each event's number, 0 for one whose `once` key was taken already.
 */
const PUBLISH_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then
  local t = redis.call('TIME')
  redis.call('SET', KEYS[1], t[1] .. string.format('%06d', tonumber(t[2])))
end
local out = {}
local expiring = {}
local k = 2
for a = 3, #ARGV, 4 do
  local np, nplain, once = tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2]), ARGV[a + 3]
  if once ~= '' and not redis.call('SET', once, '1', 'NX', 'PX', ARGV[2]) then
    out[#out + 1] = 0
  else
    local g = redis.call('INCR', KEYS[1])
    -- Past 10^14, Lua would write the number in exponent form.
    local gs = string.format('%.0f', g)
    local msg = gs .. '|' .. ARGV[a]
    for i = 0, np - 1 do
      local stream = KEYS[k + i * 2]
      redis.call('XADD', stream, 'MAXLEN', '~', ARGV[1], gs .. '-0', 'e', ARGV[a])
      -- Once a call per stream: an XADD keeps the stream's time to live.
      if not expiring[stream] then
        redis.call('PEXPIRE', stream, ARGV[2])
        expiring[stream] = true
      end
      redis.call('PUBLISH', KEYS[k + i * 2 + 1], msg)
    end
    for i = k + np * 2, k + np * 2 + nplain - 1 do redis.call('PUBLISH', KEYS[i], msg) end
    out[#out + 1] = g
  end
  k = k + np * 2 + nplain
end
return out
`;

/** Events per publish call at most: a script blocks Redis while it runs. */
const MAX_PER_CALL = 500;

/** An event waiting for its turn's publish call: its keys after the counter, its values, and its promise's ends. */
interface Outgoing {
  keys: string[];
  pairs: number;
  text: string;
  once: string;
  done(g: number): void;
  fail(err: unknown): void;
}

/** One turn's publishing: the number of its last event, and the outcome of its publish calls once they are made. */
interface Turn {
  last: number;
  done: Promise<void>;
  settle(calls: Promise<unknown>): void;
}

/** What travels: the publishing process, its number for the event (`sent`), and the event. */
interface Envelope {
  o: string;
  n?: number;
  e: BusEvent;
}

/** Own events kept for their echo at most (a process hears back only the topics it watches). */
const MAX_SENT = 10_000;

/** One stored event of a topic's stream. */
export interface StoredEvent {
  g: number;
  e: BusEvent;
}

type RedisWithPublish = Redis & { accordPublish(numKeys: number, ...args: (string | number)[]): Promise<number[]> };

/**
 * The distributed bus on Redis pub/sub, with each guild's and user's events also kept in a Redis stream for the
 * resume window. Publishing delivers to this process's handlers at once (as the embedded bus does); events of other
 * processes reach `remote` handlers, and every event, in the deployment's order, reaches `ordered` handlers (the
 * Gateway). An event that came on two channels is recognised by its number not being past the last one seen.
 */
export class RedisBus implements EventBus {
  private local: ((e: BusEvent) => void)[] = [];
  private remote: ((e: BusEvent) => void)[] = [];
  private ordered: ((e: BusEvent) => void)[] = [];
  private readonly origin = crypto.randomBytes(8).toString('hex');
  private lastG = 0;
  private readonly watched = new Map<string, { refs: number; ready: Promise<void> }>();
  private closed = false;
  /**
   * This process's events on their way, by their number in it: when one comes back from Redis for the `ordered`
   * handlers, it is taken from here instead of parsed again (the head of its envelope tells it is ours).
   */
  private readonly sent = new Map<number, BusEvent>();
  private sentSeq = 0;
  /** Events published this turn, sent together when it ends. */
  private outgoing: Outgoing[] = [];
  /** Turns whose publish calls Redis has not answered yet, oldest first: the number of each one's last event. */
  private unsettled: Turn[] = [];
  /** The number of the last event of the newest turn that failed: an answer waiting on it or an earlier one fails. */
  private failedThrough = 0;
  private readonly ownHead: string;

  private constructor(
    private readonly pub: RedisWithPublish,
    private readonly sub: Redis,
    private readonly prefix: string,
    private readonly streamTtlMs: number,
  ) {
    sub.on('message', (_channel: string, text: string) => this.receive(text));
    this.ownHead = `{"o":"${this.origin}","n":`;
    // Back from an outage: ioredis resubscribes what it had; topics watched while Redis was away are subscribed now.
    sub.on('ready', () => {
      if (!this.closed && this.watched.size) void sub.subscribe(...[...this.watched.keys()].map((t) => this.channel(t))).catch(report);
    });
  }

  /** Connects and listens on the channel every process hears. `streamTtlMs`: how long a quiet topic's stream is kept. */
  static async connect(url: string, prefix: string, streamTtlMs = 600_000, health?: DependencyHealth): Promise<RedisBus> {
    const pub = await connectRedis(url, 'accord-bus-pub', health);
    pub.defineCommand('accordPublish', { lua: PUBLISH_SCRIPT });
    const bus = new RedisBus(pub as RedisWithPublish, await connectRedis(url, 'accord-bus-sub', health), prefix, streamTtlMs);
    await bus.sub.subscribe(bus.channel(ALL));
    return bus;
  }

  publish(event: BusEvent): void {
    deliver(this.local, event);
    if (!this.closed) void this.send(event).catch(report);
  }

  republish(event: BusEvent & { once: string }): void {
    if (this.closed) return;
    this.send(event).then((g) => g && deliver(this.local, event), report);
  }

  /** Numbers, stores and sends an event; resolves with its number, or 0 when its `once` key was taken. */
  private send(event: BusEvent): Promise<number> {
    const n = ++this.sentSeq;
    const text = JSON.stringify({ o: this.origin, n, e: event } satisfies Envelope);
    if (this.ordered.length) {
      this.sent.set(n, event);
      if (this.sent.size > MAX_SENT) this.sent.delete(this.sent.keys().next().value!);
    }
    const routes = routesFor(event);
    const stored = routes.filter((r) => r.stream !== null);
    const keys = [
      ...stored.flatMap((r) => [this.key(`stream:${r.stream}`), this.channel(r.channel)]),
      ...routes.filter((r) => r.stream === null).map((r) => this.channel(r.channel)),
    ];
    const once = event.once ? this.key(`once:${event.once}`) : '';
    return new Promise((done, fail) => {
      if (this.outgoing.push({ keys, pairs: stored.length, text, once, done, fail }) === 1) {
        this.unsettled.push(newTurn());
        setImmediate(() => this.flush());
      }
      this.unsettled[this.unsettled.length - 1].last = n;
    });
  }

  mark(): number {
    return this.sentSeq;
  }

  async settled(mark: number): Promise<void> {
    if (this.failedThrough > mark) throw new DependencyUnavailable('redis');
    await Promise.all(this.unsettled.filter((t) => t.last > mark).map((t) => t.done));
  }

  /** Publishes the turn's events: one script call (a round trip and a socket write) for all of them. */
  private flush(): void {
    const events = this.outgoing;
    if (!events.length) return;
    this.outgoing = [];
    const turn = this.unsettled[this.unsettled.length - 1];
    const calls: Promise<unknown>[] = [];
    for (let i = 0; i < events.length; i += MAX_PER_CALL) {
      const part = events.slice(i, i + MAX_PER_CALL);
      const keys = [this.key('g')];
      const args: (string | number)[] = [STREAM_MAXLEN, this.streamTtlMs];
      for (const o of part) {
        keys.push(...o.keys);
        args.push(o.text, o.pairs, o.keys.length - o.pairs * 2, o.once);
      }
      const call = this.pub.accordPublish(keys.length, ...keys, ...args);
      call.then(
        (gs) => part.forEach((o, j) => o.done(Number(gs[j]))),
        (err) => part.forEach((o) => o.fail(err)),
      );
      calls.push(call);
    }
    turn.settle(Promise.all(calls));
    const forget = () => (this.unsettled = this.unsettled.filter((t) => t !== turn));
    turn.done.then(forget, () => {
      this.failedThrough = Math.max(this.failedThrough, turn.last);
      forget();
    });
  }

  subscribe(handler: (e: BusEvent) => void, opts: SubscribeOptions = {}): () => void {
    if (opts.ordered) this.ordered.push(handler);
    else {
      this.local.push(handler);
      if (opts.remote) this.remote.push(handler);
    }
    return () => {
      this.local = this.local.filter((h) => h !== handler);
      this.remote = this.remote.filter((h) => h !== handler);
      this.ordered = this.ordered.filter((h) => h !== handler);
    };
  }

  watch(topic: Topic): Promise<void> {
    return Promise.all(channelsOf(topic).map((c) => this.watchChannel(c))).then(() => undefined);
  }

  unwatch(topic: Topic): void {
    for (const c of channelsOf(topic)) this.unwatchChannel(c);
  }

  private watchChannel(channel: string): Promise<void> {
    const w = this.watched.get(channel);
    if (w) {
      w.refs++;
      return w.ready;
    }
    const ready = this.closed ? Promise.resolve() : this.sub.subscribe(this.channel(channel)).then(() => undefined, report);
    this.watched.set(channel, { refs: 1, ready });
    return ready;
  }

  private unwatchChannel(channel: string): void {
    const w = this.watched.get(channel);
    if (!w || --w.refs > 0) return;
    this.watched.delete(channel);
    if (!this.closed) void this.sub.unsubscribe(this.channel(channel)).catch(report);
  }

  /** Channels this process listens to now (tests, diagnostics). */
  topics(): string[] {
    return [...this.watched.keys()];
  }

  /** The number of the last event published in the deployment: a session that starts now is past it. */
  async position(): Promise<number> {
    return Number((await this.pub.get(this.key('g'))) ?? 0);
  }

  /**
   * A topic's stored events after number `after`, in order; null when some of them are no longer kept (trimmed),
   * so a resume from there cannot be served.
   */
  async eventsAfter(topic: Topic, after: number): Promise<StoredEvent[] | null> {
    const key = this.key(`stream:${topic}`);
    const [entries, info] = await Promise.all([
      this.pub.xrange(key, `(${after}-0`, '+'),
      this.pub.call('XINFO', 'STREAM', key).catch(() => null) as Promise<unknown[] | null>,
    ]);
    if (info) {
      const i = info.indexOf('max-deleted-entry-id');
      const deleted = i >= 0 ? Number(String(info[i + 1]).split('-')[0]) : 0;
      if (deleted > after) return null;
    }
    const out: StoredEvent[] = [];
    for (const [id, fields] of entries) out.push({ g: Number(id.split('-')[0]), e: (JSON.parse(fields[1]) as Envelope).e });
    return out;
  }

  async close(): Promise<void> {
    this.flush(); // this turn's events go out before the connection's QUIT
    this.closed = true;
    this.local = [];
    this.remote = [];
    this.ordered = [];
    await Promise.all([closeRedis(this.sub), closeRedis(this.pub)]);
  }

  private key(name: string): string {
    return `${this.prefix}${name}`;
  }

  private channel(name: string): string {
    return `${this.prefix}bus:${name}`;
  }

  private receive(text: string): void {
    const bar = text.indexOf('|');
    const g = Number(text.slice(0, bar));
    if (!(g > this.lastG)) return; // the same event on a second channel
    this.lastG = g;
    if (text.startsWith(this.ownHead, bar + 1)) {
      // Ours: delivered to local handlers when published; the ordered ones get the event as it was sent. Our events
      // come back in the order we sent them, so those before it that did not come back never will.
      const from = bar + 1 + this.ownHead.length;
      const n = Number(text.slice(from, text.indexOf(',', from)));
      let e = this.sent.get(n);
      for (const k of this.sent.keys()) {
        if (k > n) break;
        this.sent.delete(k);
      }
      if (!this.ordered.length) return;
      if (!e) {
        try {
          e = (JSON.parse(text.slice(bar + 1)) as Envelope).e;
        } catch {
          return;
        }
      }
      deliver(this.ordered, { ...e, g });
      return;
    }
    let env: Envelope;
    try {
      env = JSON.parse(text.slice(bar + 1));
    } catch {
      return;
    }
    if (env.o !== this.origin) deliver(this.remote, env.e); // this process's own were delivered when published
    if (this.ordered.length) deliver(this.ordered, { ...env.e, g });
  }
}

/** A turn whose publish calls are not made yet: `done` follows them once `settle` hands them over. */
function newTurn(): Turn {
  let settle!: (calls: Promise<unknown>) => void;
  const done = new Promise<void>((resolve, reject) => {
    settle = (calls) =>
      calls.then(
        () => resolve(),
        (err) => reject(isUnavailable(err) ? new DependencyUnavailable('redis', err) : err),
      );
  });
  return { last: 0, done, settle };
}

/** Failures while Redis is away are the outage store/health.ts already reported: not one line per event. */
const report = (err: unknown) => {
  if (!isUnavailable(err)) console.error('[bus] redis', err);
};

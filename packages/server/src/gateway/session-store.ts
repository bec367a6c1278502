import type { Redis } from 'ioredis';
import type { RedisBus, StoredEvent } from '../bus/redis.js';
import type { Topic } from '../bus/bus.js';
import type { FrameNote, Session, SessionRecorder } from './session.js';
import { presenceFollows } from './presence-fanout.js';
import { isUnavailable } from '../core/errors.js';

/** What identifies and routes a session, enough to rebuild it on another node. */
export interface SessionMeta {
  userId: string;
  tokenHash: string;
  intents: number;
  shard: [number, number];
  capabilities: number;
  largeThreshold: number;
}

/** A point a session can be rebuilt from: its seq and bus position then, and its guilds. */
export interface Checkpoint {
  seq: number;
  g: number;
  guilds: string[];
  /** The presences it followed then (large guilds, op 8), when any. */
  follows?: ReturnType<typeof presenceFollows>;
}

/** A frame sent outside the bus's order, with the bus position it was sent at. */
export interface DirectFrame {
  seq: number;
  g: number;
  t: string;
  /** The payload, or '' for a GUILD_CREATE kept as its guild's id (large, and built again from the store). */
  d: string;
  guild?: string;
  follows?: FrameNote['follows'];
}

/** The newest checkpoint a client holding frames up to `seq` can be rebuilt from. */
export function checkpointFor(stored: StoredSession, seq: number): Checkpoint | undefined {
  return [...stored.checkpoints].reverse().find((c) => c.seq <= seq);
}

export interface StoredSession {
  meta: SessionMeta;
  checkpoints: Checkpoint[];
  direct: DirectFrame[];
}

/**
 * Distributed mode: what another node needs to resume a session, in Redis, and nothing per bus event. Each session
 * keeps its checkpoints (moved forward as the client acknowledges frames in heartbeats) and the frames that did not
 * come from the bus (READY, GUILD_CREATE at start, replies to commands), dropped once acknowledged. The events
 * themselves are stored once, in the bus's per-guild and per-user streams.
 */
/** How often a session that was sent frames gets a new checkpoint, acknowledged or not: what a rebuild replays at most. */
const CHECKPOINT_EVERY_MS = 5_000;

export class RedisSessionStore implements SessionRecorder {
  /** Per session of this node: its checkpoints and the seqs of its kept direct frames, mirrored from Redis. */
  private readonly local = new Map<string, { s: Session; checkpoints: Checkpoint[]; direct: number[] }>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly redis: Redis,
    readonly bus: RedisBus,
    private readonly prefix: string,
    private readonly ttlMs: number,
  ) {
    this.timer = setInterval(() => this.checkpointAll(), CHECKPOINT_EVERY_MS);
    this.timer.unref();
  }

  /**
   * A checkpoint for every session that was sent frames since its last one. A client resumes from the newest
   * checkpoint at or before the seq it holds, so between heartbeats a rebuild replays a few seconds, not the whole
   * interval (or, before the first heartbeat, everything since Identify).
   */
  private checkpointAll(): void {
    const m = this.redis.pipeline();
    let n = 0;
    for (const [id, st] of this.local) {
      const last = st.checkpoints[st.checkpoints.length - 1];
      if (st.s.dead || st.s.seq === last.seq) continue;
      st.checkpoints.push(this.current(st.s));
      m.hset(this.key(id), 'ck', JSON.stringify(st.checkpoints));
      n++;
    }
    if (n) m.exec().catch(report);
  }

  private current(s: Session): Checkpoint {
    const follows = presenceFollows(s);
    return { seq: s.seq, g: s.lastG, guilds: [...s.guildIds], ...(follows.length ? { follows } : {}) };
  }

  /** Stops the periodic checkpoints (the node is closing). */
  close(): void {
    clearInterval(this.timer);
  }

  /** A session identified here: from now on this node writes its record, from its state now. */
  start(s: Session): void {
    const checkpoint = this.current(s);
    const meta: SessionMeta = {
      userId: s.userId,
      tokenHash: s.tokenHash,
      intents: s.intents,
      shard: s.shard,
      capabilities: s.capabilities,
      largeThreshold: s.largeThreshold,
    };
    this.local.set(s.id, { s, checkpoints: [checkpoint], direct: [] });
    const key = this.key(s.id);
    this.redis
      .multi()
      .hset(key, 'meta', JSON.stringify(meta), 'ck', JSON.stringify([checkpoint]))
      .pexpire(key, this.ttlMs)
      .exec()
      .catch(report);
    s.recorder = this;
  }

  direct(s: Session, seq: number, t: string, d: string, note: FrameNote = {}): void {
    const st = this.local.get(s.id);
    if (!st) return;
    st.direct.push(seq);
    const list = this.key(s.id, 'direct');
    const frame: DirectFrame = note.guildCreate ? { seq, g: s.lastG, t, d: '', guild: note.guildCreate } : { seq, g: s.lastG, t, d, follows: note.follows };
    this.redis.multi().rpush(list, JSON.stringify(frame)).pexpire(list, this.ttlMs).exec().catch(report);
  }

  /**
   * The client holds every frame up to `seq`: the current state becomes a checkpoint, and the newest checkpoint at or
   * before `seq` is the oldest one kept (a resume never starts earlier), with the direct frames after it.
   */
  acknowledged(s: Session, seq: number): void {
    const st = this.local.get(s.id);
    if (!st) return;
    st.checkpoints.push(this.current(s));
    let base = 0;
    for (let i = 0; i < st.checkpoints.length; i++) if (st.checkpoints[i].seq <= seq) base = i;
    st.checkpoints.splice(0, base);
    let drop = 0;
    while (drop < st.direct.length && st.direct[drop] <= st.checkpoints[0].seq) drop++;
    st.direct.splice(0, drop);
    const key = this.key(s.id);
    const list = this.key(s.id, 'direct');
    const m = this.redis.multi().hset(key, 'ck', JSON.stringify(st.checkpoints)).pexpire(key, this.ttlMs);
    if (drop) m.ltrim(list, drop, -1);
    m.pexpire(list, this.ttlMs).exec().catch(report);
  }

  /** A session rebuilt here from its record: this node writes it from now on. */
  adopt(s: Session, stored: StoredSession): void {
    this.local.set(s.id, { s, checkpoints: stored.checkpoints, direct: stored.direct.map((f) => f.seq) });
    s.recorder = this;
  }

  /** This node no longer writes the session's record (it moved to another node). */
  release(id: string): void {
    this.local.delete(id);
  }

  /** The session ended for good: nobody can resume it. */
  end(id: string): void {
    this.local.delete(id);
    this.redis.del(this.key(id), this.key(id, 'direct')).catch(report);
  }

  async load(id: string): Promise<StoredSession | null> {
    const [[, h], [, list]] = (await this.redis.multi().hgetall(this.key(id)).lrange(this.key(id, 'direct'), 0, -1).exec()) as [
      [unknown, Record<string, string>],
      [unknown, string[]],
    ];
    if (!h?.meta || !h.ck) return null;
    return { meta: JSON.parse(h.meta), checkpoints: JSON.parse(h.ck), direct: list.map((x) => JSON.parse(x)) };
  }

  position(): Promise<number> {
    return this.bus.position();
  }

  eventsAfter(topic: Topic, g: number): Promise<StoredEvent[] | null> {
    return this.bus.eventsAfter(topic, g);
  }

  private key(id: string, part = ''): string {
    return `${this.prefix}session:${id}${part ? `:${part}` : ''}`;
  }
}

/** Redis away: reported once by store/health.ts, not once per frame. */
const report = (err: unknown) => {
  if (!isUnavailable(err)) console.error('[gateway] session record', err);
};

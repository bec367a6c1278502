import type { Actor } from '../services/context.js';

/**
 * One dispatched frame kept for RESUME, as its parts: the payload string is shared by every session that got the same
 * view, so a buffered frame costs a reference, not a copy (the frame is rebuilt for a resume).
 */
interface Buffered {
  seq: number;
  t: string;
  d: string;
}

/** A dispatch frame, in the platform's key order. */
export const frameOf = (b: Buffered): string => `{"t":"${b.t}","s":${b.seq},"op":0,"d":${b.d}}`;

/** What a rebuild on another node needs to know of a frame sent outside the bus, besides the frame. */
export interface FrameNote {
  /** A GUILD_CREATE of this guild: kept as the id and built again from the store (large, and shared by many). */
  guildCreate?: string;
  /** The session began following these members' presences in a large guild with this frame (op 8 with presences). */
  follows?: { guildId: string; users: string[] | 'all' };
}

/** Where a session's frames that cannot be rebuilt from the bus's streams are kept, so another node can resume it. */
export interface SessionRecorder {
  /** A frame sent outside the bus's order (READY, a reply to a command), at the session's current position. */
  direct(s: Session, seq: number, t: string, d: string, note?: FrameNote): void;
  /** The client holds every frame up to `seq`. */
  acknowledged(s: Session, seq: number): void;
}

/**
 * Frames kept for replay per session, by count and bytes. Frames the client acknowledged in a heartbeat are dropped;
 * a resume that needs a frame no longer kept must re-identify (as after a long outage on the platform).
 */
const REPLAY_FRAMES = 2000;
const REPLAY_BYTES = 256 * 1024;

/** Anything that can carry frames to a client. */
export interface Transport {
  send(frame: string): void;
  /** A dispatch frame, which the transport may build its own way (sharing the payload's bytes among sessions). */
  sendDispatch?(seq: number, t: string, d: string): void;
  close(code: number, reason?: string): void;
}

/** Sees every dispatch a session is sent (the dev inspector); it must not keep the frame's secrets. */
export type SessionTap = (s: Session, t: string, seq: number, dJson: string) => void;

/**
 * Dev faults on a session's dispatches (--dev only): takes the frame (dropped, or held back and sent later through
 * `send`, in order) and returns true, or returns false to let it through now.
 */
export interface DispatchFaults {
  intercept(s: Session, t: string, send: () => void): boolean;
}

/**
 * A gateway session: identity, routing (intents, shard) and sequence, kept across reconnects for RESUME.
 * Frames dispatched while no transport is attached are buffered only.
 */
export class Session {
  seq = 0;
  transport: Transport | null = null;
  guildIds = new Set<string>();
  /** Closed for good (client close 1000, invalid session, or the resume window ran out). */
  dead = false;
  detachedAt = 0;
  /** Hash of the bare token it identified with: when that token is revoked, the session ends (4004). */
  tokenHash = '';
  /** Set by the Gateway when an observer is attached (the dev inspector, with --dev only). */
  tap: SessionTap | null = null;
  /** Set by the Gateway with --dev: faults that drop or delay this session's dispatches. */
  faults: DispatchFaults | null = null;
  /** Distributed mode: the number of the last bus event this session was considered for (see BusEvent.g). */
  lastG = 0;
  /** Distributed mode: keeps what another node needs to resume this session. */
  recorder: SessionRecorder | null = null;
  private replay: Buffered[] = [];
  /** Index of the oldest kept frame: dropping advances it, and the array is compacted now and then (no shift()). */
  private head = 0;
  private replayBytes = 0;
  /** Highest seq that left the buffer: a resume from before it cannot be served. */
  private dropped = 0;

  constructor(
    readonly id: string,
    readonly actor: Actor,
    readonly intents: number,
    readonly shard: [number, number],
    readonly capabilities: number,
    readonly largeThreshold: number,
  ) {}

  get isBot(): boolean {
    return this.actor.kind === 'bot';
  }

  get userId(): string {
    return this.actor.user.id;
  }

  /**
   * Sequence a dispatch, buffer it for resume, and send it if connected. `fromBus`: the frame is a bus event's (or
   * derived from one), which another node can rebuild from the bus's streams; any other frame is recorded.
   */
  dispatch(t: string, dJson: string, fromBus = false, note?: FrameNote): void {
    // A dropped frame never takes a seq (the client sees a lost event, not a gap); a delayed one takes it when sent.
    if (this.faults?.intercept(this, t, () => this.send(t, dJson, fromBus, note))) return;
    this.send(t, dJson, fromBus, note);
  }

  private send(t: string, dJson: string, fromBus: boolean, note?: FrameNote): void {
    const b = this.buffer(++this.seq, t, dJson);
    const tr = this.transport;
    if (tr?.sendDispatch) tr.sendDispatch(b.seq, t, dJson);
    else tr?.send(frameOf(b));
    this.tap?.(this, t, b.seq, dJson);
    if (!fromBus) this.recorder?.direct(this, b.seq, t, dJson, note);
  }

  /** A recorded frame put back while the session is rebuilt on another node (sent with the other frames of the resume). */
  restore(seq: number, t: string, dJson: string): boolean {
    if (seq !== this.seq + 1) return false;
    this.buffer(++this.seq, t, dJson);
    return true;
  }

  private buffer(seq: number, t: string, d: string): Buffered {
    const b = { seq, t, d };
    this.replay.push(b);
    this.replayBytes += d.length + t.length + 32;
    while (this.replay.length - this.head > REPLAY_FRAMES || this.replayBytes > REPLAY_BYTES) this.dropOldest();
    return b;
  }

  /** The client confirmed every frame up to `seq`. */
  acknowledge(seq: number): void {
    while (this.head < this.replay.length && this.replay[this.head].seq <= seq) this.dropOldest();
    this.recorder?.acknowledged(this, seq);
  }

  private dropOldest(): void {
    const b = this.replay[this.head++];
    this.replayBytes -= b.d.length + b.t.length + 32;
    if (this.head === this.replay.length) {
      this.replay = [];
      this.head = 0;
    } else if (this.head > 1024) {
      this.replay = this.replay.slice(this.head);
      this.head = 0;
    }
    this.dropped = b.seq;
  }

  /** Frames after `seq`, or null when the gap can no longer be filled. */
  framesAfter(seq: number): string[] | null {
    if (seq > this.seq || seq < 0) return null;
    if (seq === this.seq) return [];
    if (seq < this.dropped) return null;
    return this.replay
      .slice(this.head)
      .filter((b) => b.seq > seq)
      .map(frameOf);
  }
}

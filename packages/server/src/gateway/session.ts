import type { Actor } from '../services/context.js';

/** One dispatched frame kept for RESUME. */
interface Buffered {
  seq: number;
  frame: string;
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
  close(code: number, reason?: string): void;
}

/** Sees every dispatch a session is sent (the dev inspector); it must not keep the frame's secrets. */
export type SessionTap = (s: Session, t: string, seq: number, dJson: string) => void;

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

  /** Sequence a dispatch, buffer it for resume, and send it if connected. */
  dispatch(t: string, dJson: string): void {
    const seq = ++this.seq;
    const frame = `{"op":0,"s":${seq},"t":"${t}","d":${dJson}}`;
    this.replay.push({ seq, frame });
    this.replayBytes += frame.length;
    while (this.replay.length - this.head > REPLAY_FRAMES || this.replayBytes > REPLAY_BYTES) this.dropOldest();
    this.transport?.send(frame);
    this.tap?.(this, t, seq, dJson);
  }

  /** The client confirmed every frame up to `seq`. */
  acknowledge(seq: number): void {
    while (this.head < this.replay.length && this.replay[this.head].seq <= seq) this.dropOldest();
  }

  private dropOldest(): void {
    const b = this.replay[this.head++];
    this.replayBytes -= b.frame.length;
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
    return this.replay.slice(this.head).filter((b) => b.seq > seq).map((b) => b.frame);
  }
}

import type { Actor } from '../context.js';

/** One dispatched frame kept for RESUME. */
interface Buffered {
  seq: number;
  frame: string;
}

/** Frames kept for replay per session; a resume older than this must re-identify. */
const REPLAY_LIMIT = 2000;

/** Anything that can carry frames to a client. */
export interface Transport {
  send(frame: string): void;
  close(code: number, reason?: string): void;
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
  private replay: Buffered[] = [];

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
    if (this.replay.length > REPLAY_LIMIT) this.replay.splice(0, this.replay.length - REPLAY_LIMIT);
    this.transport?.send(frame);
  }

  /** Frames after `seq`, or null when the gap can no longer be filled. */
  framesAfter(seq: number): string[] | null {
    if (seq > this.seq || seq < 0) return null;
    if (seq === this.seq) return [];
    const first = this.replay[0]?.seq ?? this.seq + 1;
    if (seq + 1 < first) return null;
    return this.replay.filter((b) => b.seq > seq).map((b) => b.frame);
  }
}

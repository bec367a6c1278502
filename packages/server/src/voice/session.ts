import type { Mode } from './media/aead.js';
import type { VoiceGrant } from '../services/voice/states.js';

/** Something that carries frames to a voice client (a WebSocket connection). */
export interface VoiceTransport {
  sendFrame(frame: string | Buffer): void;
  close(code: number, reason?: string): void;
}

interface Buffered {
  seq: number;
  frame: string | Buffer;
}

/** Frames kept for buffered resume; a client further behind than this must re-identify (4006). */
const REPLAY_LIMIT = 4096;

/**
 * One voice session (one Identify), kept across WebSocket drops for resume: identity, SSRC, transport key and mode,
 * and one 16-bit sequence for JSON and binary messages (1..65535, wrapping to 1; never 0, which clients ignore).
 */
export class VoiceSession {
  seq = 0;
  transport: VoiceTransport | null = null;
  detachedAt = 0;
  mode: Mode | null = null;
  key: Buffer | null = null;
  /** DAVE version announced in op 4 (0 or 1). */
  daveVersion = 0;
  /** Last op 5 flags, or -1 before the first. */
  speaking = -1;
  /** Has SPEAK in the channel (recomputed on voice state updates). */
  mayspeak = true;
  muted = false;
  ended = false;
  /** Select Protocol is being answered (WebRTC negotiation is asynchronous). */
  selecting = false;
  /** A browser's WebRTC peer, which joins the SFU as a UDP client (protocol `webrtc`). */
  bridge: { close(): void } | null = null;
  private replay: Buffered[] = [];

  constructor(
    readonly grant: VoiceGrant,
    readonly ssrc: number,
    /** Gateway version from ?v=. */
    readonly version: number,
    /** max_dave_protocol_version from Identify. */
    readonly daveMax: number,
  ) {}

  get userId() {
    return this.grant.userId;
  }
  get guildId() {
    return this.grant.guildId;
  }
  get channelId() {
    return this.grant.channelId;
  }
  get canSpeak() {
    return this.mayspeak && !this.muted;
  }

  private next(): number {
    this.seq = (this.seq % 0xffff) + 1;
    return this.seq;
  }

  private push(seq: number, frame: string | Buffer): void {
    this.replay.push({ seq, frame });
    if (this.replay.length > REPLAY_LIMIT) this.replay.splice(0, this.replay.length - REPLAY_LIMIT);
    this.transport?.sendFrame(frame);
  }

  /** A numbered JSON message (kept for resume). */
  send(op: number, d: unknown): void {
    if (this.ended) return;
    const seq = this.next();
    this.push(seq, JSON.stringify({ op, d, seq }));
  }

  /** A numbered binary message: `[seq u16][op u8][payload]`. */
  sendBinary(op: number, payload: Buffer): void {
    if (this.ended) return;
    const seq = this.next();
    const frame = Buffer.allocUnsafe(3 + payload.length);
    frame.writeUInt16BE(seq, 0);
    frame[2] = op;
    payload.copy(frame, 3);
    this.push(seq, frame);
  }

  /** Drops what the client acknowledged (heartbeat seq_ack). */
  ack(seqAck: number): void {
    const i = this.replay.findIndex((b) => b.seq === seqAck);
    if (i >= 0) this.replay.splice(0, i + 1);
  }

  /** Frames after `seqAck` in order, or null when the gap cannot be filled. */
  framesAfter(seqAck: number): (string | Buffer)[] | null {
    if (seqAck === this.seq) return [];
    if (seqAck === -1 && this.replay[0]?.seq === 1) return this.replay.map((b) => b.frame);
    const i = this.replay.findIndex((b) => b.seq === seqAck);
    if (i >= 0) return this.replay.slice(i + 1).map((b) => b.frame);
    // Everything up to seqAck was already trimmed by heartbeats: the buffer must start right after it.
    if (this.replay.length && this.replay[0].seq === (seqAck % 0xffff) + 1) return this.replay.map((b) => b.frame);
    return null;
  }
}

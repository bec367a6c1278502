import { DaveGroup, type DaveTimings } from './dave/group.js';
import type { ExternalSender } from './dave/codec.js';
import type { MediaPlane } from './media/plane.js';
import { VoiceOp } from './opcodes.js';
import type { VoiceSession } from './session.js';

/**
 * The voice sessions of one channel: who is connected (ops 11/13), speaking relays (op 5), and the DAVE group. Media
 * forwarding for the room happens in the media plane; this only tells it who may hear DAVE frames.
 */
export class Room {
  readonly sessions = new Map<string, VoiceSession>();
  readonly dave: DaveGroup;
  /** Members whose client has no DAVE: while any is present the room runs on transport encryption only. */
  private readonly withoutDave = new Set<string>();

  constructor(
    readonly channelId: string,
    sender: ExternalSender,
    private readonly media: MediaPlane,
    timings: DaveTimings,
    readonly daveEnabled: boolean,
    debug: (msg: string) => void,
  ) {
    this.dave = new DaveGroup(
      channelId,
      sender,
      {
        json: (userId, op, d) => this.sessions.get(userId)?.send(op, d),
        binary: (userId, op, payload) => this.sessions.get(userId)?.sendBinary(op, payload),
        mediaReady: (userId, ready) => {
          const s = this.sessions.get(userId);
          if (s) this.media.update(s.ssrc, { daveReady: ready });
        },
        debug: (msg) => debug(`[dave ${channelId}] ${msg}`),
      },
      timings,
    );
    if (!daveEnabled) this.dave.version = 0;
  }

  /** The DAVE version a session gets in op 4. */
  daveVersionFor(s: VoiceSession): number {
    return this.daveEnabled && s.daveMax >= 1 && this.dave.version >= 1 ? this.dave.version : 0;
  }

  /** After Identify: op 11 both ways (always before any DAVE proposal that adds the user). */
  add(s: VoiceSession): void {
    const others = [...this.sessions.values()];
    this.sessions.set(s.userId, s);
    if (others.length) s.send(VoiceOp.CLIENTS_CONNECT, { user_ids: others.map((o) => o.userId) });
    for (const o of others) o.send(VoiceOp.CLIENTS_CONNECT, { user_ids: [s.userId] });
    if (this.daveEnabled && s.daveMax < 1) {
      this.withoutDave.add(s.userId);
      this.dave.downgrade();
    }
  }

  /**
   * After op 4 (Session Description): DAVE membership (op 25 follows op 4), then SSRC announcements both ways. Receivers
   * drop packets of SSRCs they cannot map to a user, and a speaker's first packets travel by UDP faster than its op 5
   * relayed over TLS, so every member's SSRC is announced (op 5, current flags or 0) before anyone speaks.
   */
  ready(s: VoiceSession): void {
    if (this.daveEnabled && s.daveMax >= 1) this.dave.join(s.userId);
    else this.media.update(s.ssrc, { daveReady: false });
    for (const o of this.sessions.values()) {
      if (o === s || !o.mode) continue;
      s.send(VoiceOp.SPEAKING, { user_id: o.userId, ssrc: o.ssrc, speaking: Math.max(0, o.speaking) });
      o.send(VoiceOp.SPEAKING, { user_id: s.userId, ssrc: s.ssrc, speaking: 0 });
    }
  }

  /** Op 5 from a member: relayed to everyone else (receivers map SSRC to user from it). */
  speaking(s: VoiceSession, flags: number): void {
    if (!s.canSpeak || this.sessions.get(s.userId) !== s) return;
    s.speaking = flags;
    for (const o of this.sessions.values()) if (o !== s) o.send(VoiceOp.SPEAKING, { user_id: s.userId, ssrc: s.ssrc, speaking: flags });
  }

  /** A member left: op 13 to the others, DAVE removal (or upgrade when the last non-DAVE client left). */
  remove(s: VoiceSession): void {
    if (this.sessions.get(s.userId) !== s) return;
    this.sessions.delete(s.userId);
    this.media.remove(s.ssrc);
    for (const o of this.sessions.values()) o.send(VoiceOp.CLIENT_DISCONNECT, { user_id: s.userId });
    this.dave.leave(s.userId);
    if (this.withoutDave.delete(s.userId) && !this.withoutDave.size && this.sessions.size) this.dave.upgrade();
  }

  get empty(): boolean {
    return this.sessions.size === 0;
  }

  close(): void {
    this.dave.close();
  }
}

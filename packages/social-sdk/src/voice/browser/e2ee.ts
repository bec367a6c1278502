import { DaveOp } from '@accord/protocol';
import type { DaveyModule, DaveySession } from './davey.js';

/** Seconds unencrypted frames stay accepted after a downgrade or upgrade, as the protocol suggests. */
const PASSTHROUGH_SECONDS = 10;
const PASSTHROUGH_DOWNGRADE_SECONDS = 24;
const AUDIO = 0;
/** Consecutive undecryptable frames (about a second of one speaker) before the group is rebuilt. */
const FAILURE_TOLERANCE = 50;
/** Opus silence, which DAVE leaves unencrypted. */
const isSilence = (f: Uint8Array) => f.length === 3 && f[0] === 0xf8 && f[1] === 0xff && f[2] === 0xfe;

export interface E2eeSink {
  json(op: number, d: unknown): void;
  binary(op: number, payload: Uint8Array): void;
  /** The group changed (ready, epoch, privacy code). */
  changed(): void;
}

/**
 * The page's side of DAVE: the MLS group through davey (proposals, commits, welcomes, transitions) and the per-frame
 * encryption of what the microphone sends and decryption of what each speaker sends. Only the page has the keys; the
 * server sees key packages, commits and encrypted frames.
 */
export class E2ee {
  version: number;
  private session: DaveySession | null = null;
  private readonly pending = new Map<number, number>();
  private lastTransition: number | null = null;
  private reinitializing = false;
  private failures = 0;

  constructor(
    private readonly davey: DaveyModule,
    version: number,
    private readonly userId: string,
    private readonly channelId: string,
    private readonly connected: () => string[],
    private readonly sink: E2eeSink,
  ) {
    this.version = version;
    if (version > 0) this.reinit();
  }

  /** On (protocol version above 0) and keyed: frames are encrypted end to end. */
  get active(): boolean {
    return this.version > 0 && !!this.session?.ready;
  }

  /** The code every member sees for this group (empty until keyed). */
  get privacyCode(): string {
    return this.active ? (this.session?.voicePrivacyCode ?? '') : '';
  }

  get epoch(): string | null {
    const e = this.session?.epoch;
    return e === null || e === undefined ? null : String(e);
  }

  /** The code to compare with one other member, out of band. */
  verificationCode(userId: string): Promise<string> {
    if (!this.session || !this.active) return Promise.reject(new Error('End-to-end encryption is not active.'));
    return this.session.getVerificationCode(userId);
  }

  private reinit(): void {
    if (this.version > 0) {
      if (this.session) this.session.reinit(this.version, this.userId, this.channelId);
      else this.session = new this.davey.DAVESession(this.version, this.userId, this.channelId);
      this.sink.binary(DaveOp.KEY_PACKAGE, this.session.getSerializedKeyPackage().slice());
    } else if (this.session) {
      this.session.reset();
      this.session.setPassthroughMode(true, PASSTHROUGH_SECONDS);
    }
    this.sink.changed();
  }

  onJson(op: number, d: any): void {
    if (op === DaveOp.PREPARE_TRANSITION) {
      this.pending.set(d.transition_id, d.protocol_version);
      if (d.transition_id === 0) this.execute(0);
      else {
        if (d.protocol_version === 0) this.session?.setPassthroughMode(true, PASSTHROUGH_DOWNGRADE_SECONDS);
        this.sink.json(DaveOp.TRANSITION_READY, { transition_id: d.transition_id });
      }
    } else if (op === DaveOp.EXECUTE_TRANSITION) this.execute(d.transition_id);
    else if (op === DaveOp.PREPARE_EPOCH && d.epoch === 1) {
      this.version = d.protocol_version;
      this.reinit();
    }
  }

  private execute(id: number): void {
    if (!this.pending.has(id)) return;
    const before = this.version;
    this.version = this.pending.get(id)!;
    this.pending.delete(id);
    if (before === 0 && this.version > 0) this.session?.setPassthroughMode(true, PASSTHROUGH_SECONDS);
    this.reinitializing = false;
    this.lastTransition = id;
    this.sink.changed();
  }

  onBinary(op: number, payload: Uint8Array): void {
    const session = this.session;
    if (!session) return;
    if (op === DaveOp.EXTERNAL_SENDER) session.setExternalSender(payload);
    else if (op === DaveOp.PROPOSALS) {
      const { commit, welcome } = session.processProposals(payload[0], payload.subarray(1), this.connected());
      if (commit) {
        const c = commit.slice();
        const w = welcome?.slice();
        this.sink.binary(DaveOp.COMMIT_WELCOME, w ? concat(c, w) : c);
      }
    } else if (op === DaveOp.ANNOUNCE_COMMIT || op === DaveOp.WELCOME) {
      const id = (payload[0] << 8) | payload[1];
      try {
        if (op === DaveOp.ANNOUNCE_COMMIT) session.processCommit(payload.subarray(2));
        else session.processWelcome(payload.subarray(2));
      } catch {
        return this.invalid(id);
      }
      if (id === 0) {
        this.reinitializing = false;
        this.lastTransition = 0;
      } else {
        this.pending.set(id, this.version);
        this.sink.json(DaveOp.TRANSITION_READY, { transition_id: id });
      }
      this.sink.changed();
    }
  }

  /** A commit or welcome we cannot use: tell the server (op 31) and start over with a new key package. */
  private invalid(id: number): void {
    if (this.reinitializing) return;
    this.reinitializing = true;
    this.sink.json(DaveOp.INVALID_COMMIT_WELCOME, { transition_id: id });
    this.reinit();
  }

  /** A microphone frame to send; null drops it (the group is on but not keyed yet: nothing leaves in the clear). */
  encrypt(frame: Uint8Array): Uint8Array | null {
    if (this.version === 0 || isSilence(frame)) return frame;
    if (!this.session?.ready) return null;
    return this.session.encryptOpus(frame).slice();
  }

  /** A speaker's frame; null drops it (not decryptable: the group is not keyed yet, or a transition is under way). */
  decrypt(userId: string, frame: Uint8Array): Uint8Array | null {
    if (this.version === 0 || isSilence(frame)) return frame;
    const session = this.session;
    if (!session?.ready) return null;
    try {
      const out = session.decrypt(userId, AUDIO, frame).slice();
      this.failures = 0;
      return out;
    } catch {
      // Frames cross a transition for a moment; if they keep failing outside one, the group is rebuilt (op 31).
      if (!this.reinitializing && !this.pending.size && ++this.failures > FAILURE_TOLERANCE && this.lastTransition !== null) {
        this.failures = 0;
        this.invalid(this.lastTransition);
      }
      return null;
    }
  }

  close(): void {
    try {
      this.session?.reset();
    } catch {
      // already gone
    }
    this.session = null;
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

import Davey from '@snazzah/davey';

const FRAME_MARKER = 0xfa;

export interface DaveOutput {
  json(op: number, d: unknown): void;
  binary(op: number, payload: Buffer): void;
  log(message: string): void;
}

/**
 * The call's end-to-end encryption (DAVE) on @snazzah/davey, driven by the voice gateway's DAVE ops: a key package
 * once the session description names protocol 1, the external sender, proposals answered with a commit (and welcome),
 * commits and welcomes, transitions acknowledged, and a fresh group on epoch 1. Frames are encrypted once the group
 * is ready; a frame that does not authenticate is dropped.
 */
export class DaveE2ee {
  private session: InstanceType<typeof Davey.DAVESession> | null = null;
  private version = 0;
  private pending = new Map<number, number>();
  readonly recognized = new Set<string>();
  onChange: () => void = () => {};

  constructor(
    private readonly userId: string,
    private readonly channelId: string,
    private readonly out: DaveOutput,
  ) {}

  get protocolVersion(): number {
    return this.version;
  }
  /** Media can flow: no DAVE in this call, or the group is established. */
  get ready(): boolean {
    return this.version === 0 || !!this.session?.ready;
  }
  get privacyCode(): string {
    return this.session?.ready ? this.session.voicePrivacyCode : '';
  }

  start(version: number): void {
    this.version = version;
    if (version > 0) this.reinit();
    this.onChange();
  }

  private reinit(): void {
    if (this.session) this.session.reinit(1, this.userId, this.channelId);
    else this.session = new Davey.DAVESession(1, this.userId, this.channelId);
    this.out.binary(26, this.session.getSerializedKeyPackage());
  }

  onJson(op: number, d: any): void {
    switch (op) {
      case 11:
        for (const id of d.user_ids ?? []) this.recognized.add(id);
        break;
      case 13:
        this.recognized.delete(d.user_id);
        break;
      case 21:
        this.pending.set(d.transition_id, d.protocol_version);
        if (d.transition_id === 0) this.execute(0);
        else this.out.json(23, { transition_id: d.transition_id });
        break;
      case 22:
        this.execute(d.transition_id);
        break;
      case 24:
        if (d.epoch === 1) {
          this.version = d.protocol_version;
          this.reinit();
        }
        break;
    }
    this.onChange();
  }

  private execute(transitionId: number): void {
    const v = this.pending.get(transitionId);
    this.pending.delete(transitionId);
    if (v === undefined) return;
    if (v === 0 && this.version > 0) this.session?.setPassthroughMode(true, 10);
    this.version = v;
  }

  onBinary(op: number, payload: Buffer): void {
    if (!this.session) return;
    try {
      if (op === 25) this.session.setExternalSender(payload);
      else if (op === 27) {
        const res = this.session.processProposals(payload[0] as 0 | 1, payload.subarray(1), [...this.recognized, this.userId]);
        if (res.commit) this.out.binary(28, res.welcome ? Buffer.concat([res.commit, res.welcome]) : res.commit);
      } else if (op === 29 || op === 30) {
        const transitionId = payload.readUInt16BE(0);
        try {
          if (op === 29) this.session.processCommit(payload.subarray(2));
          else this.session.processWelcome(payload.subarray(2));
        } catch (err) {
          this.out.log(`DAVE: invalid ${op === 29 ? 'commit' : 'welcome'} (${(err as Error).message}); recovering`);
          this.out.json(31, { transition_id: transitionId });
          this.reinit();
          return;
        }
        if (transitionId !== 0) this.out.json(23, { transition_id: transitionId });
      }
    } catch (err) {
      this.out.log(`DAVE op ${op} failed: ${(err as Error).message}`);
    } finally {
      this.onChange();
    }
  }

  encrypt(opus: Buffer): Buffer {
    if (this.version === 0 || !this.session?.ready) return opus;
    return this.session.encryptOpus(opus);
  }

  /** The Opus payload of a received frame, or null when it cannot be used. */
  decrypt(userId: string, frame: Buffer): Buffer | null {
    const e2ee = frame.length >= 2 && frame[frame.length - 1] === FRAME_MARKER && frame[frame.length - 2] === FRAME_MARKER;
    if (e2ee) {
      if (!this.session?.ready) return null;
      try {
        return this.session.decrypt(userId, 0, frame);
      } catch {
        return null;
      }
    }
    // DAVE leaves the Opus silence frame unencrypted by design.
    if (frame.length === 3 && frame[0] === 0xf8 && frame[1] === 0xff && frame[2] === 0xfe) return frame;
    return this.version === 0 || this.session?.canPassthrough(userId) ? frame : null;
  }
}

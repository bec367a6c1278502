import { DAVE_PROTOCOL_VERSION, DaveOp } from '@accord/protocol';
import {
  DaveError,
  ExternalSender,
  addProposal,
  appendProposals,
  idBytes,
  parseCommitWelcome,
  parseKeyPackage,
  removeProposal,
  revokeProposals,
  transitionPrefix,
  verifyCommitLeaf,
  welcomeFor,
  type KeyPackage,
} from './codec.js';

/** Where the group's messages go: the voice sessions of the room. */
export interface DaveOutput {
  json(userId: string, op: number, d: unknown): void;
  binary(userId: string, op: number, payload: Buffer): void;
  /** Whether DAVE-encrypted media may be forwarded to this member (it holds the group's keys). */
  mediaReady(userId: string, ready: boolean): void;
  debug(msg: string): void;
}

export interface DaveTimings {
  /** How long to wait for op 23 from every recipient before executing a transition. */
  transitionMs: number;
  /** How long proposals may stay without a valid commit before the group is rebuilt. */
  commitMs: number;
  /** Key packages and leaves arriving within this window ride one commit. */
  batchMs: number;
}

interface Proposal {
  ref: Buffer;
  message: Buffer;
  kind: 'add' | 'remove';
  /** Added user, or the user whose leaf is removed. */
  subject: string;
  leaf?: number;
  kp?: KeyPackage;
}

interface Member {
  userId: string;
  /** Op 25 was sent (after op 4): the client has a pending group and accepts proposals. */
  hasSender: boolean;
  /** Its latest validated key package, while it waits to be added. */
  kp: KeyPackage | null;
  inGroup: boolean;
  leaf: number;
  signatureKey: Buffer | null;
  /** Unrevoked proposals sent to this member in the current epoch, by ref (hex). */
  received: Map<string, Proposal>;
}

const hex = (b: Buffer) => b.toString('hex');

/**
 * The server side of one DAVE group (one voice channel): MLS delivery service and external sender. It holds no group
 * secrets, only the roster (leaf -> user), the epoch, the pending members' key packages, the proposals sent this
 * epoch and at most one transition. Flows (voice.md §6): A creation, B join, C leave, D sole-member reset,
 * E invalid commit/welcome, F downgrade/upgrade.
 */
export class DaveGroup {
  /** 1 while every member speaks DAVE; 0 = transport encryption only. */
  version = DAVE_PROTOCOL_VERSION;
  epoch = 0n;
  established = false;
  private readonly groupId: Buffer;
  private readonly members = new Map<string, Member>();
  private leaves: (string | null)[] = [];
  /** Leaves to remove at the next commit (their users left or flagged an invalid commit). */
  private readonly toRemove = new Map<number, string>();
  private phase: 'idle' | 'proposing' | 'transition' = 'idle';
  private transition: { id: number; waiting: Set<string>; downgrade: boolean; timer: NodeJS.Timeout } | null = null;
  private commitTimer: NodeJS.Timeout | null = null;
  private batchTimer: NodeJS.Timeout | null = null;
  private lastTransitionId = 0;
  private closed = false;

  constructor(
    readonly channelId: string,
    private readonly sender: ExternalSender,
    private readonly out: DaveOutput,
    private readonly timings: DaveTimings,
  ) {
    this.groupId = idBytes(channelId);
  }

  /** Users currently in the MLS group, by leaf. */
  roster(): (string | null)[] {
    return [...this.leaves];
  }

  get busy(): boolean {
    return this.phase !== 'idle';
  }

  /** A DAVE-capable member whose op 4 was just sent. Op 25 must follow op 4 (earlier, the client crashes). */
  join(userId: string): void {
    const m: Member = { userId, hasSender: false, kp: null, inGroup: false, leaf: -1, signatureKey: null, received: new Map() };
    this.members.set(userId, m);
    this.out.mediaReady(userId, false);
    if (this.version === 0) return;
    this.out.binary(userId, DaveOp.EXTERNAL_SENDER, this.sender.package());
    m.hasSender = true;
  }

  /** Op 26. Invalid packages are dropped: the whitepaper's checks are in parseKeyPackage. */
  keyPackage(userId: string, payload: Buffer): void {
    const m = this.members.get(userId);
    if (!m || this.version === 0) return;
    let kp: KeyPackage;
    try {
      kp = parseKeyPackage(payload, userId);
    } catch (err) {
      return this.out.debug(`dropped key package of ${userId}: ${(err as Error).message}`);
    }
    if (m.inGroup) return this.out.debug(`ignored key package of ${userId}: already in the group`);
    // A member may replace its key package, never use two: an Add still in flight for the old one is revoked.
    if (m.kp) this.revokeAddsOf(userId);
    m.kp = kp;
    this.schedule();
  }

  /** Op 28: the first valid commit for the current epoch wins; the others are dropped silently. */
  commitWelcome(userId: string, payload: Buffer): void {
    const m = this.members.get(userId);
    if (!m || this.phase !== 'proposing' || !m.received.size) return this.out.debug(`dropped commit of ${userId}: nothing to commit`);
    const problem = this.checkCommit(m, payload);
    if (typeof problem === 'string') return this.out.debug(`dropped commit of ${userId}: ${problem}`);
    const { cw, props } = problem;
    this.clearCommitTimer();
    const id = this.nextTransitionId();
    const wasEstablished = this.established;
    if (!wasEstablished) {
      this.leaves = [userId];
      m.inGroup = true;
      m.leaf = 0;
      m.signatureKey = m.kp!.leaf.signatureKey;
      m.kp = null;
    }
    const committers = wasEstablished ? [...this.members.values()].filter((x) => x.received.size) : [m];
    const added: Member[] = [];
    for (const p of props.filter((x) => x.kind === 'remove')) {
      this.leaves[p.leaf!] = null;
      this.toRemove.delete(p.leaf!);
    }
    while (this.leaves.length && this.leaves[this.leaves.length - 1] === null) this.leaves.pop();
    for (const p of props.filter((x) => x.kind === 'add')) {
      const a = this.members.get(p.subject);
      let leaf = this.leaves.indexOf(null);
      if (leaf < 0) leaf = this.leaves.length;
      this.leaves[leaf] = p.subject;
      if (!a) continue; // left meanwhile; its leaf goes at the next commit
      a.inGroup = true;
      a.leaf = leaf;
      a.signatureKey = p.kp!.leaf.signatureKey;
      a.kp = null;
      added.push(a);
    }
    for (const [leaf, uid] of this.leaves.entries()) if (uid && !this.members.get(uid)?.inGroup) this.toRemove.set(leaf, uid);
    this.epoch += 1n;
    this.established = true;
    for (const x of this.members.values()) x.received.clear();
    const ann = Buffer.concat([transitionPrefix(id), cw.commit]);
    for (const c of committers) this.out.binary(c.userId, DaveOp.ANNOUNCE_COMMIT, ann);
    for (const a of added)
      this.out.binary(
        a.userId,
        DaveOp.WELCOME,
        Buffer.concat([transitionPrefix(id), welcomeFor(cw.welcome!, props.find((p) => p.subject === a.userId)!.kp!.ref)]),
      );
    this.out.debug(`commit of ${userId} accepted: epoch ${this.epoch}, transition ${id}, roster ${JSON.stringify(this.leaves)}`);
    this.startTransition(id, new Set([...committers, ...added].map((x) => x.userId)), false);
  }

  /** Validates a commit against what this DS sent; returns the reason it is refused, or the parsed commit. */
  private checkCommit(m: Member, payload: Buffer) {
    let cw;
    try {
      cw = parseCommitWelcome(payload);
    } catch (err) {
      return (err as DaveError).message;
    }
    if (!cw.groupId.equals(this.groupId)) return 'wrong group id';
    if (cw.epoch !== this.epoch) return `epoch ${cw.epoch} is not ${this.epoch}`;
    if (this.established !== m.inGroup) return 'committer is not in the group';
    if (cw.leafIndex !== (this.established ? m.leaf : 0)) return `leaf ${cw.leafIndex} is not the committer's`;
    const seen = new Set<string>();
    const props: Proposal[] = [];
    for (const ref of cw.refs) {
      const p = m.received.get(hex(ref));
      if (!p || seen.has(hex(ref))) return 'unknown, revoked or repeated proposal reference';
      seen.add(hex(ref));
      props.push(p);
    }
    if (props.length !== m.received.size) return 'commit does not cover every proposal sent';
    const signatureKey = this.established ? m.signatureKey! : m.kp?.leaf.signatureKey;
    if (!signatureKey) return 'no signature key known for the committer';
    if (cw.path) {
      if (!cw.path.signatureKey.equals(signatureKey)) return 'update path changes the signature key';
      if (!cw.path.identity.equals(idBytes(m.userId))) return 'update path changes the credential';
      if (!verifyCommitLeaf(cw.path, this.groupId, cw.leafIndex)) return 'update path leaf signature is invalid';
    } else if (props.some((p) => p.kind === 'remove')) return 'a remove commit needs an update path';
    const adds = props.filter((p) => p.kind === 'add');
    if (adds.length) {
      if (!cw.welcome) return 'adds without a welcome';
      if (cw.welcome.cipherSuite !== 2) return 'welcome cipher suite is not 2';
      for (const a of adds) if (!cw.welcome.secrets.some((s) => s.newMember.equals(a.kp!.ref))) return 'welcome misses an added member';
    } else if (cw.welcome) return 'welcome without adds';
    return { cw, props };
  }

  /** Op 23. */
  transitionReady(userId: string, id: number): void {
    const t = this.transition;
    if (!t || t.id !== id) return;
    t.waiting.delete(userId);
    if (!t.downgrade && this.members.get(userId)?.inGroup) this.out.mediaReady(userId, true);
    if (!t.waiting.size) this.executeTransition();
  }

  /** Op 31: the member failed a commit or welcome; it re-initialises and sends a new key package. */
  invalid(userId: string, id: number): void {
    const m = this.members.get(userId);
    if (!m) return;
    this.out.debug(`${userId} flagged transition ${id} invalid`);
    if (m.inGroup) {
      m.inGroup = false;
      m.signatureKey = null;
      this.toRemove.set(m.leaf, userId);
    }
    m.kp = null;
    this.out.mediaReady(userId, false);
    if (this.transition?.waiting.delete(userId) && !this.transition.waiting.size) this.executeTransition();
    else this.schedule();
  }

  /** A member left the channel (or its voice session ended). */
  leave(userId: string): void {
    const m = this.members.get(userId);
    if (!m) return;
    this.members.delete(userId);
    this.revokeAddsOf(userId);
    if (m.inGroup) this.toRemove.set(m.leaf, userId);
    if (this.transition?.waiting.delete(userId) && !this.transition.waiting.size) return this.executeTransition();
    this.schedule();
  }

  /** Revokes in-flight Adds of a user (it left, or replaced its key package). */
  private revokeAddsOf(userId: string): void {
    if (this.phase !== 'proposing') return;
    for (const q of this.members.values()) {
      const refs = [...q.received.values()].filter((p) => p.kind === 'add' && p.subject === userId);
      if (!refs.length) continue;
      for (const p of refs) q.received.delete(hex(p.ref));
      this.out.binary(q.userId, DaveOp.PROPOSALS, revokeProposals(refs.map((p) => p.ref)));
    }
    if (![...this.members.values()].some((q) => q.received.size)) {
      this.phase = 'idle';
      this.clearCommitTimer();
    }
  }

  /** Downgrade to transport-only encryption (a member without DAVE joined): op 21 v0, op 23s, op 22. */
  downgrade(): void {
    if (this.version === 0) return;
    this.version = 0;
    this.clearCommitTimer();
    if (this.transition) clearTimeout(this.transition.timer);
    this.transition = null;
    this.resetState();
    const id = this.nextTransitionId();
    const all = [...this.members.values()];
    for (const m of all) this.out.json(m.userId, DaveOp.PREPARE_TRANSITION, { transition_id: id, protocol_version: 0 });
    this.startTransition(id, new Set(all.map((m) => m.userId)), true);
  }

  /** Back to DAVE once every member supports it: op 24 (epoch 1) makes clients re-initialise, then flow A. */
  upgrade(): void {
    if (this.version !== 0) return;
    this.version = DAVE_PROTOCOL_VERSION;
    if (this.transition) clearTimeout(this.transition.timer);
    this.transition = null;
    this.resetState();
    for (const m of this.members.values()) {
      this.out.json(m.userId, DaveOp.PREPARE_EPOCH, { protocol_version: DAVE_PROTOCOL_VERSION, epoch: 1 });
      if (!m.hasSender) {
        this.out.binary(m.userId, DaveOp.EXTERNAL_SENDER, this.sender.package());
        m.hasSender = true;
      }
    }
  }

  close(): void {
    this.closed = true;
    this.clearCommitTimer();
    if (this.transition) clearTimeout(this.transition.timer);
    if (this.batchTimer) clearTimeout(this.batchTimer);
  }

  // ---- internals ---------------------------------------------------------------------------------------------------

  private schedule(): void {
    if (this.batchTimer || this.closed) return;
    this.batchTimer = setTimeout(() => {
      this.batchTimer = null;
      this.propose();
    }, this.timings.batchMs);
    this.batchTimer.unref?.();
  }

  /** Sends the next round of proposals, if anything changed and no transition is in flight. */
  private propose(): void {
    if (this.phase !== 'idle' || this.version === 0 || this.closed) return;
    const all = [...this.members.values()];
    const pending = all.filter((m) => m.hasSender && m.kp && !m.inGroup);
    if (this.established) {
      const staying = all.filter((m) => m.inGroup);
      if (!staying.length) {
        // Nobody left to commit: start over with the pending members (flow A).
        this.resetState();
        return this.propose();
      }
      if (!pending.length && !this.toRemove.size) return;
      if (staying.length === 1 && !pending.length) return this.soleReset(staying[0]);
      const props: Proposal[] = [];
      for (const [leaf, uid] of this.toRemove)
        props.push({ ...this.sender.proposal(this.groupId, this.epoch, removeProposal(leaf)), kind: 'remove', subject: uid, leaf });
      for (const p of pending) props.push({ ...this.sender.proposal(this.groupId, this.epoch, addProposal(p.kp!)), kind: 'add', subject: p.userId, kp: p.kp! });
      const payload = appendProposals(props.map((p) => p.message));
      for (const s of staying) {
        s.received = new Map(props.map((p) => [hex(p.ref), p]));
        this.out.binary(s.userId, DaveOp.PROPOSALS, payload);
      }
      this.out.debug(`proposed ${props.map((p) => `${p.kind} ${p.subject}`).join(', ')} at epoch ${this.epoch} to ${staying.length} members`);
    } else {
      // Flow A: every pending member gets the Adds of all the others, each in its own one-member group at epoch 0.
      if (pending.length < 2) return;
      this.epoch = 0n;
      const adds = new Map(
        pending.map((p) => [p.userId, { ...this.sender.proposal(this.groupId, 0n, addProposal(p.kp!)), kind: 'add' as const, subject: p.userId, kp: p.kp! }]),
      );
      for (const q of pending) {
        const mine = pending.filter((p) => p !== q).map((p) => adds.get(p.userId)!);
        q.received = new Map(mine.map((p) => [hex(p.ref), p]));
        this.out.binary(q.userId, DaveOp.PROPOSALS, appendProposals(mine.map((p) => p.message)));
      }
      this.out.debug(`proposed group creation with ${pending.map((p) => p.userId).join(', ')}`);
    }
    this.phase = 'proposing';
    this.commitTimer = setTimeout(() => this.rebuild('no valid commit arrived'), this.timings.commitMs);
    this.commitTimer.unref?.();
  }

  /** Flow D: one member would remain. It re-initialises (keeping the external sender) and waits for company. */
  private soleReset(m: Member): void {
    this.out.debug(`sole member ${m.userId}: group reset`);
    this.resetState();
    this.out.json(m.userId, DaveOp.PREPARE_EPOCH, { protocol_version: DAVE_PROTOCOL_VERSION, epoch: 1 });
    this.out.json(m.userId, DaveOp.PREPARE_TRANSITION, { transition_id: 0, protocol_version: DAVE_PROTOCOL_VERSION });
  }

  /** Recovery when the group cannot progress: everyone re-initialises and the group is created again. */
  private rebuild(reason: string): void {
    this.out.debug(`rebuilding the group: ${reason}`);
    this.commitTimer = null;
    this.resetState();
    for (const m of this.members.values()) {
      if (!m.hasSender) continue;
      this.out.json(m.userId, DaveOp.PREPARE_EPOCH, { protocol_version: DAVE_PROTOCOL_VERSION, epoch: 1 });
      this.out.json(m.userId, DaveOp.PREPARE_TRANSITION, { transition_id: 0, protocol_version: DAVE_PROTOCOL_VERSION });
    }
  }

  private resetState(): void {
    this.established = false;
    this.epoch = 0n;
    this.leaves = [];
    this.toRemove.clear();
    this.phase = 'idle';
    this.clearCommitTimer();
    for (const m of this.members.values()) {
      m.inGroup = false;
      m.leaf = -1;
      m.signatureKey = null;
      m.kp = null;
      m.received.clear();
      this.out.mediaReady(m.userId, false);
    }
  }

  private startTransition(id: number, waiting: Set<string>, downgrade: boolean): void {
    this.phase = 'transition';
    const timer = setTimeout(() => this.executeTransition(), waiting.size ? this.timings.transitionMs : 0);
    timer.unref?.();
    this.transition = { id, waiting, downgrade, timer };
  }

  /** Op 22 to everyone concerned, then the next queued change. */
  private executeTransition(): void {
    const t = this.transition;
    if (!t) return;
    clearTimeout(t.timer);
    this.transition = null;
    this.phase = 'idle';
    for (const m of this.members.values()) {
      if (t.downgrade || m.inGroup) this.out.json(m.userId, DaveOp.EXECUTE_TRANSITION, { transition_id: t.id });
      if (!t.downgrade && m.inGroup) this.out.mediaReady(m.userId, true);
    }
    this.out.debug(`transition ${t.id} executed`);
    this.schedule();
  }

  private clearCommitTimer(): void {
    if (this.commitTimer) clearTimeout(this.commitTimer);
    this.commitTimer = null;
  }

  private nextTransitionId(): number {
    this.lastTransitionId = (this.lastTransitionId % 0xffff) + 1;
    return this.lastTransitionId;
  }
}

// engine-independent: the DAVE delivery service without a server
/**
 * The DAVE delivery service and external sender (src/voice/dave) against @snazzah/davey as the client, without a
 * network: group creation (first valid commit wins), joins and leaves with re-keying, the sole-member reset, revoked
 * proposals, invalid commit/welcome recovery (op 31), downgrade and upgrade, and the validations the whitepaper
 * assigns to the server (key packages and commits).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import Davey from '@snazzah/davey';
import { DaveGroup } from '../src/voice/dave/group.js';
import { ExternalSender, Reader, idBytes, parseKeyPackage, pointOf, signWithLabel, varint, vec } from '../src/voice/dave/codec.js';

const CHANNEL = '1234567890123456789';
const uid = (n: number) => String(100000000000000000n + BigInt(n));

interface Client {
  userId: string;
  session: InstanceType<typeof Davey.DAVESession>;
  connected: Set<string>;
  transitions: number[];
  errors: string[];
  /** Ops received, in order. */
  ops: number[];
  /** When set, op 28 payloads are handed here instead of being sent. */
  holdCommit?: (payload: Buffer) => void;
}

/** A room of davey clients around one DaveGroup; messages are queued both ways, like sockets. */
class Room {
  readonly clients = new Map<string, Client>();
  readonly log: string[] = [];
  readonly ready = new Map<string, boolean>();
  private queue: (() => void)[] = [];
  readonly group: DaveGroup;

  constructor(timings = { transitionMs: 1000, commitMs: 3000, batchMs: 5 }) {
    this.group = new DaveGroup(
      CHANNEL,
      new ExternalSender(),
      {
        json: (u, op, d) => this.queue.push(() => this.onJson(u, op, d)),
        binary: (u, op, p) => this.queue.push(() => this.onBinary(u, op, p)),
        mediaReady: (u, r) => this.ready.set(u, r),
        debug: (m) => this.log.push(m),
      },
      timings,
    );
  }

  /** Op 11 both ways, op 4 → the group sends op 25, the client sends its key package. */
  join(userId: string): Client {
    const c: Client = {
      userId,
      session: new Davey.DAVESession(1, userId, CHANNEL),
      connected: new Set(this.clients.keys()),
      transitions: [],
      errors: [],
      ops: [],
    };
    for (const o of this.clients.values()) o.connected.add(userId);
    this.clients.set(userId, c);
    this.group.join(userId);
    const kp = c.session.getSerializedKeyPackage();
    this.queue.push(() => this.group.keyPackage(userId, kp));
    return c;
  }

  leave(userId: string): void {
    this.clients.delete(userId);
    for (const o of this.clients.values()) o.connected.delete(userId);
    this.group.leave(userId);
  }

  private guard(c: Client | undefined, op: number, fn: (c: Client) => void): void {
    if (!c) return;
    c.ops.push(op);
    try {
      fn(c);
    } catch (err) {
      c.errors.push(`op ${op}: ${(err as Error).message}`);
    }
  }

  private onJson(u: string, op: number, d: any): void {
    this.guard(this.clients.get(u), op, (c) => {
      if (op === 24 && d.epoch === 1) this.reinit(c);
      else if (op === 21 && d.transition_id !== 0) this.queue.push(() => this.group.transitionReady(u, d.transition_id));
      else if (op === 22) c.transitions.push(d.transition_id);
    });
  }

  private reinit(c: Client): void {
    c.session.reinit(1, c.userId, CHANNEL);
    const kp = c.session.getSerializedKeyPackage();
    this.queue.push(() => this.group.keyPackage(c.userId, kp));
  }

  private onBinary(u: string, op: number, p: Buffer): void {
    this.guard(this.clients.get(u), op, (c) => {
      if (op === 25) c.session.setExternalSender(p);
      else if (op === 27) {
        const r = c.session.processProposals(p[0] as 0 | 1, p.subarray(1), [...c.connected]);
        if (!r.commit) return;
        const payload = r.welcome ? Buffer.concat([r.commit, r.welcome]) : r.commit;
        if (c.holdCommit) c.holdCommit(payload);
        else this.queue.push(() => this.group.commitWelcome(u, payload));
      } else if (op === 29 || op === 30) {
        const id = p.readUInt16BE(0);
        try {
          if (op === 29) c.session.processCommit(p.subarray(2));
          else c.session.processWelcome(p.subarray(2));
        } catch (err) {
          c.errors.push(`op ${op}: ${(err as Error).message}`);
          this.queue.push(() => this.group.invalid(u, id));
          this.reinit(c);
          return;
        }
        this.queue.push(() => this.group.transitionReady(u, id));
      }
    });
  }

  send(fn: () => void): void {
    this.queue.push(fn);
  }

  /** Delivers messages until nothing moves for a while (timers included). */
  async settle(quietMs = 150): Promise<void> {
    let idleSince = Date.now();
    while (Date.now() - idleSince < quietMs) {
      if (this.queue.length) {
        this.queue.shift()!();
        idleSince = Date.now();
      } else await new Promise((r) => setTimeout(r, 5));
    }
  }

  /** Every client in one group at the same epoch, same privacy code, same members. */
  agreed(ids = [...this.clients.keys()]) {
    const cs = ids.map((id) => this.clients.get(id)!);
    const epochs = new Set(cs.map((c) => String(c.session.epoch)));
    const codes = new Set(cs.map((c) => (c.session.ready ? c.session.voicePrivacyCode : '')));
    const members = new Set(cs.map((c) => c.session.getUserIds().sort().join(',')));
    assert.equal(epochs.size, 1, `one epoch: ${[...epochs]}; ${this.log.join(' | ')}`);
    assert.equal(codes.size, 1, 'one privacy code');
    assert.ok([...codes][0], `a code; ${this.log.join(' | ')}`);
    assert.deepEqual([...members], [[...ids].sort().join(',')]);
    for (const c of cs) assert.deepEqual(c.errors, [], `${c.userId} errors`);
    // The DS roster matches the clients' own leaf indices.
    const roster = this.group.roster();
    for (const c of cs) assert.equal(roster[c.session.ownLeafIndex!], c.userId, `leaf of ${c.userId}`);
    return { epoch: BigInt([...epochs][0]), code: [...codes][0] };
  }

  close(): void {
    this.group.close();
  }
}

describe('DAVE delivery service and external sender (davey as the client)', { timeout: 60_000 }, () => {
  test('flow A: pending members get each other as Adds; the first valid commit wins; later ones are dropped', async () => {
    const r = new Room();
    for (let i = 1; i <= 3; i++) r.join(uid(i));
    await r.settle();
    const { epoch } = r.agreed();
    assert.equal(epoch, 1n);
    assert.equal(r.group.epoch, 1n);
    assert.ok(
      r.log.some((m) => /dropped commit .*: nothing to commit|dropped commit/.test(m)),
      'losing commits dropped',
    );
    for (const c of r.clients.values()) assert.ok(c.transitions.length === 1 && c.transitions[0] > 0, 'op 22 executed');
    for (const id of r.clients.keys()) assert.equal(r.ready.get(id), true, 'media ready');
    r.close();
  });

  test('flows B and C: a join and a leave each re-key the group (new epoch, new code); a sole member is reset (D)', async () => {
    const r = new Room();
    r.join(uid(1));
    r.join(uid(2));
    await r.settle();
    const first = r.agreed();
    const c3 = r.join(uid(3));
    await r.settle();
    const second = r.agreed();
    assert.equal(second.epoch, first.epoch + 1n);
    assert.notEqual(second.code, first.code);
    assert.ok(c3.ops.indexOf(30) >= 0 && !c3.ops.includes(27), 'the joiner gets a welcome, never proposals');
    r.leave(uid(1));
    await r.settle();
    const third = r.agreed();
    assert.equal(third.epoch, second.epoch + 1n);
    assert.deepEqual(r.group.roster().filter(Boolean).sort(), [uid(2), uid(3)].sort());
    // One member would remain: no commit; op 24 (epoch 1) and op 21 (transition 0) re-initialise it.
    const c2 = r.clients.get(uid(2))!;
    const before = c2.ops.length;
    r.leave(uid(3));
    await r.settle();
    assert.deepEqual(c2.ops.slice(before), [24, 21], 'sole-member reset');
    assert.equal(r.group.established, false);
    assert.deepEqual(c2.errors, []);
    // The next joiner creates the group anew with it (flow A).
    r.join(uid(4));
    await r.settle();
    assert.equal(r.agreed().epoch, 1n);
    r.close();
  });

  test('a pending member leaving before the commit: its Add is revoked (op 27 revoke)', async () => {
    const r = new Room();
    r.join(uid(1));
    r.join(uid(2));
    await r.settle();
    r.agreed();
    const held: Buffer[] = [];
    const seen = new Map([...r.clients.values()].map((c) => [c.userId, c.ops.length]));
    for (const c of r.clients.values()) c.holdCommit = (p) => held.push(p);
    r.join(uid(3));
    await r.settle();
    assert.ok(held.length >= 1, 'members committed the Add');
    r.leave(uid(3));
    await r.settle();
    for (const c of r.clients.values()) {
      delete c.holdCommit;
      assert.deepEqual(c.ops.slice(seen.get(c.userId)), [27, 27], 'append then revoke');
    }
    // The commit made before the revoke is no longer valid.
    r.group.commitWelcome(uid(1), held[0]);
    assert.match(r.log.at(-1)!, /dropped commit/);
    assert.equal(r.group.busy, false);
    r.join(uid(5));
    await r.settle();
    assert.equal(r.agreed().epoch, 2n);
    r.close();
  });

  test('commit validation: wrong epoch, wrong group, missing references and tampered paths are dropped', async () => {
    const r = new Room();
    r.join(uid(1));
    r.join(uid(2));
    await r.settle();
    r.agreed();
    const held: { user: string; payload: Buffer }[] = [];
    for (const c of r.clients.values()) c.holdCommit = (p) => held.push({ user: c.userId, payload: p });
    r.join(uid(3));
    await r.settle();
    const { user, payload } = held[0];
    const epochAt = 4 + 1 + 8; // version, wire format, group id <V> (8 bytes)
    const wrongEpoch = Buffer.from(payload);
    wrongEpoch.writeBigUInt64BE(7n, epochAt);
    const wrongGroup = Buffer.from(payload);
    wrongGroup[5] ^= 1;
    const noWelcome = payload.subarray(0, payload.length - 1); // truncated welcome
    const otherUser = [...r.clients.keys()].find((u) => u !== user && u !== uid(3))!;
    for (const [bad, from, why] of [
      [wrongEpoch, user, /epoch/],
      [wrongGroup, user, /group id/],
      [noWelcome, user, /truncated|welcome/],
      [payload, otherUser, /leaf|cover|unknown/],
    ] as const) {
      r.group.commitWelcome(from, bad);
      assert.match(r.log.at(-1)!, why);
      assert.equal(r.group.epoch, 2n - 1n, 'nothing applied');
    }
    r.group.commitWelcome(user, payload);
    for (const c of r.clients.values()) delete c.holdCommit;
    await r.settle();
    assert.equal(r.agreed().epoch, 2n);
    r.close();
  });

  test('key package validation: identity must be the user id, lifetime [0, 2^64-1], both signatures valid', () => {
    const s = new Davey.DAVESession(1, uid(1), CHANNEL);
    const kp = s.getSerializedKeyPackage();
    assert.ok(parseKeyPackage(kp, uid(1)));
    assert.throws(() => parseKeyPackage(kp, uid(2)), /identity/);
    const tampered = Buffer.from(kp);
    tampered[tampered.length - 10] ^= 0xff;
    assert.throws(() => parseKeyPackage(tampered, uid(1)), /signature|truncated|varint/);
    assert.throws(() => parseKeyPackage(Buffer.concat([kp, Buffer.from([0])]), uid(1)), /trailing/);
    // A well-signed package with another lifetime is refused too.
    assert.throws(() => parseKeyPackage(ownKeyPackage(uid(1), 0n, 1000n), uid(1)), /lifetime/);
    assert.ok(parseKeyPackage(ownKeyPackage(uid(1), 0n, 0xffffffffffffffffn), uid(1)), 'the builder itself is sound');
    // The MLSMessage-wrapped form is accepted as well.
    assert.ok(parseKeyPackage(Buffer.concat([Buffer.from([0, 1, 0, 5]), kp]), uid(1)));
    // Varints must be minimal.
    assert.throws(() => new Reader(Buffer.from([0x40, 0x05])).varint(), /non-minimal/);
    assert.equal(new Reader(varint(300)).varint(), 300);
    // A group ignores a bad key package (no proposals go out).
    const r = new Room();
    r.join(uid(1));
    r.group.keyPackage(uid(1), Buffer.from(tampered));
    assert.match(r.log.at(-1)!, /dropped key package/);
    r.close();
  });

  test('op 31 (invalid commit or welcome): the member is removed and re-added in one commit (E)', async () => {
    const r = new Room();
    for (let i = 1; i <= 3; i++) r.join(uid(i));
    await r.settle();
    const before = r.agreed();
    const c3 = r.clients.get(uid(3))!;
    // The client flags the last transition as invalid and re-initialises with a fresh key package.
    r.send(() => r.group.invalid(uid(3), c3.transitions.at(-1)!));
    c3.session.reinit(1, uid(3), CHANNEL);
    const kp = c3.session.getSerializedKeyPackage();
    r.send(() => r.group.keyPackage(uid(3), kp));
    await r.settle();
    const after = r.agreed();
    assert.equal(after.epoch, before.epoch + 1n, 'remove and add rode one commit');
    r.close();
  });

  test('downgrade to transport-only (op 21 v0, op 23, op 22) and upgrade again (op 24, new group)', async () => {
    const r = new Room();
    r.join(uid(1));
    r.join(uid(2));
    await r.settle();
    r.agreed();
    r.group.downgrade();
    await r.settle();
    assert.equal(r.group.version, 0);
    for (const c of r.clients.values()) {
      assert.deepEqual(c.ops.slice(-2), [21, 22]);
      assert.equal(r.ready.get(c.userId), false, 'no DAVE media forwarded in a transport-only room');
    }
    r.group.upgrade();
    await r.settle();
    assert.equal(r.group.version, 1);
    assert.equal(r.agreed().epoch, 1n);
    for (const id of r.clients.keys()) assert.equal(r.ready.get(id), true);
    r.close();
  });
});

/** A KeyPackage built here (own P-256 key), to test checks davey never violates. */
function ownKeyPackage(userId: string, notBefore: bigint, notAfter: bigint): Buffer {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const u16 = (n: number) => Buffer.from([n >> 8, n & 0xff]);
  const u64 = (n: bigint) => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64BE(n);
    return b;
  };
  const hpke = pointOf(crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey);
  const leafTbs = Buffer.concat([
    vec(hpke),
    vec(pointOf(publicKey)),
    u16(1),
    vec(idBytes(userId)),
    vec(Buffer.concat([u16(1)])),
    vec(u16(2)),
    vec(Buffer.alloc(0)),
    vec(Buffer.alloc(0)),
    vec(u16(1)),
    Buffer.from([1]),
    u64(notBefore),
    u64(notAfter),
    vec(Buffer.alloc(0)),
  ]);
  const leaf = Buffer.concat([leafTbs, vec(signWithLabel(privateKey, 'LeafNodeTBS', leafTbs))]);
  const tbs = Buffer.concat([u16(1), u16(2), vec(hpke), leaf, vec(Buffer.alloc(0))]);
  return Buffer.concat([tbs, vec(signWithLabel(privateKey, 'KeyPackageTBS', tbs))]);
}

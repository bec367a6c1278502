import crypto from 'node:crypto';

/**
 * The slice of MLS (RFC 9420, ciphersuite 2: P-256, SHA-256) that the DAVE delivery service and external sender
 * needs: varint vectors, the ExternalSender package, external Add/Remove proposals and their references, KeyPackage
 * parsing and verification, and a structural parse of commits and welcomes. No group secrets are ever involved.
 */
export class DaveError extends Error {}

const MLS10 = 1;
const SUITE = 2; // MLS_128_DHKEMP256_AES128GCM_SHA256_P256
const WIRE_PUBLIC = 1;
const WIRE_KEY_PACKAGE = 5;
const CRED_BASIC = 1;
const SOURCE_KEY_PACKAGE = 1;
const SOURCE_COMMIT = 3;
const CONTENT_PROPOSAL = 2;
const CONTENT_COMMIT = 3;
const SENDER_MEMBER = 1;
const SENDER_EXTERNAL = 2;
const PROPOSAL_ADD = 1;
const PROPOSAL_REMOVE = 3;
const REF_REFERENCE = 2;
const U64_MAX = 0xffffffffffffffffn;

// ---- encoding ------------------------------------------------------------------------------------------------------

export function varint(n: number): Buffer {
  if (n < 0x40) return Buffer.from([n]);
  if (n < 0x4000) return Buffer.from([0x40 | (n >> 8), n & 0xff]);
  if (n < 0x40000000) {
    const b = Buffer.alloc(4);
    b.writeUInt32BE((0x80000000 | n) >>> 0);
    return b;
  }
  throw new DaveError('vector too long');
}
export const vec = (b: Uint8Array) => Buffer.concat([varint(b.length), b]);
const u8 = (n: number) => Buffer.from([n]);
const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};
const u64 = (n: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(n);
  return b;
};
const label = (l: string) => vec(Buffer.from(`MLS 1.0 ${l}`));

/** A cursor over MLS bytes; every read checks bounds and varints must be minimal. */
export class Reader {
  pos = 0;
  constructor(readonly buf: Buffer) {}
  private need(n: number) {
    if (this.pos + n > this.buf.length) throw new DaveError('truncated');
  }
  u8() {
    this.need(1);
    return this.buf[this.pos++];
  }
  u16() {
    this.need(2);
    const v = this.buf.readUInt16BE(this.pos);
    this.pos += 2;
    return v;
  }
  u32() {
    this.need(4);
    const v = this.buf.readUInt32BE(this.pos);
    this.pos += 4;
    return v;
  }
  u64() {
    this.need(8);
    const v = this.buf.readBigUInt64BE(this.pos);
    this.pos += 8;
    return v;
  }
  bytes(n: number) {
    this.need(n);
    const v = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }
  varint(): number {
    const first = this.u8();
    const prefix = first >> 6;
    if (prefix === 0) return first;
    if (prefix === 1) {
      const v = ((first & 0x3f) << 8) | this.u8();
      if (v < 0x40) throw new DaveError('non-minimal varint');
      return v;
    }
    if (prefix === 2) {
      const rest = this.bytes(3);
      const v = (first & 0x3f) * 0x1000000 + (rest[0] << 16) + (rest[1] << 8) + rest[2];
      if (v < 0x4000) throw new DaveError('non-minimal varint');
      return v;
    }
    throw new DaveError('invalid varint');
  }
  vec(): Buffer {
    return this.bytes(this.varint());
  }
  /** A vector read as a nested reader. */
  sub(): Reader {
    return new Reader(this.vec());
  }
  get done() {
    return this.pos === this.buf.length;
  }
  end(what: string) {
    if (!this.done) throw new DaveError(`trailing bytes after ${what}`);
  }
}

// ---- keys and signatures -------------------------------------------------------------------------------------------

/** A P-256 public key from its 65-byte uncompressed point. */
export function publicKeyFromPoint(point: Buffer): crypto.KeyObject {
  if (point.length !== 65 || point[0] !== 4) throw new DaveError('signature key is not an uncompressed P-256 point');
  const b64 = (b: Buffer) => b.toString('base64url');
  try {
    return crypto.createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64(point.subarray(1, 33)), y: b64(point.subarray(33)) }, format: 'jwk' });
  } catch {
    throw new DaveError('signature key is not on P-256');
  }
}

export function pointOf(key: crypto.KeyObject): Buffer {
  const jwk = key.export({ format: 'jwk' });
  return Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')]);
}

/** SignWithLabel / VerifyWithLabel: ECDSA-SHA256 (DER) over `SignContent{ "MLS 1.0 " + label, content }`. */
export function signWithLabel(key: crypto.KeyObject, l: string, content: Buffer): Buffer {
  return crypto.sign('sha256', Buffer.concat([label(l), vec(content)]), { key, dsaEncoding: 'der' });
}
export function verifyWithLabel(key: crypto.KeyObject, l: string, content: Buffer, sig: Buffer): boolean {
  try {
    return crypto.verify('sha256', Buffer.concat([label(l), vec(content)]), { key, dsaEncoding: 'der' }, sig);
  } catch {
    return false;
  }
}

const refHash = (l: string, value: Buffer) =>
  crypto
    .createHash('sha256')
    .update(Buffer.concat([label(l), vec(value)]))
    .digest();

/** An identity as DAVE writes it: the 8-byte big-endian user id (or channel id for the group id). */
export const idBytes = (snowflake: string) => u64(BigInt(snowflake));

// ---- structures ----------------------------------------------------------------------------------------------------

export interface LeafNode {
  signatureKey: Buffer;
  credentialType: number;
  identity: Buffer;
  source: number;
  notBefore?: bigint;
  notAfter?: bigint;
  /** Encoded bytes before the signature (LeafNodeTBS for source key_package). */
  tbs: Buffer;
  signature: Buffer;
}

function readLeafNode(r: Reader): LeafNode {
  const start = r.pos;
  r.vec(); // encryption_key
  const signatureKey = Buffer.from(r.vec());
  const credentialType = r.u16();
  if (credentialType !== CRED_BASIC) throw new DaveError('credential is not basic');
  const identity = Buffer.from(r.vec());
  for (let i = 0; i < 5; i++) r.vec(); // capabilities: versions, cipher_suites, extensions, proposals, credentials
  const source = r.u8();
  let notBefore: bigint | undefined;
  let notAfter: bigint | undefined;
  if (source === SOURCE_KEY_PACKAGE) {
    notBefore = r.u64();
    notAfter = r.u64();
  } else if (source === SOURCE_COMMIT)
    r.vec(); // parent_hash
  else if (source !== 2) throw new DaveError('unknown leaf node source');
  r.vec(); // extensions
  const tbs = Buffer.from(r.buf.subarray(start, r.pos));
  const signature = Buffer.from(r.vec());
  return { signatureKey, credentialType, identity, source, notBefore, notAfter, tbs, signature };
}

export interface KeyPackage {
  /** The bare KeyPackage bytes (what an Add proposal carries). */
  raw: Buffer;
  leaf: LeafNode;
  /** KeyPackageRef: RefHash("MLS 1.0 KeyPackage Reference", KeyPackage). */
  ref: Buffer;
}

/**
 * Parses and verifies an op 26 key package (bare, or wrapped in an MLSMessage) as the whitepaper asks of the
 * server: mls10 and suite 2, a key_package leaf with a basic credential whose identity is exactly the user's 8-byte
 * id, the lifetime [0, 2^64-1], and both signatures (LeafNodeTBS, KeyPackageTBS) under the leaf's signature key.
 */
export function parseKeyPackage(payload: Buffer, userId: string): KeyPackage {
  let raw = payload;
  if (raw.length >= 4 && raw.readUInt16BE(0) === MLS10 && raw.readUInt16BE(2) === WIRE_KEY_PACKAGE) raw = raw.subarray(4);
  const r = new Reader(raw);
  if (r.u16() !== MLS10) throw new DaveError('key package version is not mls10');
  if (r.u16() !== SUITE) throw new DaveError('key package cipher suite is not 2');
  r.vec(); // init_key
  const leaf = readLeafNode(r);
  r.vec(); // extensions
  const tbs = raw.subarray(0, r.pos);
  const signature = r.vec();
  r.end('key package');
  if (leaf.source !== SOURCE_KEY_PACKAGE) throw new DaveError('leaf node source is not key_package');
  if (!leaf.identity.equals(idBytes(userId))) throw new DaveError('credential identity is not the user id');
  if (leaf.notBefore !== 0n || leaf.notAfter !== U64_MAX) throw new DaveError('key package lifetime is not [0, 2^64-1]');
  const key = publicKeyFromPoint(leaf.signatureKey);
  if (!verifyWithLabel(key, 'LeafNodeTBS', leaf.tbs, leaf.signature)) throw new DaveError('leaf node signature is invalid');
  if (!verifyWithLabel(key, 'KeyPackageTBS', tbs, signature)) throw new DaveError('key package signature is invalid');
  const bare = Buffer.from(raw);
  return { raw: bare, leaf, ref: refHash('KeyPackage Reference', bare) };
}

/** The external sender: one P-256 key pair and a basic credential. */
export class ExternalSender {
  readonly privateKey: crypto.KeyObject;
  readonly point: Buffer;
  constructor(readonly identity = Buffer.from('voice-gateway')) {
    const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    this.point = pointOf(publicKey);
  }

  /** Op 25 payload: `ExternalSender{ signature_key<V>, Credential{ basic, identity<V> } }`. */
  package(): Buffer {
    return Buffer.concat([vec(this.point), u16(CRED_BASIC), vec(this.identity)]);
  }

  /**
   * An external-sender proposal as a PublicMessage MLSMessage, and its ProposalRef. External senders sign
   * FramedContentTBS without GroupContext, so only the group id and epoch are needed.
   */
  proposal(groupId: Buffer, epoch: bigint, proposal: Buffer): { message: Buffer; ref: Buffer } {
    const content = Buffer.concat([vec(groupId), u64(epoch), u8(SENDER_EXTERNAL), u32(0), vec(Buffer.alloc(0)), u8(CONTENT_PROPOSAL), proposal]);
    const sig = signWithLabel(this.privateKey, 'FramedContentTBS', Buffer.concat([u16(MLS10), u16(WIRE_PUBLIC), content]));
    const auth = vec(sig);
    return {
      message: Buffer.concat([u16(MLS10), u16(WIRE_PUBLIC), content, auth]),
      ref: refHash('Proposal Reference', Buffer.concat([u16(WIRE_PUBLIC), content, auth])),
    };
  }
}

export const addProposal = (kp: KeyPackage) => Buffer.concat([u16(PROPOSAL_ADD), kp.raw]);
export const removeProposal = (leaf: number) => Buffer.concat([u16(PROPOSAL_REMOVE), u32(leaf)]);

/** Op 27 payloads: append concatenated MLSMessages, or revoke concatenated ProposalRefs. */
export const appendProposals = (messages: Buffer[]) => Buffer.concat([u8(0), vec(Buffer.concat(messages))]);
export const revokeProposals = (refs: Buffer[]) => Buffer.concat([u8(1), vec(Buffer.concat(refs.map((r) => vec(r))))]);

export interface WelcomeSecret {
  newMember: Buffer;
  raw: Buffer;
}
export interface Welcome {
  cipherSuite: number;
  secrets: WelcomeSecret[];
  /** `encrypted_group_info<V>` as encoded. */
  groupInfo: Buffer;
}

export interface CommitWelcome {
  /** The commit MLSMessage exactly as received (op 29 forwards it). */
  commit: Buffer;
  groupId: Buffer;
  epoch: bigint;
  leafIndex: number;
  refs: Buffer[];
  /** The committer's new leaf when the commit has an UpdatePath. */
  path: LeafNode | null;
  welcome: Welcome | null;
}

/**
 * Op 28: `MLSMessage(commit) ‖ [Welcome]`. The commit is parsed structurally to find where it ends: PublicMessage
 * from a member, only proposal references, an optional UpdatePath, then signature, confirmation tag, membership tag.
 */
export function parseCommitWelcome(payload: Buffer): CommitWelcome {
  const r = new Reader(payload);
  if (r.u16() !== MLS10) throw new DaveError('commit version is not mls10');
  if (r.u16() !== WIRE_PUBLIC) throw new DaveError('commit is not a PublicMessage');
  const groupId = Buffer.from(r.vec());
  const epoch = r.u64();
  if (r.u8() !== SENDER_MEMBER) throw new DaveError('commit sender is not a member');
  const leafIndex = r.u32();
  r.vec(); // authenticated_data
  if (r.u8() !== CONTENT_COMMIT) throw new DaveError('content is not a commit');
  const proposals = r.sub();
  const refs: Buffer[] = [];
  while (!proposals.done) {
    if (proposals.u8() !== REF_REFERENCE) throw new DaveError('commit carries an inline proposal');
    refs.push(Buffer.from(proposals.vec()));
  }
  let path: LeafNode | null = null;
  const hasPath = r.u8();
  if (hasPath === 1) {
    path = readLeafNode(r);
    r.vec(); // nodes
  } else if (hasPath !== 0) throw new DaveError('invalid optional');
  r.vec(); // signature
  r.vec(); // confirmation_tag
  r.vec(); // membership_tag
  const commit = Buffer.from(payload.subarray(0, r.pos));
  let welcome: Welcome | null = null;
  if (!r.done) {
    const cipherSuite = r.u16();
    const list = r.sub();
    const secrets: WelcomeSecret[] = [];
    while (!list.done) {
      const start = list.pos;
      const newMember = Buffer.from(list.vec());
      list.vec(); // kem_output
      list.vec(); // ciphertext
      secrets.push({ newMember, raw: Buffer.from(list.buf.subarray(start, list.pos)) });
    }
    const groupInfo = vec(r.vec());
    r.end('welcome');
    welcome = { cipherSuite, secrets, groupInfo };
  }
  return { commit, groupId, epoch, leafIndex, refs, path, welcome };
}

/** A Welcome re-encoded with only the secrets entry of one new member (op 30). */
export function welcomeFor(w: Welcome, ref: Buffer): Buffer {
  const mine = w.secrets.filter((s) => s.newMember.equals(ref)).map((s) => s.raw);
  return Buffer.concat([u16(w.cipherSuite), vec(Buffer.concat(mine)), w.groupInfo]);
}

/** Verifies an UpdatePath leaf (source commit): LeafNodeTBS then includes the group id and the leaf index. */
export function verifyCommitLeaf(leaf: LeafNode, groupId: Buffer, leafIndex: number): boolean {
  if (leaf.source !== SOURCE_COMMIT) return false;
  try {
    return verifyWithLabel(publicKeyFromPoint(leaf.signatureKey), 'LeafNodeTBS', Buffer.concat([leaf.tbs, vec(groupId), u32(leafIndex)]), leaf.signature);
  } catch {
    return false;
  }
}

export const transitionPrefix = (id: number) => u16(id);

import crypto from 'node:crypto';

/**
 * Transport encryption of RTP packets in the two current `rtpsize` modes. A datagram is
 * `header ‖ ciphertext ‖ tag(16) ‖ nonce counter (u32 BE)`; the header (RTP fixed header, CSRCs and the extension
 * preamble) is the AAD, the extension body is encrypted with the payload.
 */
export const MODES = ['aead_aes256_gcm_rtpsize', 'aead_xchacha20_poly1305_rtpsize'] as const;
export type Mode = (typeof MODES)[number];
/** Discontinued on 2024-11-18: refused with 4016. */
export const DEPRECATED_MODES = [
  'xsalsa20_poly1305',
  'xsalsa20_poly1305_suffix',
  'xsalsa20_poly1305_lite',
  'xsalsa20_poly1305_lite_rtpsize',
  'aead_aes256_gcm',
];

export const isMode = (m: unknown): m is Mode => typeof m === 'string' && (MODES as readonly string[]).includes(m);

const TAG = 16;
const NONCE = 4;

/** Length of the unencrypted part: 12 bytes, CSRCs, and the 4-byte extension preamble when X is set. */
export function rtpHeaderLength(pkt: Buffer): number {
  return 12 + 4 * (pkt[0] & 0x0f) + (pkt[0] & 0x10 ? 4 : 0);
}

export interface RtpCipher {
  /** Decrypts a datagram; null when it does not authenticate. */
  open(pkt: Buffer, headerLength: number): Buffer | null;
  /** Encrypts `plaintext` under `header` with nonce counter `n`; returns the datagram. */
  seal(header: Buffer, plaintext: Buffer, n: number): Buffer;
}

/**
 * `gcmTables` selects the table-driven JS GCM sealer (`--voice-gcm-tables`): faster, but its GHASH table is derived
 * from the key and indexed by secret-dependent bytes, which leaks H through cache timing to code sharing the host, and
 * a leaked H lets an attacker forge tags. The default seals with node:crypto (OpenSSL: AES-NI and carry-less multiply,
 * no secret-indexed tables).
 */
export function createRtpCipher(mode: Mode, key: Buffer, opts: { gcmTables?: boolean } = {}): RtpCipher {
  return mode === 'aead_aes256_gcm_rtpsize' ? new AesGcmCipher(key, opts.gcmTables === true) : new XChaChaCipher(key);
}

class AesGcmCipher implements RtpCipher {
  private readonly iv = Buffer.alloc(12);
  private readonly fast: GcmSealer | null;
  constructor(
    private readonly key: Buffer,
    tables: boolean,
  ) {
    this.fast = tables ? new GcmSealer(key) : null;
  }

  open(pkt: Buffer, h: number): Buffer | null {
    if (pkt.length < h + TAG + NONCE) return null;
    const end = pkt.length - NONCE;
    pkt.copy(this.iv, 0, end, end + 4);
    try {
      const d = crypto.createDecipheriv('aes-256-gcm', this.key, this.iv);
      d.setAAD(pkt.subarray(0, h));
      d.setAuthTag(pkt.subarray(end - TAG, end));
      const out = d.update(pkt.subarray(h, end - TAG));
      d.final();
      return out;
    } catch {
      return null;
    }
  }

  seal(header: Buffer, plaintext: Buffer, n: number): Buffer {
    return this.fast?.seal(header, plaintext, n) ?? this.sealNode(header, plaintext, n);
  }

  private sealNode(header: Buffer, plaintext: Buffer, n: number): Buffer {
    this.iv.writeUInt32BE(n >>> 0, 0);
    const c = crypto.createCipheriv('aes-256-gcm', this.key, this.iv);
    c.setAAD(header);
    const out = Buffer.allocUnsafe(header.length + plaintext.length + TAG + NONCE);
    header.copy(out, 0);
    const ct = c.update(plaintext);
    c.final();
    ct.copy(out, header.length);
    c.getAuthTag().copy(out, header.length + plaintext.length);
    out.writeUInt32BE(n >>> 0, out.length - NONCE);
    return out;
  }
}

// ---- AES-256-GCM sealing without a cipher object per packet ------------------------------------------------------

/** Nonces whose keystream is computed in one AES call, and blocks per nonce (J0 for the tag, then 24 data blocks). */
const POOL = 16;
const BLOCKS = 25;
const MAX_FAST = (BLOCKS - 1) * 16;

/** R8[b]: what multiplying by x^8 feeds back (GF(2^128), GCM bit order) for the byte b shifted out. */
const R8 = new Int32Array(256);
function mulX(v: number[]): number[] {
  const r = [v[0] >>> 1, (v[1] >>> 1) | (v[0] << 31), (v[2] >>> 1) | (v[1] << 31), (v[3] >>> 1) | (v[2] << 31)];
  if (v[3] & 1) r[0] ^= 0xe1000000;
  return r;
}
for (let b = 0; b < 256; b++) {
  let v = [0, 0, 0, b];
  for (let i = 0; i < 8; i++) v = mulX(v);
  R8[b] = v[0];
}

/**
 * AES-256-GCM encryption of RTP packets for one receiver key, as NIST SP 800-38D defines it, built so no object is
 * created per packet: the CTR keystream (and the tag mask E(J0)) of the next 16 nonce counters comes from one call of
 * a long-lived AES-256-ECB cipher (our counters to a receiver are sequential), and GHASH runs in JS with a 4 KiB
 * table of multiples of H (8 bits at a time). It is about twice as fast as createCipheriv per packet; tests check
 * it byte for byte against node:crypto. Table lookups depend on H (cache timing on a shared host can leak it), so it
 * is used only behind the operator flag `--voice-gcm-tables`; decryption stays on node:crypto. Payloads over 384 bytes
 * fall back.
 */
export class GcmSealer {
  private readonly ecb: crypto.Cipher;
  private readonly M = new Int32Array(1024);
  private readonly counters = Buffer.alloc(16 * BLOCKS * POOL);
  private readonly lenBlock = Buffer.alloc(16);
  private readonly z = new Int32Array(4);
  private ks: Buffer = Buffer.alloc(0);
  private poolStart = -1;

  constructor(key: Buffer) {
    this.ecb = crypto.createCipheriv('aes-256-ecb', key, null);
    this.ecb.setAutoPadding(false);
    const h = this.ecb.update(Buffer.alloc(16));
    let v = [h.readInt32BE(0), h.readInt32BE(4), h.readInt32BE(8), h.readInt32BE(12)];
    const single: number[][] = [];
    for (let bit = 0; bit < 8; bit++) {
      single.push(v);
      v = mulX(v);
    }
    // M[b] = (byte b as the first byte of a block) · H; 0x80 is the polynomial 1, so M[0x80] = H.
    for (let b = 1; b < 256; b++) for (let bit = 0; bit < 8; bit++) if (b & (0x80 >> bit)) for (let i = 0; i < 4; i++) this.M[b * 4 + i] ^= single[bit][i];
    for (let k = 0; k < POOL; k++) for (let b = 0; b < BLOCKS; b++) this.counters.writeUInt32BE(b + 1, (k * BLOCKS + b) * 16 + 12);
  }

  private refill(n: number): void {
    for (let k = 0; k < POOL; k++) {
      const v = (n + k) >>> 0;
      for (let b = 0; b < BLOCKS; b++) this.counters.writeUInt32BE(v, (k * BLOCKS + b) * 16);
    }
    this.ks = this.ecb.update(this.counters);
    this.poolStart = n;
  }

  /** Absorbs `len` bytes of `buf` from `off` (the last block zero-padded) into the GHASH state. */
  private ghash(buf: Buffer, off: number, len: number): void {
    const M = this.M;
    const z = this.z;
    let z0 = z[0],
      z1 = z[1],
      z2 = z[2],
      z3 = z[3];
    const end = off + len;
    for (let p = off; p < end; p += 16) {
      let y0: number, y1: number, y2: number, y3: number;
      if (p + 16 <= end) {
        y0 = z0 ^ ((buf[p] << 24) | (buf[p + 1] << 16) | (buf[p + 2] << 8) | buf[p + 3]);
        y1 = z1 ^ ((buf[p + 4] << 24) | (buf[p + 5] << 16) | (buf[p + 6] << 8) | buf[p + 7]);
        y2 = z2 ^ ((buf[p + 8] << 24) | (buf[p + 9] << 16) | (buf[p + 10] << 8) | buf[p + 11]);
        y3 = z3 ^ ((buf[p + 12] << 24) | (buf[p + 13] << 16) | (buf[p + 14] << 8) | buf[p + 15]);
      } else {
        const w = [0, 0, 0, 0];
        for (let i = 0; p + i < end; i++) w[i >> 2] |= buf[p + i] << (24 - 8 * (i & 3));
        y0 = z0 ^ w[0];
        y1 = z1 ^ w[1];
        y2 = z2 ^ w[2];
        y3 = z3 ^ w[3];
      }
      // (y · H) by Horner over the bytes, last to first: a = a · x^8 ⊕ M[byte].
      let a0 = 0,
        a1 = 0,
        a2 = 0,
        a3 = 0;
      for (let w = 3; w >= 0; w--) {
        const y = w === 3 ? y3 : w === 2 ? y2 : w === 1 ? y1 : y0;
        for (let s = 0; s < 32; s += 8) {
          const r = R8[a3 & 0xff];
          a3 = (a3 >>> 8) | (a2 << 24);
          a2 = (a2 >>> 8) | (a1 << 24);
          a1 = (a1 >>> 8) | (a0 << 24);
          a0 = (a0 >>> 8) ^ r;
          const i = ((y >>> s) & 0xff) << 2;
          a0 ^= M[i];
          a1 ^= M[i + 1];
          a2 ^= M[i + 2];
          a3 ^= M[i + 3];
        }
      }
      z0 = a0;
      z1 = a1;
      z2 = a2;
      z3 = a3;
    }
    z[0] = z0;
    z[1] = z1;
    z[2] = z2;
    z[3] = z3;
  }

  /** The datagram `header ‖ ct ‖ tag ‖ n`, or null when the payload is too long for the keystream pool. */
  seal(header: Buffer, pt: Buffer, n: number): Buffer | null {
    const h = header.length;
    const len = pt.length;
    if (len > MAX_FAST) return null;
    n >>>= 0;
    if (this.poolStart < 0 || n < this.poolStart || n >= this.poolStart + POOL) this.refill(n);
    const base = (n - this.poolStart) * BLOCKS * 16;
    const ks = this.ks;
    const out = Buffer.allocUnsafe(h + len + TAG + NONCE);
    header.copy(out, 0);
    for (let i = 0; i < len; i++) out[h + i] = pt[i] ^ ks[base + 16 + i];
    const z = this.z;
    z.fill(0);
    this.ghash(out, 0, h);
    this.ghash(out, h, len);
    this.lenBlock.writeUInt32BE(h * 8, 4);
    this.lenBlock.writeUInt32BE(len * 8, 12);
    this.ghash(this.lenBlock, 0, 16);
    const t = h + len;
    for (let k = 0; k < 4; k++) {
      const w = z[k];
      const o = t + 4 * k;
      const m = base + 4 * k;
      out[o] = (w >>> 24) ^ ks[m];
      out[o + 1] = ((w >>> 16) & 0xff) ^ ks[m + 1];
      out[o + 2] = ((w >>> 8) & 0xff) ^ ks[m + 2];
      out[o + 3] = (w & 0xff) ^ ks[m + 3];
    }
    out.writeUInt32BE(n, t + TAG);
    return out;
  }
}

const ZERO12 = Buffer.alloc(12);

/**
 * XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha): subkey = HChaCha20(key, nonce[0..16]), then the IETF
 * ChaCha20-Poly1305 of node:crypto with nonce `0000 ‖ nonce[16..24]`. Here the 24-byte nonce is `N ‖ 20 zero bytes`,
 * so the inner nonce is all zeros and only the subkey changes per packet.
 */
class XChaChaCipher implements RtpCipher {
  private readonly nonce16 = Buffer.alloc(16);
  constructor(private readonly key: Buffer) {}

  private subkey(n: Buffer): Buffer {
    n.copy(this.nonce16, 0, 0, 4);
    return hchacha20(this.key, this.nonce16);
  }

  open(pkt: Buffer, h: number): Buffer | null {
    if (pkt.length < h + TAG + NONCE) return null;
    const end = pkt.length - NONCE;
    const ctLen = end - TAG - h;
    try {
      const d = crypto.createDecipheriv('chacha20-poly1305', this.subkey(pkt.subarray(end)), ZERO12, { authTagLength: TAG });
      d.setAAD(pkt.subarray(0, h), { plaintextLength: ctLen });
      d.setAuthTag(pkt.subarray(end - TAG, end));
      const out = d.update(pkt.subarray(h, end - TAG));
      d.final();
      return out;
    } catch {
      return null;
    }
  }

  seal(header: Buffer, plaintext: Buffer, n: number): Buffer {
    const out = Buffer.allocUnsafe(header.length + plaintext.length + TAG + NONCE);
    out.writeUInt32BE(n >>> 0, out.length - NONCE);
    const c = crypto.createCipheriv('chacha20-poly1305', this.subkey(out.subarray(out.length - NONCE)), ZERO12, { authTagLength: TAG });
    c.setAAD(header, { plaintextLength: plaintext.length });
    header.copy(out, 0);
    const ct = c.update(plaintext);
    c.final();
    ct.copy(out, header.length);
    c.getAuthTag().copy(out, header.length + plaintext.length);
    return out;
  }
}

const SIGMA = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574];
const rotl = (v: number, c: number) => (v << c) | (v >>> (32 - c));

/** HChaCha20: the ChaCha20 core (20 rounds, no feed-forward) over key and a 16-byte nonce; words 0–3 and 12–15. */
export function hchacha20(key: Uint8Array, nonce: Uint8Array): Buffer {
  const k = Buffer.from(key.buffer, key.byteOffset, 32);
  const n = Buffer.from(nonce.buffer, nonce.byteOffset, 16);
  let x0 = SIGMA[0],
    x1 = SIGMA[1],
    x2 = SIGMA[2],
    x3 = SIGMA[3];
  let x4 = k.readUInt32LE(0),
    x5 = k.readUInt32LE(4),
    x6 = k.readUInt32LE(8),
    x7 = k.readUInt32LE(12);
  let x8 = k.readUInt32LE(16),
    x9 = k.readUInt32LE(20),
    x10 = k.readUInt32LE(24),
    x11 = k.readUInt32LE(28);
  let x12 = n.readUInt32LE(0),
    x13 = n.readUInt32LE(4),
    x14 = n.readUInt32LE(8),
    x15 = n.readUInt32LE(12);
  for (let i = 0; i < 10; i++) {
    // columns
    x0 = (x0 + x4) | 0;
    x12 = rotl(x12 ^ x0, 16);
    x8 = (x8 + x12) | 0;
    x4 = rotl(x4 ^ x8, 12);
    x0 = (x0 + x4) | 0;
    x12 = rotl(x12 ^ x0, 8);
    x8 = (x8 + x12) | 0;
    x4 = rotl(x4 ^ x8, 7);
    x1 = (x1 + x5) | 0;
    x13 = rotl(x13 ^ x1, 16);
    x9 = (x9 + x13) | 0;
    x5 = rotl(x5 ^ x9, 12);
    x1 = (x1 + x5) | 0;
    x13 = rotl(x13 ^ x1, 8);
    x9 = (x9 + x13) | 0;
    x5 = rotl(x5 ^ x9, 7);
    x2 = (x2 + x6) | 0;
    x14 = rotl(x14 ^ x2, 16);
    x10 = (x10 + x14) | 0;
    x6 = rotl(x6 ^ x10, 12);
    x2 = (x2 + x6) | 0;
    x14 = rotl(x14 ^ x2, 8);
    x10 = (x10 + x14) | 0;
    x6 = rotl(x6 ^ x10, 7);
    x3 = (x3 + x7) | 0;
    x15 = rotl(x15 ^ x3, 16);
    x11 = (x11 + x15) | 0;
    x7 = rotl(x7 ^ x11, 12);
    x3 = (x3 + x7) | 0;
    x15 = rotl(x15 ^ x3, 8);
    x11 = (x11 + x15) | 0;
    x7 = rotl(x7 ^ x11, 7);
    // diagonals
    x0 = (x0 + x5) | 0;
    x15 = rotl(x15 ^ x0, 16);
    x10 = (x10 + x15) | 0;
    x5 = rotl(x5 ^ x10, 12);
    x0 = (x0 + x5) | 0;
    x15 = rotl(x15 ^ x0, 8);
    x10 = (x10 + x15) | 0;
    x5 = rotl(x5 ^ x10, 7);
    x1 = (x1 + x6) | 0;
    x12 = rotl(x12 ^ x1, 16);
    x11 = (x11 + x12) | 0;
    x6 = rotl(x6 ^ x11, 12);
    x1 = (x1 + x6) | 0;
    x12 = rotl(x12 ^ x1, 8);
    x11 = (x11 + x12) | 0;
    x6 = rotl(x6 ^ x11, 7);
    x2 = (x2 + x7) | 0;
    x13 = rotl(x13 ^ x2, 16);
    x8 = (x8 + x13) | 0;
    x7 = rotl(x7 ^ x8, 12);
    x2 = (x2 + x7) | 0;
    x13 = rotl(x13 ^ x2, 8);
    x8 = (x8 + x13) | 0;
    x7 = rotl(x7 ^ x8, 7);
    x3 = (x3 + x4) | 0;
    x14 = rotl(x14 ^ x3, 16);
    x9 = (x9 + x14) | 0;
    x4 = rotl(x4 ^ x9, 12);
    x3 = (x3 + x4) | 0;
    x14 = rotl(x14 ^ x3, 8);
    x9 = (x9 + x14) | 0;
    x4 = rotl(x4 ^ x9, 7);
  }
  const out = Buffer.allocUnsafe(32);
  out.writeInt32LE(x0, 0);
  out.writeInt32LE(x1, 4);
  out.writeInt32LE(x2, 8);
  out.writeInt32LE(x3, 12);
  out.writeInt32LE(x12, 16);
  out.writeInt32LE(x13, 20);
  out.writeInt32LE(x14, 24);
  out.writeInt32LE(x15, 28);
  return out;
}

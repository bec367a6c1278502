// engine-independent: voice media crypto without a server
/**
 * Voice media without a network: both rtpsize AEAD modes against reference implementations (node:crypto AES-GCM,
 * @noble/ciphers XChaCha20-Poly1305, the draft's HChaCha20 vector), the JS GCM sealer byte for byte, and the SFU:
 * IP discovery, forwarding with per-receiver re-encryption, no loop-back, source checks, replay window, muted
 * speakers, DAVE frames held from members outside the group, header extensions.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { GcmSealer, createRtpCipher, hchacha20, rtpHeaderLength, type Mode } from '../src/voice/media/aead.js';
import { Sfu, type MediaMember } from '../src/voice/media/sfu.js';

const AES: Mode = 'aead_aes256_gcm_rtpsize';
const XCHACHA: Mode = 'aead_xchacha20_poly1305_rtpsize';

function rtp(ssrc: number, seq: number, ext?: Buffer): Buffer {
  const h = Buffer.alloc(12);
  h[0] = ext ? 0x90 : 0x80;
  h[1] = 0x78;
  h.writeUInt16BE(seq, 2);
  h.writeUInt32BE(seq * 960, 4);
  h.writeUInt32BE(ssrc, 8);
  return ext ? Buffer.concat([h, Buffer.from([0xbe, 0xde, 0, ext.length / 4])]) : h;
}

describe('voice media: AEAD modes and the SFU', () => {
  test('HChaCha20 matches draft-irtf-cfrg-xchacha §2.2.1', () => {
    const key = Buffer.from([...Array(32).keys()]);
    const nonce = Buffer.from('000000090000004a0000000031415927', 'hex');
    assert.equal(hchacha20(key, nonce).toString('hex'), '82413b4227b27bfed30e42508a877d73a0f9e4d58a74a853c12ec41326d3ecdc');
  });

  test('XChaCha20-Poly1305 rtpsize matches @noble/ciphers both ways', () => {
    const key = crypto.randomBytes(32);
    const c = createRtpCipher(XCHACHA, key);
    for (const n of [1, 2, 0xffffffff]) {
      const header = rtp(100, n & 0xffff);
      const pt = crypto.randomBytes(73);
      const pkt = c.seal(header, pt, n);
      const nonce = Buffer.alloc(24);
      pkt.copy(nonce, 0, pkt.length - 4);
      assert.ok(Buffer.from(xchacha20poly1305(key, nonce, header).encrypt(pt)).equals(pkt.subarray(12, pkt.length - 4)));
      const theirs = Buffer.concat([header, xchacha20poly1305(key, nonce, header).encrypt(pt), pkt.subarray(pkt.length - 4)]);
      assert.ok(c.open(theirs, 12)!.equals(pt));
      theirs[14] ^= 1;
      assert.equal(c.open(theirs, 12), null, 'tampered packets do not open');
    }
  });

  test('the default AES-256-GCM sealer is node:crypto (no key-derived table) and equals a reference seal byte for byte; the table sealer only behind gcmTables', () => {
    const key = crypto.randomBytes(32);
    const ct = createRtpCipher(AES, key);
    const tables = createRtpCipher(AES, key, { gcmTables: true });
    assert.equal((ct as any).fast, null, 'no GHASH table by default');
    assert.ok((tables as any).fast, 'the table sealer when the operator asks for it');
    const iv = Buffer.alloc(12);
    for (const size of [0, 1, 15, 16, 17, 160, 384, 385, 1200]) {
      for (const n of [0, 1, 17, 0xffffffff]) {
        const header = crypto.randomBytes([12, 16, 20][size % 3]);
        const pt = crypto.randomBytes(size);
        iv.writeUInt32BE(n >>> 0, 0);
        const c = crypto.createCipheriv('aes-256-gcm', key, iv);
        c.setAAD(header);
        const ref = Buffer.concat([header, c.update(pt), c.final(), c.getAuthTag(), iv.subarray(0, 4)]);
        assert.ok(ct.seal(header, pt, n).equals(ref), `default, size ${size}, nonce ${n}`);
        assert.ok(tables.seal(header, pt, n).equals(ref), `tables, size ${size}, nonce ${n}`);
        assert.ok(ct.open(ref, header.length)!.equals(pt));
      }
    }
  });

  test('the JS AES-256-GCM sealer equals node:crypto byte for byte (all sizes, headers, nonce wrap)', () => {
    const key = crypto.randomBytes(32);
    const g = new GcmSealer(key);
    const iv = Buffer.alloc(12);
    const nonces = [1, 2, 3, 15, 16, 17, 40, 39, 1000, 0xfffffff0, 0xffffffff, 0];
    for (let size = 0; size <= 400; size += size < 40 ? 1 : 13) {
      for (const n of nonces) {
        const header = crypto.randomBytes([12, 16, 20][size % 3]);
        const pt = crypto.randomBytes(size);
        const out = g.seal(header, pt, n);
        if (size > 384) {
          assert.equal(out, null, 'long payloads fall back to node:crypto');
          continue;
        }
        iv.writeUInt32BE(n >>> 0, 0);
        const c = crypto.createCipheriv('aes-256-gcm', key, iv);
        c.setAAD(header);
        const ref = Buffer.concat([header, c.update(pt), c.final(), c.getAuthTag(), iv.subarray(0, 4)]);
        assert.ok(out!.equals(ref), `size ${size}, nonce ${n}`);
      }
    }
    const big = createRtpCipher(AES, key);
    const pt = crypto.randomBytes(1200);
    assert.ok(big.open(big.seal(rtp(1, 1), pt, 5), 12)!.equals(pt), 'fallback path');
  });

  test('SFU: discovery, re-encryption per receiver, no loop-back, source and replay checks, mute, DAVE frames', () => {
    const sent: { buf: Buffer; port: number; ip: string }[] = [];
    const events: unknown[] = [];
    const sfu = new Sfu(
      (buf, port, ip) => sent.push({ buf, port, ip }),
      (e) => events.push(e),
    );
    const keys = [0, 1, 2].map(() => crypto.randomBytes(32));
    const member = (i: number, patch: Partial<MediaMember> = {}): MediaMember => ({
      ssrc: 100 + i,
      userId: `u${i}`,
      room: 'r',
      crypto: { mode: i === 2 ? XCHACHA : AES, key: [...keys[i]] },
      canSpeak: true,
      daveReady: true,
      ...patch,
    });
    for (let i = 0; i < 3; i++) sfu.add(member(i));
    sfu.add({ ...member(0), ssrc: 999, room: 'elsewhere' });
    // IP discovery: 74 bytes, type 2, the address as seen, the port in the last two bytes.
    for (let i = 0; i < 3; i++) {
      const req = Buffer.alloc(74);
      req.writeUInt16BE(1, 0);
      req.writeUInt16BE(70, 2);
      req.writeUInt32BE(100 + i, 4);
      sfu.onDatagram(req, '127.0.0.1', 5000 + i);
    }
    assert.equal(sent.length, 3);
    const res = sent[0].buf;
    assert.equal(res.length, 74);
    assert.equal(res.readUInt16BE(0), 2);
    assert.equal(res.readUInt32BE(4), 100);
    assert.equal(res.subarray(8, res.indexOf(0, 8)).toString(), '127.0.0.1');
    assert.equal(res.readUInt16BE(72), 5000);
    assert.deepEqual(events[0], { type: 'discovered', ssrc: 100, ip: '127.0.0.1', port: 5000 });
    sent.length = 0;

    const a = createRtpCipher(AES, keys[0]);
    const opus = crypto.randomBytes(60);
    sfu.onDatagram(a.seal(rtp(100, 7), opus, 1), '127.0.0.1', 5000);
    assert.deepEqual(sent.map((s) => s.port).sort(), [5001, 5002], 'to every other member, never back');
    for (const s of sent) {
      const i = s.port - 5000;
      assert.ok(s.buf.subarray(0, 12).equals(rtp(100, 7)), 'RTP header kept');
      assert.ok(
        createRtpCipher(i === 2 ? XCHACHA : AES, keys[i])
          .open(s.buf, 12)!
          .equals(opus),
        `receiver ${i} decrypts with its own key`,
      );
      assert.equal(s.buf.readUInt32BE(s.buf.length - 4), 1, 'our own counter per receiver');
    }
    const count = () => {
      const n = sent.length;
      sent.length = 0;
      return n;
    };
    count();
    sfu.onDatagram(a.seal(rtp(100, 7), opus, 1), '127.0.0.1', 5000);
    assert.equal(count(), 0, 'replayed nonce dropped');
    sfu.onDatagram(a.seal(rtp(100, 8), opus, 3), '127.0.0.1', 5000);
    sfu.onDatagram(a.seal(rtp(100, 9), opus, 2), '127.0.0.1', 5000);
    assert.equal(count(), 4, 'reordered within the window accepted');
    sfu.onDatagram(a.seal(rtp(100, 10), opus, 100), '127.0.0.1', 5000);
    count();
    sfu.onDatagram(a.seal(rtp(100, 11), opus, 50), '127.0.0.1', 5000);
    assert.equal(count(), 0, 'too old dropped');
    sfu.onDatagram(a.seal(rtp(100, 12), opus, 101), '127.0.0.1', 5999);
    assert.equal(count(), 0, 'another source address dropped');
    const forged = a.seal(rtp(100, 13), opus, 102);
    forged[20] ^= 1;
    sfu.onDatagram(forged, '127.0.0.1', 5000);
    assert.equal(count(), 0, 'unauthenticated dropped');
    const rtcp = a.seal(rtp(100, 14), opus, 103);
    rtcp[1] = 200;
    sfu.onDatagram(rtcp, '127.0.0.1', 5000);
    assert.equal(count(), 0, 'not Opus RTP');
    sfu.onDatagram(Buffer.alloc(8), '127.0.0.1', 5000);
    assert.equal(count(), 0, 'keepalive');

    sfu.update(100, { canSpeak: false });
    sfu.onDatagram(a.seal(rtp(100, 15), opus, 104), '127.0.0.1', 5000);
    assert.equal(count(), 0, 'muted: not forwarded');
    sfu.update(100, { canSpeak: true });

    const dave = Buffer.concat([crypto.randomBytes(40), Buffer.from([0xfa, 0xfa])]);
    sfu.update(101, { daveReady: false });
    sfu.onDatagram(a.seal(rtp(100, 16), dave, 105), '127.0.0.1', 5000);
    assert.deepEqual(
      sent.map((s) => s.port),
      [5002],
      'DAVE frames only to members in the group',
    );
    count();
    sfu.onDatagram(a.seal(rtp(100, 17), Buffer.from([0xf8, 0xff, 0xfe]), 106), '127.0.0.1', 5000);
    assert.equal(count(), 2, 'silence (not DAVE) goes to everyone');

    // A header extension: its preamble is AAD, its body is encrypted with the payload and forwarded as is.
    const ext = Buffer.from([0x10, 0xaa, 0xbb, 0xcc]);
    const header = rtp(100, 18, ext);
    assert.equal(rtpHeaderLength(header), 16);
    sfu.update(101, { daveReady: true });
    sfu.onDatagram(a.seal(header, Buffer.concat([ext, opus]), 107), '127.0.0.1', 5000);
    const got = sent.find((s) => s.port === 5001)!;
    assert.ok(got.buf.subarray(0, 16).equals(header));
    assert.ok(
      createRtpCipher(AES, keys[1])
        .open(got.buf, 16)!
        .equals(Buffer.concat([ext, opus])),
    );
    count();

    sfu.remove(101);
    sfu.onDatagram(a.seal(rtp(100, 19), opus, 108), '127.0.0.1', 5000);
    assert.deepEqual(
      sent.map((s) => s.port),
      [5002],
    );
    assert.equal(sfu.stats.members, 3);
  });
});

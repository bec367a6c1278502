import crypto from 'node:crypto';

/** RTP with the voice gateway's `aead_aes256_gcm_rtpsize` transport encryption (node:crypto; no new crypto). */
export const MODE = 'aead_aes256_gcm_rtpsize';
const OPUS_PT = 0x78;
const TAG = 16;
const NONCE = 4;

export class RtpSender {
  private seq = Math.floor(Math.random() * 0xffff);
  private timestamp = Math.floor(Math.random() * 0xffffffff);
  private nonce = 0;

  constructor(
    private readonly ssrc: number,
    private readonly key: Buffer,
  ) {}

  /** One datagram: header (the AAD) ‖ AES-256-GCM(payload) ‖ tag ‖ nonce counter. */
  packet(payload: Buffer, samples: number): Buffer {
    this.seq = (this.seq + 1) & 0xffff;
    this.timestamp = (this.timestamp + samples) >>> 0;
    this.nonce = (this.nonce + 1) >>> 0;
    const header = Buffer.alloc(12);
    header[0] = 0x80;
    header[1] = OPUS_PT;
    header.writeUInt16BE(this.seq, 2);
    header.writeUInt32BE(this.timestamp, 4);
    header.writeUInt32BE(this.ssrc, 8);
    const iv = Buffer.alloc(12);
    iv.writeUInt32BE(this.nonce, 0);
    const c = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    c.setAAD(header);
    const ct = Buffer.concat([c.update(payload), c.final()]);
    const n = Buffer.alloc(NONCE);
    n.writeUInt32BE(this.nonce, 0);
    return Buffer.concat([header, ct, c.getAuthTag(), n]);
  }
}

/** Opens a datagram: the SSRC and the payload (the header extension body removed), or null. */
export function openPacket(pkt: Buffer, key: Buffer): { ssrc: number; sequence: number; payload: Buffer } | null {
  if (pkt.length < 12 + TAG + NONCE || pkt[0] >> 6 !== 2) return null;
  const h = 12 + 4 * (pkt[0] & 0x0f) + (pkt[0] & 0x10 ? 4 : 0);
  if (pkt.length < h + TAG + NONCE) return null;
  const end = pkt.length - NONCE;
  const iv = Buffer.alloc(12);
  pkt.copy(iv, 0, end, end + NONCE);
  try {
    const d = crypto.createDecipheriv('aes-256-gcm', key, iv);
    d.setAAD(pkt.subarray(0, h));
    d.setAuthTag(pkt.subarray(end - TAG, end));
    let plain = Buffer.concat([d.update(pkt.subarray(h, end - TAG)), d.final()]);
    if (pkt[0] & 0x10) plain = plain.subarray(4 * pkt.readUInt16BE(h - 2));
    return { ssrc: pkt.readUInt32BE(8), sequence: pkt.readUInt16BE(2), payload: plain };
  } catch {
    return null;
  }
}

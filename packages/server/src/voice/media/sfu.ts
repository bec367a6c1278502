import { packetFate, type VoiceFaultTable } from '../../dev/faults/voice.js';
import { createRtpCipher, rtpHeaderLength, type Mode, type RtpCipher } from './aead.js';

/** What the voice gateway tells the media plane about one voice session (plain data: it crosses worker boundaries). */
export interface MediaMember {
  ssrc: number;
  userId: string;
  /** Forwarding scope: the voice channel id. */
  room: string;
  /** Transport encryption, known once the client selected a mode (op 1); packets are dropped until then. */
  crypto: { mode: Mode; key: number[]; gcmTables?: boolean } | null;
  /** False when the member may not be heard (no SPEAK, server mute, suppressed): its packets are dropped. */
  canSpeak: boolean;
  /** True once the member can decrypt DAVE frames (in the MLS group, or the room runs without E2EE). */
  daveReady: boolean;
  /** Client address from Select Protocol, used until IP discovery tells the real one. */
  address?: { ip: string; port: number } | null;
}

export type MediaPatch = Partial<Pick<MediaMember, 'canSpeak' | 'daveReady' | 'address' | 'crypto'>>;

export type MediaEvent = { type: 'discovered'; ssrc: number; ip: string; port: number } | { type: 'listening'; port: number };

export interface CapturedFrame {
  ssrc: number;
  userId: string;
  /** The packet after transport decryption: what the server can see of the media. */
  payload: Buffer;
}

export interface MediaStats {
  received: number;
  forwarded: number;
  dropped: number;
  members: number;
  /** Event-loop time of the host's thread, busy and idle (ms): forwarded / busy = packets per second per core. */
  busyMs?: number;
  idleMs?: number;
}

interface Member {
  ssrc: number;
  userId: string;
  room: string;
  cipher: RtpCipher | null;
  canSpeak: boolean;
  daveReady: boolean;
  ip: string | null;
  port: number;
  /** Our nonce counter towards this member. */
  sendN: number;
  /** Replay window over the member's nonce counter: highest seen and a mask of the 32 below it. */
  winInit: boolean;
  winLast: number;
  winBits: number;
}

const DISCOVERY_LEN = 74;
const OPUS_PT = 0x78;
const CAPTURE_LIMIT = 5000;

/**
 * The selective forwarding unit of one UDP socket: IP discovery, then for every media packet of a speaker,
 * authenticate and decrypt with the speaker's key, and re-encrypt with each other member's key and counter. The RTP
 * header (SSRC, sequence, timestamp) is kept, so receivers map SSRCs to users from op 5. Nothing is looped back.
 */
export class Sfu {
  private readonly bySsrc = new Map<number, Member>();
  private readonly rooms = new Map<string, Member[]>();
  private capture: CapturedFrame[] | null = null;
  /** Dev faults (--dev): loss and jitter on packets to or from these users; null when there are none. */
  faults: VoiceFaultTable | null = null;
  readonly stats: MediaStats = { received: 0, forwarded: 0, dropped: 0, members: 0 };

  constructor(
    private readonly send: (buf: Buffer, port: number, ip: string) => void,
    private readonly emit: (e: MediaEvent) => void,
  ) {}

  add(m: MediaMember): void {
    this.remove(m.ssrc);
    const member: Member = {
      ssrc: m.ssrc,
      userId: m.userId,
      room: m.room,
      cipher: m.crypto ? createRtpCipher(m.crypto.mode, Buffer.from(m.crypto.key), { gcmTables: m.crypto.gcmTables }) : null,
      canSpeak: m.canSpeak,
      daveReady: m.daveReady,
      ip: m.address?.ip ?? null,
      port: m.address?.port ?? 0,
      sendN: 0,
      winInit: false,
      winLast: 0,
      winBits: 0,
    };
    this.bySsrc.set(m.ssrc, member);
    const list = this.rooms.get(m.room);
    if (list) list.push(member);
    else this.rooms.set(m.room, [member]);
    this.stats.members = this.bySsrc.size;
  }

  update(ssrc: number, patch: MediaPatch): void {
    const m = this.bySsrc.get(ssrc);
    if (!m) return;
    if (patch.crypto) m.cipher = createRtpCipher(patch.crypto.mode, Buffer.from(patch.crypto.key), { gcmTables: patch.crypto.gcmTables });
    if (patch.canSpeak !== undefined) m.canSpeak = patch.canSpeak;
    if (patch.daveReady !== undefined) m.daveReady = patch.daveReady;
    // Select Protocol's address is only a fallback: discovery saw where packets really come from.
    if (patch.address && m.ip === null) {
      m.ip = patch.address.ip;
      m.port = patch.address.port;
    }
  }

  remove(ssrc: number): void {
    const m = this.bySsrc.get(ssrc);
    if (!m) return;
    this.bySsrc.delete(ssrc);
    const list = this.rooms.get(m.room)!;
    list.splice(list.indexOf(m), 1);
    if (!list.length) this.rooms.delete(m.room);
    this.stats.members = this.bySsrc.size;
  }

  setCapture(on: boolean): void {
    this.capture = on ? [] : null;
  }

  takeCaptured(): CapturedFrame[] {
    const out = this.capture ?? [];
    if (this.capture) this.capture = [];
    return out;
  }

  onDatagram(msg: Buffer, ip: string, port: number): void {
    if (msg.length === DISCOVERY_LEN && msg.readUInt16BE(0) === 1) return this.discovery(msg, ip, port);
    if (msg.length <= 8) return; // keepalive: a u32 counter and 4 zero bytes
    this.stats.received++;
    if (msg.length < 12 + 16 + 4 || msg[0] >> 6 !== 2 || (msg[1] & 0x7f) !== OPUS_PT) return void this.stats.dropped++;
    const from = this.bySsrc.get(msg.readUInt32BE(8));
    if (!from || !from.cipher || from.ip !== ip || from.port !== port) return void this.stats.dropped++;
    const h = rtpHeaderLength(msg);
    const n = msg.readUInt32BE(msg.length - 4);
    if (!this.fresh(from, n)) return void this.stats.dropped++;
    const plain = from.cipher.open(msg, h);
    if (!plain) return void this.stats.dropped++;
    this.accept(from, n);
    if (!from.canSpeak) return void this.stats.dropped++;
    if (this.capture && this.capture.length < CAPTURE_LIMIT) this.capture.push({ ssrc: from.ssrc, userId: from.userId, payload: Buffer.from(plain) });
    // DAVE frames end with the FA FA marker: only members in the MLS group can use them.
    const e2ee = plain.length >= 2 && plain[plain.length - 1] === 0xfa && plain[plain.length - 2] === 0xfa;
    const header = msg.subarray(0, h);
    const room = this.rooms.get(from.room)!;
    for (let i = 0; i < room.length; i++) {
      const to = room[i];
      if (to === from || to.ip === null || !to.cipher || (e2ee && !to.daveReady)) continue;
      to.sendN = (to.sendN + 1) >>> 0;
      const packet = to.cipher.seal(header, plain, to.sendN);
      const fate = this.faults ? packetFate(this.faults, from.userId, to.userId) : 0;
      if (fate < 0) {
        this.stats.dropped++;
        continue;
      }
      const { port, ip } = to;
      if (fate > 0) setTimeout(() => this.send(packet, port, ip), fate);
      else this.send(packet, port, ip);
      this.stats.forwarded++;
    }
  }

  private discovery(msg: Buffer, ip: string, port: number): void {
    const ssrc = msg.readUInt32BE(4);
    const m = this.bySsrc.get(ssrc);
    if (!m) return;
    m.ip = ip;
    m.port = port;
    const out = Buffer.alloc(DISCOVERY_LEN);
    out.writeUInt16BE(2, 0);
    out.writeUInt16BE(70, 2);
    out.writeUInt32BE(ssrc, 4);
    out.write(ip, 8, 64, 'ascii');
    out.writeUInt16BE(port, 72);
    this.send(out, port, ip);
    this.emit({ type: 'discovered', ssrc, ip, port });
  }

  /** Whether nonce counter `n` is new for this sender (modular, with a 32-packet reorder window). */
  private fresh(m: Member, n: number): boolean {
    if (!m.winInit) return true;
    const ahead = (n - m.winLast) >>> 0;
    if (ahead === 0) return false;
    if (ahead < 0x80000000) return true;
    const back = (m.winLast - n) >>> 0;
    return back <= 32 && (m.winBits & (1 << (back - 1))) === 0;
  }

  private accept(m: Member, n: number): void {
    if (!m.winInit) {
      m.winInit = true;
      m.winLast = n;
      m.winBits = 0;
      return;
    }
    const ahead = (n - m.winLast) >>> 0;
    if (ahead !== 0 && ahead < 0x80000000) {
      m.winBits = ahead > 32 ? 0 : ahead === 32 ? 0x80000000 | 0 : (m.winBits << ahead) | (1 << (ahead - 1));
      m.winLast = n;
    } else {
      m.winBits |= 1 << (((m.winLast - n) >>> 0) - 1);
    }
  }
}

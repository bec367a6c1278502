import dgram from 'node:dgram';
import { RTCPeerConnection, RTCRtpCodecParameters, RtpHeader, type RtpPacket, type RTCDtlsTransport } from 'werift';
import { createRtpCipher, rtpHeaderLength, type Mode, type RtpCipher } from '../media/aead.js';
import { answerFragment, answerTransport, opusPayloadType } from './sdp.js';

const DISCOVERY_LEN = 74;
const DISCORD_OPUS_PT = 0x78;
const DISCOVERY_TRIES = 5;
const DISCOVERY_WAIT_MS = 500;

export interface BridgeOptions {
  offer: string;
  /** The session's SSRC (op 2): the browser's packets reach the SFU under it. */
  ssrc: number;
  /** Where the room's media host listens (the address and port op 2 gives UDP clients). */
  udpIp: string;
  udpPort: number;
  /** The transport encryption between the bridge and the SFU. */
  mode: Mode;
  key: Buffer;
}

/**
 * One browser in a voice room. Towards the browser it is a WebRTC peer (werift: ICE, DTLS, SRTP); towards the SFU it is
 * one more UDP voice client (IP discovery, Discord RTP sealed with the session's AEAD key). Between the two it moves
 * the RTP payload unchanged: the Opus frame as the page's DAVE transform left it, so media keys never reach the server.
 * Speakers keep their SSRC, sequence and timestamp, which is how the page maps streams to people (op 5).
 */
export class WebRtcBridge {
  private readonly cipher: RtpCipher;
  private sendN = 0;
  private dtls: RTCDtlsTransport | null = null;
  private closed = false;
  private discovered: (() => void) | null = null;
  /** Packets each way (tests and stats). */
  readonly counts = { fromBrowser: 0, toBrowser: 0 };

  private constructor(
    private readonly opts: BridgeOptions,
    private readonly socket: dgram.Socket,
    private readonly pc: RTCPeerConnection,
    private readonly opusPt: number,
  ) {
    this.cipher = createRtpCipher(opts.mode, opts.key);
  }

  /** Connects to the SFU and answers the browser's offer; resolves with the op 4 SDP. */
  static async open(opts: BridgeOptions): Promise<{ bridge: WebRtcBridge; sdp: string }> {
    const opusPt = opusPayloadType(opts.offer);
    if (opusPt === null) throw new BridgeError('The offer has no Opus.');
    const loopback = opts.udpIp.startsWith('127.');
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind({ port: 0, address: loopback ? opts.udpIp : undefined }, () => resolve());
    });
    const pc = new RTCPeerConnection({
      codecs: { audio: [new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48000, channels: 2, payloadType: opusPt })], video: [] },
      headerExtensions: { audio: [], video: [] },
      iceUseIpv6: false,
      iceServers: [], // werift's default is a public STUN server: the server's own host candidates are all it offers
      // The address UDP clients are given is the one browsers get too (werift leaves loopback out on its own); on
      // loopback the sockets bind there, since a wildcard-bound one would answer from another source address.
      iceAdditionalHostAddresses: [opts.udpIp],
      ...(loopback ? { iceInterfaceAddresses: { udp4: opts.udpIp } } : {}),
    });
    const bridge = new WebRtcBridge(opts, socket, pc, opusPt);
    try {
      socket.on('message', (msg, rinfo) => bridge.fromSfu(msg, rinfo));
      await bridge.discover();
      await pc.setRemoteDescription({ type: 'offer', sdp: opts.offer });
      await pc.setLocalDescription(await pc.createAnswer());
      const transceiver = pc.getTransceivers()[0];
      if (!transceiver || transceiver.kind !== 'audio') throw new BridgeError('The offer has no audio.');
      bridge.dtls = transceiver.dtlsTransport;
      bridge.dtls.onRtp.subscribe((rtp) => bridge.fromBrowser(rtp));
      const sdp = answerFragment(answerTransport(pc.localDescription!.sdp, opts.udpIp));
      return { bridge, sdp };
    } catch (err) {
      bridge.close();
      throw err instanceof BridgeError ? err : new BridgeError(`WebRTC negotiation failed: ${(err as Error)?.message ?? err}`);
    }
  }

  /** IP discovery from the bridge's socket: the SFU learns where to send this session's packets. */
  private async discover(): Promise<void> {
    const req = Buffer.alloc(DISCOVERY_LEN);
    req.writeUInt16BE(1, 0);
    req.writeUInt16BE(70, 2);
    req.writeUInt32BE(this.opts.ssrc, 4);
    for (let i = 0; i < DISCOVERY_TRIES; i++) {
      const answered = new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), DISCOVERY_WAIT_MS);
        this.discovered = () => (clearTimeout(timer), resolve(true));
      });
      this.socket.send(req, this.opts.udpPort, this.opts.udpIp);
      if (await answered) return;
    }
    throw new BridgeError('The media host did not answer IP discovery.');
  }

  /** A browser packet: its payload goes on to the SFU under the session's SSRC. */
  private fromBrowser(rtp: RtpPacket): void {
    if (this.closed || rtp.header.payloadType !== this.opusPt || !rtp.payload.length) return;
    const header = Buffer.allocUnsafe(12);
    header[0] = 0x80;
    header[1] = DISCORD_OPUS_PT | (rtp.header.marker ? 0x80 : 0);
    header.writeUInt16BE(rtp.header.sequenceNumber & 0xffff, 2);
    header.writeUInt32BE(rtp.header.timestamp >>> 0, 4);
    header.writeUInt32BE(this.opts.ssrc, 8);
    this.sendN = (this.sendN + 1) >>> 0;
    this.socket.send(this.cipher.seal(header, rtp.payload, this.sendN), this.opts.udpPort, this.opts.udpIp);
    this.counts.fromBrowser++;
  }

  /** An SFU packet (another member speaking): unsealed, its payload goes to the browser under the speaker's SSRC. */
  private fromSfu(msg: Buffer, rinfo: dgram.RemoteInfo): void {
    if (rinfo.port !== this.opts.udpPort) return;
    if (msg.length === DISCOVERY_LEN && msg.readUInt16BE(0) === 2) return void this.discovered?.();
    if (this.closed || !this.dtls || msg.length < 12 + 16 + 4 || msg[0] >> 6 !== 2) return;
    const h = rtpHeaderLength(msg);
    const plain = this.cipher.open(msg, h);
    if (!plain) return;
    // With X set the extension body is encrypted with the payload: skip it (its length is in the preamble).
    const payload = msg[0] & 0x10 ? plain.subarray(4 * msg.readUInt16BE(h - 2)) : plain;
    if (!payload.length) return;
    const header = new RtpHeader({
      payloadType: this.opusPt,
      marker: (msg[1] & 0x80) !== 0,
      sequenceNumber: msg.readUInt16BE(2),
      timestamp: msg.readUInt32BE(4),
      ssrc: msg.readUInt32BE(8),
    });
    void this.dtls.sendRtp(payload, header);
    this.counts.toBrowser++;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.discovered = null;
    void this.pc.close().catch(() => {});
    try {
      this.socket.close();
    } catch {
      // already closed
    }
  }
}

/** A WebRTC offer the bridge cannot answer (closed as a decode error, not a server crash). */
export class BridgeError extends Error {}

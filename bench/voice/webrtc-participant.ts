/**
 * One simulated browser in a voice channel, speaking the web client's protocol (packages/web/src/voice/manager.ts):
 * op 4 on the main Gateway, the voice gateway with protocol `webrtc` (op 1 carries the offer, op 4 the server's
 * transport), a sending m-line for the microphone and one receiving m-line per speaker, renegotiated locally with the
 * web client's own SDP code (remote-sdp.ts) whenever op 5 names a new speaker. The stack is werift instead of
 * Chromium's. DAVE is off: the payload is what the bench reads (sender, sequence number, send time).
 */
import WebSocket from 'ws';
import { RTCPeerConnection, RTCRtpCodecParameters, RtpHeader, RtpPacket, type RTCRtpTransceiver } from 'werift';
import { VoiceOp } from '@accord/protocol';
import { buildAnswer, parseServerTransport, type RemoteStream, type ServerTransport } from '../../packages/social-sdk/src/voice/browser/remote-sdp.js';
import { connectGateway, type GatewayClient } from '../lib.js';

const LOOPBACK = '127.0.0.1';
/** Chromium's Opus payload type, which the web client's op 1 names too. */
const OPUS_PT = 111;
/** GUILDS | GUILD_VOICE_STATES. */
const VOICE_INTENTS = 1 | (1 << 7);
const VOICE_EVENT = Buffer.from('"t":"VOICE_');
/** Payload layout: sender index (u32), sequence number (u32), send time (u64, ns of the monotonic clock). */
const HEAD_BYTES = 16;

export interface ParticipantSpec {
  /** Index of this participant in the whole run (its payloads carry it). */
  index: number;
  userId: string;
  token: string;
  guildId: string;
  channelId: string;
  /** Members of this participant's room, itself included: it is settled once it has an m-line for each other one. */
  roomSize: number;
}

export interface ServerAddress {
  gatewayPort: number;
  /** The local CA of the voice gateway's certificate (PEM). */
  ca: string;
}

/** What one receiver saw from one sender in the measuring window. */
export interface PairStats {
  received: number;
  duplicates: number;
  /** One-way delays in ms (send time in the payload to arrival here), in arrival order. */
  delays: number[];
}

export const monoNs = () => process.hrtime.bigint();

export class Participant {
  private gw: GatewayClient | null = null;
  private ws: WebSocket | null = null;
  private beat: NodeJS.Timeout | null = null;
  private voiceSeq = -1;
  private pc: RTCPeerConnection | null = null;
  private mic: RTCRtpTransceiver | null = null;
  private transport: ServerTransport | null = null;
  private readonly streams = new Map<string, RemoteStream>();
  private readonly speakers = new Map<string, number>();
  private queue: Promise<void> = Promise.resolve();
  private waiter: { check: () => void; resolve: () => void; reject: (e: Error) => void } | null = null;
  private connected = false;
  private closed = false;
  /** Per sender index: packets of the window seen, by sequence number. */
  readonly pairs = new Map<number, PairStats>();
  private readonly seen = new Map<number, Uint8Array>();
  private window = { from: 0, to: 0 };
  private rtpSeq = Math.floor(Math.random() * 0xffff);
  private readonly payload: Buffer;

  constructor(
    readonly spec: ParticipantSpec,
    private readonly server: ServerAddress,
    payloadBytes: number,
  ) {
    // Filler that never ends in FA FA (the SFU would take the frame for a DAVE one).
    this.payload = Buffer.alloc(Math.max(HEAD_BYTES + 4, payloadBytes), 0x55);
  }

  /** Main Gateway, voice gateway, WebRTC: resolves once the media connection is up. */
  join(timeoutMs: number): Promise<void> {
    return this.until(
      () => this.connected,
      timeoutMs,
      () => void this.start().catch((e) => this.waiter?.reject(e)),
    );
  }

  /** Resolves once there is a receiving m-line for every other member of the room (all of them have joined). */
  settled(timeoutMs: number): Promise<void> {
    return this.until(() => this.streams.size >= this.spec.roomSize - 1, timeoutMs);
  }

  private until(done: () => boolean, timeoutMs: number, begin?: () => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `participant ${this.spec.index}: not ready after ${timeoutMs} ms (${this.connected ? 'connected' : 'not connected'}, ${this.streams.size} speakers)`,
            ),
          ),
        timeoutMs,
      );
      this.waiter = {
        check: () => done() && this.waiter?.resolve(),
        resolve: () => (clearTimeout(timer), (this.waiter = null), resolve()),
        reject: (e) => (clearTimeout(timer), (this.waiter = null), reject(e)),
      };
      begin?.();
      this.waiter.check();
    });
  }

  private async start(): Promise<void> {
    const voice: { sessionId?: string; token?: string; endpoint?: string } = {};
    let got: () => void = () => {};
    const both = new Promise<void>((r) => (got = r));
    this.gw = connectGateway(
      this.server.gatewayPort,
      this.spec.token,
      VOICE_INTENTS,
      (frame) => {
        const at = frame.indexOf(VOICE_EVENT);
        if (at < 0 || at > 64) return;
        const { t, d } = JSON.parse(frame.toString('utf8'));
        if (t === 'VOICE_STATE_UPDATE' && d.user_id === this.spec.userId && d.channel_id === this.spec.channelId) voice.sessionId = d.session_id;
        if (t === 'VOICE_SERVER_UPDATE' && d.endpoint) Object.assign(voice, { token: d.token, endpoint: d.endpoint });
        if (voice.sessionId && voice.endpoint) got();
      },
      false,
    );
    await this.gw.ready;
    this.gw.ws.send(JSON.stringify({ op: 4, d: { guild_id: this.spec.guildId, channel_id: this.spec.channelId, self_mute: false, self_deaf: false } }));
    await both;
    this.openVoice(voice.endpoint!, voice.sessionId!, voice.token!);
  }

  private openVoice(endpoint: string, sessionId: string, token: string): void {
    const ws = new WebSocket(`wss://${endpoint}/?v=8`, { ca: this.server.ca, perMessageDeflate: false });
    this.ws = ws;
    ws.on('open', () =>
      this.send(VoiceOp.IDENTIFY, {
        server_id: this.spec.guildId,
        user_id: this.spec.userId,
        session_id: sessionId,
        token,
        max_dave_protocol_version: 0,
      }),
    );
    ws.on('message', (data: Buffer, binary) => {
      if (binary) {
        if (data.length >= 2) this.voiceSeq = data.readUInt16BE(0);
        return;
      }
      const msg = JSON.parse(data.toString('utf8'));
      if (typeof msg.seq === 'number' && msg.seq > 0) this.voiceSeq = msg.seq;
      this.onVoice(msg.op, msg.d).catch((e) => this.waiter?.reject(e));
    });
    ws.on('close', (code, reason) => {
      if (!this.closed) this.waiter?.reject(new Error(`participant ${this.spec.index}: voice gateway closed ${code} ${reason}`));
    });
    ws.on('error', (e) => this.waiter?.reject(e));
  }

  private send(op: number, d: unknown): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ op, d }));
  }

  private async onVoice(op: number, d: any): Promise<void> {
    switch (op) {
      case VoiceOp.HELLO:
        this.beat = setInterval(() => this.send(VoiceOp.HEARTBEAT, { t: Date.now(), seq_ack: this.voiceSeq }), Number(d?.heartbeat_interval) || 13_750);
        return;
      case VoiceOp.READY:
        return this.offer();
      case VoiceOp.SESSION_DESCRIPTION:
        this.transport = parseServerTransport(String(d.sdp ?? ''));
        await this.run(() => this.applyAnswer());
        // The web client says it speaks once its microphone is heard; the bench's microphone always is.
        this.send(VoiceOp.SPEAKING, { speaking: 1, delay: 0, ssrc: 0 });
        return;
      case VoiceOp.SPEAKING:
        if (d?.user_id && d.user_id !== this.spec.userId && Number.isInteger(d.ssrc) && this.speakers.get(d.user_id) !== d.ssrc) {
          this.speakers.set(d.user_id, d.ssrc);
          await this.addSpeaker(d.user_id, d.ssrc);
        }
        return;
    }
  }

  /** Op 1 with the offer of one sending m-line, once candidates are gathered (as the web client's VoicePeer.offer). */
  private async offer(): Promise<void> {
    const pc = new RTCPeerConnection({
      bundlePolicy: 'max-bundle',
      codecs: { audio: [new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48000, channels: 2, payloadType: OPUS_PT })], video: [] },
      headerExtensions: { audio: [], video: [] },
      // Loopback only: no STUN server, host candidates on 127.0.0.1 (werift leaves loopback out unless told).
      iceServers: [],
      iceUseIpv6: false,
      iceAdditionalHostAddresses: [LOOPBACK],
      iceInterfaceAddresses: { udp4: LOOPBACK },
      // werift gathers on every interface whatever it is told: only the loopback pair to op 4's port may carry media.
      iceFilterCandidatePair: (pair) =>
        pair.localCandidate.host === LOOPBACK &&
        pair.remoteCandidate.host === LOOPBACK &&
        (!this.transport || pair.remoteCandidate.port === this.transport.port),
    });
    this.pc = pc;
    pc.connectionStateChange.subscribe((state) => {
      if (state === 'connected') this.connected = true;
      if (state === 'failed') this.waiter?.reject(new Error(`participant ${this.spec.index}: the WebRTC connection failed`));
      this.waiter?.check();
    });
    this.mic = pc.addTransceiver('audio', { direction: 'sendonly' });
    await pc.setLocalDescription(await pc.createOffer());
    await gathered(pc);
    // Only the loopback candidate goes to the server, so its checks never leave 127.0.0.1.
    const sdp = pc
      .localDescription!.sdp.split('\r\n')
      .filter((l) => !l.startsWith('a=candidate:') || l.split(' ')[4] === LOOPBACK)
      .join('\r\n');
    this.send(VoiceOp.SELECT_PROTOCOL, {
      protocol: 'webrtc',
      data: sdp,
      sdp,
      codecs: [{ name: 'opus', type: 'audio', priority: 1000, payload_type: OPUS_PT, rtx_payload_type: null }],
      rtc_connection_id: crypto.randomUUID(),
    });
  }

  /** A speaker's SSRC (op 5): one more receiving m-line, renegotiated locally against the server's transport. */
  private addSpeaker(userId: string, ssrc: number): Promise<void> {
    return this.run(async () => {
      const pc = this.pc!;
      const t = pc.addTransceiver('audio', { direction: 'recvonly' });
      t.onTrack.subscribe((track) => track.onReceiveRtp.subscribe((rtp) => this.receive(rtp.payload)));
      await pc.setLocalDescription(await pc.createOffer());
      this.streams.set(t.mid!, { userId, ssrc });
      await this.applyAnswer();
      this.waiter?.check();
    });
  }

  private async applyAnswer(): Promise<void> {
    if (!this.transport || !this.pc?.localDescription) return;
    await this.pc.setRemoteDescription({ type: 'answer', sdp: buildAnswer(this.pc.localDescription.sdp, this.transport, this.streams) });
  }

  /** Negotiations one at a time (each offer answered before the next), as the web client's VoicePeer does. */
  private run(step: () => Promise<void>): Promise<void> {
    const next = this.queue.then(step, step);
    this.queue = next.catch((e) => this.waiter?.reject(e));
    return next;
  }

  /** Sequence numbers [from, to) of every sender count for the figures; earlier ones are the warm-up. */
  setWindow(from: number, to: number): void {
    this.window = { from, to };
    this.pairs.clear();
    this.seen.clear();
  }

  /** One 20 ms frame: the payload carries who sent it, its number and when. */
  sendFrame(seq: number): void {
    const p = this.payload;
    p.writeUInt32BE(this.spec.index, 0);
    p.writeUInt32BE(seq, 4);
    p.writeBigUInt64BE(monoNs(), 8);
    this.rtpSeq = (this.rtpSeq + 1) & 0xffff;
    const header = new RtpHeader({ payloadType: OPUS_PT, sequenceNumber: this.rtpSeq, timestamp: (seq * 960) >>> 0, marker: seq === 0 });
    void this.mic?.sender.sendRtp(new RtpPacket(header, Buffer.from(p))).catch(() => {});
  }

  private receive(payload: Buffer): void {
    const at = monoNs();
    if (payload.length < HEAD_BYTES) return;
    const from = payload.readUInt32BE(0);
    const seq = payload.readUInt32BE(4);
    const { from: lo, to: hi } = this.window;
    if (seq < lo || seq >= hi) return;
    let pair = this.pairs.get(from);
    let seen = this.seen.get(from);
    if (!pair || !seen) {
      pair = { received: 0, duplicates: 0, delays: [] };
      seen = new Uint8Array(hi - lo);
      this.pairs.set(from, pair);
      this.seen.set(from, seen);
    }
    if (seen[seq - lo]) return void pair.duplicates++;
    seen[seq - lo] = 1;
    pair.received++;
    pair.delays.push(Number(at - payload.readBigUInt64BE(8)) / 1e6);
  }

  /** Leaves as the web client does: op 4 with no channel, and a clean close (the server ends the voice session). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.beat) clearInterval(this.beat);
    if (this.gw?.ws.readyState === WebSocket.OPEN)
      this.gw.ws.send(JSON.stringify({ op: 4, d: { guild_id: this.spec.guildId, channel_id: null, self_mute: false, self_deaf: false } }));
    this.ws?.close(1000);
    this.gw?.close();
    await this.pc?.close().catch(() => {});
  }
}

/** Resolves when ICE gathering completes (or after a second, as the web client's peer does). */
function gathered(pc: RTCPeerConnection): Promise<void> {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, 1000);
    const sub = pc.iceGatheringStateChange.subscribe((s) => s === 'complete' && done());
    function done() {
      clearTimeout(timer);
      sub.unSubscribe();
      resolve();
    }
  });
}

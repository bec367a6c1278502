import crypto from 'node:crypto';
import net from 'node:net';
import type WebSocket from 'ws';
import { DEPRECATED_MODES, isMode } from './media/aead.js';
import { DaveOp } from '@accord/protocol';
import { IGNORED_OPS, VOICE_RATE_LIMIT, VoiceClose, VoiceOp } from './opcodes.js';
import { VoiceSession, type VoiceTransport } from './session.js';
import type { VoiceHost } from './host.js';
import { parseJson } from '../core/json.js';
import { DeferredHello } from '../core/hello-timing.js';
import { BridgeError, WebRtcBridge } from './webrtc/bridge.js';

const MAX_FRAME = 1 << 16;

/**
 * One voice WebSocket: framing (JSON text, binary `[op][payload]` from clients), heartbeats with seq_ack, and the
 * Identify / Resume handshakes. Everything after that is the session's and the room's.
 */
export class VoiceConnection implements VoiceTransport {
  session: VoiceSession | null = null;
  lastBeat = performance.now();
  private closed = false;
  private identifying = false;
  private windowStart = performance.now();
  private received = 0;
  private readonly hello: DeferredHello;

  constructor(
    private readonly ws: WebSocket,
    private readonly server: VoiceHost,
    readonly version: number,
  ) {
    ws.on('message', (data, isBinary) => this.onMessage(data as Buffer, isBinary));
    ws.on('close', (code) => this.onClose(code));
    ws.on('error', () => {});
    this.hello = new DeferredHello(() => this.raw(JSON.stringify({ op: VoiceOp.HELLO, d: { v: version, heartbeat_interval: server.heartbeatIntervalMs } })));
  }

  sendFrame(frame: string | Buffer): void {
    if (!this.closed) this.raw(frame);
  }

  private raw(frame: string | Buffer): void {
    if (this.ws.readyState === 1) this.ws.send(frame);
  }

  close(code: number, reason = ''): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.ws.close(code, reason);
    } catch {
      this.ws.terminate();
    }
  }

  /** Cuts the socket without a close frame (tests: the client sees 1006 and resumes). */
  terminate(): void {
    this.closed = true;
    this.ws.terminate();
  }

  private onClose(code: number): void {
    this.closed = true;
    this.hello.cancel();
    this.server.detach(this, code === 1000);
  }

  private onMessage(data: Buffer, isBinary: boolean): void {
    if (this.closed) return;
    this.hello.flush();
    if (this.rateLimited()) return this.close(VoiceClose.RATE_LIMITED, 'Disconnected: Rate Limited.');
    if (data.length > MAX_FRAME) return this.close(VoiceClose.DECODE_ERROR, 'Payload too large.');
    if (isBinary) return this.onBinary(data);
    let msg: { op?: unknown; d?: any };
    try {
      msg = parseJson(data.toString('utf8')) as typeof msg;
    } catch {
      return this.close(VoiceClose.DECODE_ERROR, 'Failed to decode payload.');
    }
    if (!msg || typeof msg !== 'object' || !Number.isInteger(msg.op)) return this.close(VoiceClose.DECODE_ERROR, 'Failed to decode payload.');
    this.handle(msg.op as number, msg.d).catch((err) => {
      console.error('[voice] message failed', err);
      this.close(VoiceClose.SERVER_CRASHED, 'Voice server crashed.');
    });
  }

  /** Counts one client message in a fixed window; past the budget the client is closed (4021, do not reconnect). */
  private rateLimited(): boolean {
    const now = performance.now();
    if (now - this.windowStart >= VOICE_RATE_LIMIT.windowMs) {
      this.windowStart = now;
      this.received = 0;
    }
    return ++this.received > VOICE_RATE_LIMIT.messages;
  }

  private async handle(op: number, d: any): Promise<void> {
    if (op === VoiceOp.HEARTBEAT) return this.heartbeat(d);
    if (op === VoiceOp.IDENTIFY) return this.identify(d);
    if (op === VoiceOp.RESUME) return this.resume(d);
    const s = this.session;
    if (!s) return this.close(VoiceClose.NOT_AUTHENTICATED, 'Not authenticated.');
    if (s.ended) return; // superseded (moved, re-joined): the socket only waits to be closed
    const room = this.server.rooms.get(s.channelId);
    switch (op) {
      case VoiceOp.SELECT_PROTOCOL:
        return this.selectProtocol(s, d);
      case VoiceOp.SPEAKING:
        if (!d || typeof d !== 'object' || !Number.isInteger(d.speaking)) return this.close(VoiceClose.DECODE_ERROR, 'Failed to decode payload.');
        return room?.speaking(s, d.speaking & 7);
      case DaveOp.TRANSITION_READY:
        if (Number.isInteger(d?.transition_id)) room?.dave.transitionReady(s.userId, d.transition_id);
        return;
      case DaveOp.INVALID_COMMIT_WELCOME:
        if (Number.isInteger(d?.transition_id)) room?.dave.invalid(s.userId, d.transition_id);
        return;
      default:
        if (IGNORED_OPS.has(op)) return;
        return this.close(VoiceClose.UNKNOWN_OPCODE, 'Unknown opcode.');
    }
  }

  private onBinary(data: Buffer): void {
    if (data.length < 1) return this.close(VoiceClose.DECODE_ERROR, 'Failed to decode payload.');
    const s = this.session;
    if (!s) return this.close(VoiceClose.NOT_AUTHENTICATED, 'Not authenticated.');
    if (s.ended) return;
    const room = this.server.rooms.get(s.channelId);
    const op = data[0];
    const payload = data.subarray(1);
    if (op === DaveOp.KEY_PACKAGE) return room?.dave.keyPackage(s.userId, payload);
    if (op === DaveOp.COMMIT_WELCOME) return room?.dave.commitWelcome(s.userId, payload);
    this.close(VoiceClose.UNKNOWN_OPCODE, 'Unknown opcode.');
  }

  /** v8: `{t, seq_ack}` answered with `{t}`; older versions send and get the bare nonce. */
  private heartbeat(d: any): void {
    this.lastBeat = performance.now();
    if (d && typeof d === 'object') {
      if (Number.isInteger(d.seq_ack)) this.session?.ack(d.seq_ack);
      this.raw(JSON.stringify({ op: VoiceOp.HEARTBEAT_ACK, d: { t: d.t } }));
    } else this.raw(JSON.stringify({ op: VoiceOp.HEARTBEAT_ACK, d }));
  }

  private async identify(d: any): Promise<void> {
    if (this.session || this.identifying) return this.close(VoiceClose.ALREADY_AUTHENTICATED, 'Already authenticated.');
    if (!d || typeof d !== 'object' || ![d.server_id, d.user_id, d.session_id, d.token].every((v) => typeof v === 'string')) {
      return this.close(VoiceClose.DECODE_ERROR, 'Failed to decode payload.');
    }
    this.identifying = true;
    const grant = await this.server.states.grant(d.token);
    if (!grant || grant.userId !== d.user_id || grant.guildId !== d.server_id || grant.sessionId !== d.session_id) {
      return this.close(VoiceClose.AUTHENTICATION_FAILED, 'Authentication failed.');
    }
    const daveMax = Number.isInteger(d.max_dave_protocol_version) ? Math.max(0, d.max_dave_protocol_version) : 0;
    if (daveMax < 1 && this.server.daveRequired()) return this.close(VoiceClose.E2EE_REQUIRED, 'E2EE/DAVE protocol required.');
    const session = new VoiceSession(grant, this.server.nextSsrc(), this.version, Math.min(daveMax, 1));
    const port = await this.server.admit(session);
    this.identifying = false;
    if (this.closed || port === null) {
      this.server.end(session, VoiceClose.DISCONNECTED);
      if (port === null) this.close(VoiceClose.SESSION_INVALID, 'Session is no longer valid.');
      return;
    }
    this.session = session;
    session.transport = this;
    session.send(VoiceOp.READY, {
      ssrc: session.ssrc,
      ip: this.server.udpIp,
      port,
      modes: this.server.modes,
      heartbeat_interval: this.server.heartbeatIntervalMs,
    });
    this.server.rooms.get(session.channelId)?.add(session);
  }

  private async selectProtocol(s: VoiceSession, d: any): Promise<void> {
    if (s.mode || s.selecting) return; // already selected: Select Protocol is not repeated on resume
    if (d && typeof d === 'object' && d.protocol === 'webrtc') return this.selectWebRtc(s, d);
    if (!d || typeof d !== 'object' || d.protocol !== 'udp') return this.close(VoiceClose.UNKNOWN_PROTOCOL, 'Unknown protocol.');
    const mode = d.data?.mode;
    if (!isMode(mode) || !this.server.modes.includes(mode)) {
      const why = DEPRECATED_MODES.includes(mode) ? `${mode} was discontinued on 2024-11-18` : 'Unknown encryption mode.';
      return this.close(VoiceClose.UNKNOWN_ENCRYPTION_MODE, why);
    }
    const room = this.server.rooms.get(s.channelId);
    if (!room) return this.close(VoiceClose.SESSION_INVALID, 'Session is no longer valid.');
    s.mode = mode;
    s.key = crypto.randomBytes(32);
    s.daveVersion = room.daveVersionFor(s);
    const address =
      net.isIPv4(d.data?.address) && Number.isInteger(d.data.port) && d.data.port > 0 && d.data.port < 65536
        ? { ip: d.data.address as string, port: d.data.port as number }
        : null;
    this.server.media.update(s.ssrc, { crypto: { mode, key: [...s.key], gcmTables: this.server.gcmTables }, address });
    s.send(VoiceOp.SESSION_DESCRIPTION, { mode, secret_key: [...s.key], dave_protocol_version: s.daveVersion });
    room.ready(s);
  }

  /**
   * `webrtc` (browsers): the offer's SDP comes as `sdp` (the official client also sends it as `data`). The bridge joins
   * the room as a UDP client with the first offered mode; op 4 carries the answer's transport SDP instead of a key.
   */
  private async selectWebRtc(s: VoiceSession, d: any): Promise<void> {
    const offer = typeof d.sdp === 'string' ? d.sdp : d.data;
    if (typeof offer !== 'string' || !offer.startsWith('v=0')) return this.close(VoiceClose.DECODE_ERROR, 'Failed to decode payload.');
    const room = this.server.rooms.get(s.channelId);
    if (!room) return this.close(VoiceClose.SESSION_INVALID, 'Session is no longer valid.');
    s.selecting = true;
    const mode = this.server.modes[0];
    const key = crypto.randomBytes(32);
    this.server.media.update(s.ssrc, { crypto: { mode, key: [...key], gcmTables: this.server.gcmTables } });
    let opened: Awaited<ReturnType<typeof WebRtcBridge.open>>;
    try {
      const udpPort = await this.server.media.portFor(s.channelId);
      opened = await WebRtcBridge.open({ offer, ssrc: s.ssrc, udpIp: this.server.udpIp, udpPort, mode, key });
    } catch (err) {
      s.selecting = false;
      if (err instanceof BridgeError) return this.close(VoiceClose.DECODE_ERROR, err.message.slice(0, 120));
      throw err;
    }
    if (s.ended || this.server.rooms.get(s.channelId) !== room) return opened.bridge.close();
    s.bridge = opened.bridge;
    s.mode = mode;
    s.key = key;
    s.daveVersion = room.daveVersionFor(s);
    s.send(VoiceOp.SESSION_DESCRIPTION, {
      audio_codec: 'opus',
      video_codec: 'H264',
      media_session_id: crypto.randomBytes(16).toString('hex'),
      sdp: opened.sdp,
      dave_protocol_version: s.daveVersion,
    });
    room.ready(s);
  }

  /** Op 7: same token and session; op 9 first, then every buffered message after seq_ack, in order. */
  private resume(d: any): void {
    if (this.session) return this.close(VoiceClose.ALREADY_AUTHENTICATED, 'Already authenticated.');
    if (!d || typeof d !== 'object' || typeof d.token !== 'string') return this.close(VoiceClose.DECODE_ERROR, 'Failed to decode payload.');
    const s = this.server.sessionByToken(d.token);
    if (!s || s.ended || s.grant.sessionId !== d.session_id || s.guildId !== d.server_id)
      return this.close(VoiceClose.SESSION_INVALID, 'Session is no longer valid.');
    const frames = s.framesAfter(Number.isInteger(d.seq_ack) ? d.seq_ack : -1);
    if (frames === null) return this.close(VoiceClose.SESSION_INVALID, 'Session is no longer valid.');
    const previous = s.transport as VoiceConnection | null;
    if (previous && previous !== this) {
      previous.session = null;
      previous.close(VoiceClose.SESSION_INVALID, 'Session resumed elsewhere.');
    }
    this.session = s;
    s.transport = this;
    s.detachedAt = 0;
    this.raw(JSON.stringify({ op: VoiceOp.RESUMED, d: null }));
    for (const f of frames) this.raw(f);
  }
}

import crypto from 'node:crypto';
import type { Socket } from 'node:net';
import { corkUntilNextTick } from './cork.js';
import type WebSocket from 'ws';
import type { Ctx } from '../services/context.js';
import { ALL_INTENTS, INTENT_FLAGS, PRIVILEGED, Close, COMMANDS_PER_MINUTE, MAX_FRAME, Op, SocialOp } from '@accord/protocol';
import { applicationOfBot } from '../services/identity/applications.js';
import type { Authenticator } from '../services/identity/authenticate.js';
import { frameOf, Session, type Transport } from './session.js';
import { dispatchTail, writeTextFrame } from './ws-frames.js';
import { ZlibStream } from './compression.js';
import type { GatewayHub } from './hub.js';
import { guildIdsOf, readyPayload } from './payloads.js';
import { handleRequestMembers } from './member-requests.js';
import { handlePresenceUpdate } from './presence-updates.js';
import { handleChannelInfo } from './channel-info.js';
import { autoCallConnect, handleCallConnect, handleVoiceStateUpdate, REQUEST_CALL_CONNECT } from './voice-state.js';
import { guildSounds } from '../services/expressions/soundboard.js';
import { parseJson } from '../core/json.js';
import { DeferredHello } from '../core/hello-timing.js';
import { isDiskFull, isUnavailable } from '../core/errors.js';
import { handleLobbyVoiceStates, mayConnect, refusedSdkVersion, sdkSessionStarted, socialReady } from './social.js';

/** One WebSocket: framing, heartbeats, command limits, and the Identify/Resume handshake. */
export class Connection implements Transport {
  session: Session | null = null;
  lastBeat: number;
  private commands = 0;
  private windowStart: number;
  private zlib: ZlibStream | null;
  private closed = false;
  /** Closes a socket that never identifies (the sweep's heartbeat tolerance would keep it ~90 s). */
  private identifyTimer: NodeJS.Timeout | null;
  private readonly hello: DeferredHello;

  constructor(
    private readonly ws: WebSocket,
    private readonly hub: GatewayHub,
    private readonly ctx: Ctx,
    private readonly auth: Authenticator,
    compress: boolean,
  ) {
    this.lastBeat = performance.now();
    this.windowStart = performance.now();
    this.zlib = compress ? new ZlibStream((data) => this.raw(data)) : null;
    ws.on('message', (data, isBinary) => this.onMessage(data as Buffer, isBinary));
    ws.on('close', (code) => this.onClose(code));
    ws.on('error', () => {});
    this.identifyTimer = null;
    this.armIdentifyTimer();
    this.hello = new DeferredHello(() => this.sendOp(Op.HELLO, { heartbeat_interval: ctx.config.heartbeatIntervalMs }));
  }

  send(frame: string): void {
    if (this.closed) return;
    if (this.zlib) this.zlib.send(frame);
    else this.raw(frame);
  }

  sendDispatch(seq: number, t: string, d: string): void {
    if (this.closed) return;
    if (this.zlib) return this.zlib.send(frameOf({ seq, t, d }));
    const socket = (this.ws as unknown as { _socket?: Socket })._socket;
    if (this.ws.readyState !== 1 || !socket) return;
    corkUntilNextTick(socket);
    writeTextFrame(socket, `{"t":"${t}","s":${seq}`, dispatchTail(d));
  }

  private raw(data: string | Buffer): void {
    if (this.ws.readyState !== 1) return;
    corkUntilNextTick((this.ws as unknown as { _socket?: Socket })._socket);
    this.ws.send(data);
  }

  private sendOp(op: number, d: unknown): void {
    this.send(JSON.stringify({ op, d, s: null, t: null }));
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

  private onClose(code: number): void {
    this.closed = true;
    this.clearIdentifyTimer();
    this.hello.cancel();
    this.zlib?.close();
    this.hub.detach(this, code === 1000 || code === 1001);
  }

  /** The socket must send Identify or Resume within the timeout (again after a refused Resume). */
  private armIdentifyTimer(): void {
    this.clearIdentifyTimer();
    this.identifyTimer = setTimeout(() => {
      if (!this.session) this.close(Close.NOT_AUTHENTICATED, 'Not authenticated.');
    }, this.ctx.config.identifyTimeoutMs);
    this.identifyTimer.unref();
  }

  private clearIdentifyTimer(): void {
    if (this.identifyTimer) clearTimeout(this.identifyTimer);
    this.identifyTimer = null;
  }

  private onMessage(data: Buffer, isBinary: boolean): void {
    this.hello.flush();
    if (isBinary || data.length > MAX_FRAME) return this.close(Close.DECODE_ERROR, 'Decode error.');
    const now = performance.now();
    if (now - this.windowStart > 60_000) {
      this.windowStart = now;
      this.commands = 0;
    }
    if (++this.commands > COMMANDS_PER_MINUTE) return this.close(Close.RATE_LIMITED, 'You are being rate limited.');
    let msg: { op?: unknown; d?: any };
    try {
      msg = parseJson(data.toString('utf8')) as typeof msg;
    } catch {
      return this.close(Close.DECODE_ERROR, 'Decode error.');
    }
    if (!msg || typeof msg !== 'object' || typeof msg.op !== 'number') return this.close(Close.DECODE_ERROR, 'Decode error.');
    this.handle(msg.op, msg.d).catch((err) => {
      if (isUnavailable(err) || isDiskFull(err)) return this.unavailable(msg.op as number);
      console.error('[gateway] command failed', err);
      this.close(Close.UNKNOWN_ERROR, 'Unknown error.');
    });
  }

  /**
   * A command failed because the database or Redis is away (store/health.ts): the session stays open, heartbeats
   * still answered. An Identify or Resume is refused with Invalid Session, so the client tries again in a few seconds
   * (a Resume stays resumable); any other command is dropped, as it would be by a platform under load.
   */
  private unavailable(op: number): void {
    if (this.closed || this.session) return;
    if (op !== Op.IDENTIFY && op !== Op.RESUME) return;
    this.sendOp(Op.INVALID_SESSION, op === Op.RESUME);
    this.armIdentifyTimer();
  }

  private async handle(op: number, d: any): Promise<void> {
    if (op === Op.HEARTBEAT) {
      this.lastBeat = performance.now();
      // The client has every frame up to the seq it reports: a resume never needs them again.
      if (Number.isInteger(d)) this.session?.acknowledge(d);
      return this.send('{"op":11,"d":null,"s":null,"t":null}');
    }
    if (op === Op.IDENTIFY || op === Op.RESUME) this.clearIdentifyTimer(); // sent in time; a failure closes or re-arms
    if (op === Op.IDENTIFY) return this.identify(d);
    if (op === Op.RESUME) return this.resume(d);
    if (!this.session) {
      if ([Op.PRESENCE_UPDATE, Op.VOICE_STATE_UPDATE, Op.REQUEST_GUILD_MEMBERS, Op.REQUEST_SOUNDBOARD_SOUNDS, Op.REQUEST_CHANNEL_INFO].includes(op as any)) {
        return this.close(Close.NOT_AUTHENTICATED, 'Not authenticated.');
      }
      return this.close(Close.UNKNOWN_OPCODE, 'Unknown opcode.');
    }
    switch (op) {
      case Op.PRESENCE_UPDATE:
        return handlePresenceUpdate(this.hub, this.session, d);
      case Op.REQUEST_GUILD_MEMBERS:
        return handleRequestMembers(this.ctx, this.hub, this.session, d);
      case Op.REQUEST_CHANNEL_INFO:
        return handleChannelInfo(this.ctx, this.session, d);
      case Op.REQUEST_SOUNDBOARD_SOUNDS:
        for (const guildId of Array.isArray(d?.guild_ids) ? d.guild_ids : []) {
          if (this.session.guildIds.has(String(guildId)))
            this.session.dispatch(
              'SOUNDBOARD_SOUNDS',
              JSON.stringify({ guild_id: String(guildId), soundboard_sounds: await guildSounds(this.ctx, String(guildId)) }),
            );
        }
        return;
      case Op.VOICE_STATE_UPDATE:
        return handleVoiceStateUpdate(this.ctx, this.session, d);
      case REQUEST_CALL_CONNECT:
        if (this.session.isBot) return this.close(Close.UNKNOWN_OPCODE, 'Unknown opcode.');
        return handleCallConnect(this.ctx, this.session, d);
      case SocialOp.LOBBY_VOICE_STATES:
        return handleLobbyVoiceStates(this.ctx, this.session, d);
      default:
        return this.close(Close.UNKNOWN_OPCODE, 'Unknown opcode.');
    }
  }

  private async identify(d: any): Promise<void> {
    if (this.session) return this.close(Close.ALREADY_AUTHENTICATED, 'Already authenticated.');
    if (!d || typeof d !== 'object' || typeof d.token !== 'string') return this.close(Close.DECODE_ERROR, 'Decode error.');
    const epoch = this.hub.tokenEpoch;
    const resolved = await this.authenticate(d.token);
    const actor = resolved?.actor;
    // "Bearer x" resolves to an OAuth2 actor: the Social SDK's sessions, allowed with gateway.connect.
    if (!actor || (actor.kind === 'bearer' && !mayConnect(actor.scopes))) return this.close(Close.AUTHENTICATION_FAILED, 'Authentication failed.');
    const refused = refusedSdkVersion(d.properties);
    if (refused) return this.close(Close.INVALID_API_VERSION, refused.slice(0, 120));
    const isBot = actor.kind === 'bot';
    let shard: [number, number] = [0, 1];
    if (d.shard !== undefined) {
      if (!Array.isArray(d.shard) || d.shard.length !== 2 || !d.shard.every((n: unknown) => Number.isInteger(n)))
        return this.close(Close.INVALID_SHARD, 'Invalid shard.');
      const [id, count] = d.shard as [number, number];
      if (count < 1 || id < 0 || id >= count) return this.close(Close.INVALID_SHARD, 'Invalid shard.');
      shard = [id, count];
    }
    let intents = 0;
    if (isBot) {
      if (!Number.isInteger(d.intents) || d.intents < 0 || (d.intents & ~ALL_INTENTS) !== 0) return this.close(Close.INVALID_INTENTS, 'Invalid intent(s).');
      intents = d.intents;
      if (intents & PRIVILEGED) {
        const app = await applicationOfBot(this.ctx, actor.user.id);
        const flags = Number((app?.flags ?? 0n) & 0xffffffffn);
        for (const [intent, allowed] of INTENT_FLAGS) {
          if (intents & intent && !(flags & allowed)) return this.close(Close.DISALLOWED_INTENTS, 'Disallowed intent(s).');
        }
      }
    }
    const guildIds = await guildIdsOf(this.ctx, actor.user.id);
    if (isBot && guildIds.length / shard[1] > 2500) return this.close(Close.SHARDING_REQUIRED, 'Sharding required.');
    const largeThreshold = Math.min(250, Math.max(50, Number.isInteger(d.large_threshold) ? d.large_threshold : 50));
    const capabilities = Number.isInteger(d.capabilities) ? d.capabilities : 0;
    const session = new Session(crypto.randomBytes(16).toString('hex'), actor, intents, shard, capabilities, largeThreshold);
    session.tokenHash = resolved!.hash;
    for (const g of guildIds) if (!isBot || shard[1] === 1 || this.hub.shardOf(g, shard[1]) === shard[0]) session.guildIds.add(g);
    const isConnected = (userId: string) => this.hub.sessionsOf(userId) > 0;
    // Other nodes' events for this session flow before READY is read, so none published after it is missed.
    const release = await this.hub.hold(session.userId, session.guildIds);
    let ready: string;
    try {
      session.lastG = await this.hub.position(); // distributed mode: the events after this point are the session's
      const base = await readyPayload(this.ctx, session, this.hub.resumeUrl);
      ready = JSON.stringify({ ...base, ...(await socialReady(this.ctx, session, base.user, this.hub.presences, isConnected)) });
    } catch (err) {
      release();
      throw err;
    }
    if (this.closed) return release();
    // READY takes seq 1: the session joins the dispatcher in the same tick, so no event can come before it.
    this.session = session;
    session.transport = this;
    this.clearIdentifyTimer();
    const first = this.hub.sessionsOf(session.userId) === 0;
    this.hub.attach(session);
    this.hub.record(session);
    release();
    this.lastBeat = performance.now();
    session.dispatch('READY', ready);
    this.hub.setPresence(session, d.presence);
    this.hub.sendGuildCreates(session);
    // A token revoked while this Identify ran was checked before the session existed: check it now.
    if (this.hub.tokenEpoch !== epoch) await this.hub.revalidate(session.userId);
    if (session.dead) return;
    await sdkSessionStarted(this.ctx, session, first);
    await autoCallConnect(this.ctx, session);
  }

  /**
   * Bots identify with the bare token ("Bot x" is tolerated), user clients with their raw token, the Social SDK with
   * "Bearer x". The hash is of the bare token, as stored.
   */
  private async authenticate(raw: string) {
    // A token that does not resolve is refused; a database that is away is not a wrong token (the caller says so).
    const refused = (err: unknown) => {
      if (isUnavailable(err)) throw err;
      return null;
    };
    const bot = await this.auth.resolveWithHash(`Bot ${raw.replace(/^Bot\s+/i, '')}`).catch(refused);
    return bot ?? (await this.auth.resolveWithHash(raw).catch(refused));
  }

  private async resume(d: any): Promise<void> {
    if (this.session) return this.close(Close.ALREADY_AUTHENTICATED, 'Already authenticated.');
    if (!d || typeof d.token !== 'string' || typeof d.session_id !== 'string') return this.close(Close.DECODE_ERROR, 'Decode error.');
    const resolved = await this.authenticate(d.token);
    const actor = resolved?.actor;
    const seq = Number.isInteger(Number(d.seq ?? 0)) ? Number(d.seq ?? 0) : -1;
    // A session this node does not have may be another node's (distributed mode, that node maybe dead): take it over.
    const s = this.hub.sessions.get(d.session_id) ?? (actor ? await this.hub.adopt(d.session_id, actor, resolved!.hash, seq) : null);
    if (!s || s.dead || !actor || actor.user.id !== s.userId) {
      this.sendOp(Op.INVALID_SESSION, false);
      this.armIdentifyTimer(); // the client should Identify next
      return;
    }
    if (this.closed) return; // the socket went while the session was found: it stays resumable
    const frames = s.framesAfter(seq);
    if (frames === null) {
      console.warn(`[gateway] resume refused: the client is at seq ${seq}, the session at ${s.seq}`);
      return this.close(Close.INVALID_SEQ, 'Invalid seq.');
    }
    // Take the session over from any transport still attached to it.
    const previous = s.transport;
    if (previous && previous !== this) {
      (previous as Connection).session = null;
      previous.close(4000, 'Session resumed elsewhere.');
    }
    this.session = s;
    s.transport = this;
    s.detachedAt = 0;
    this.clearIdentifyTimer();
    this.lastBeat = performance.now();
    for (const f of frames) this.send(f);
    s.dispatch('RESUMED', '{}');
  }
}

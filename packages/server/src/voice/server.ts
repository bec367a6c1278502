import crypto from 'node:crypto';
import dns from 'node:dns/promises';
import https from 'node:https';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type { Ctx } from '../services/context.js';
import { P } from '@accord/protocol';
import { voiceStates, type VoiceStates } from '../services/voice/states.js';
import { VoiceConnection } from './connection.js';
import { ExternalSender } from './dave/codec.js';
import { DEPRECATED_MODES, isMode, type Mode } from './media/aead.js';
import { MediaPlane } from './media/plane.js';
import { MAX_VERSION, MIN_VERSION, VoiceClose } from './opcodes.js';
import { Room } from './room.js';
import type { VoiceSession } from './session.js';
import type { VoiceHost } from './host.js';
import { loadLocalTls, type LocalTls } from '../core/local-tls.js';
import type { Config } from '../config.js';
import type { Topic } from '../bus/bus.js';
import { VOICE_NODE_TTL_MS } from '../services/voice/redis-nodes.js';
import { isUnavailable } from '../core/errors.js';

/** DAVE is required from this date (server clock) under the `auto` policy. */
export const DAVE_REQUIRED_FROM = Date.UTC(2026, 2, 1);
/** How long a dropped voice session stays resumable before it counts as a leave. */
const RESUME_WINDOW_MS = 30_000;
/** After a move, the old voice socket is closed (4014) if the client has not closed it by then. */
const SUPERSEDED_CLOSE_MS = 5_000;

/**
 * The voice server: the voice gateway (v8, wss on its own port) and the media plane (UDP, in worker threads), with one
 * Room (and DAVE group) per voice channel. Voice tokens come from the voice states service; voice state changes
 * arrive over the bus (a leave closes the voice session with 4014, a server mute stops forwarding).
 */
export class VoiceServer implements VoiceHost {
  readonly rooms = new Map<string, Room>();
  media!: MediaPlane;
  readonly states: VoiceStates;
  readonly sender = new ExternalSender();
  /** Modes offered in op 2, in order (the client takes the first it supports); tests switch it between runs. */
  modes: Mode[];
  readonly heartbeatIntervalMs: number;
  udpIp = '127.0.0.1';
  port = 0;
  tls: LocalTls | null = null;
  /** DAVE group timings; tests may shorten them. */
  daveTimings = { transitionMs: 2000, commitMs: 5000, batchMs: 30 };
  private readonly sessions = new Map<string, VoiceSession>();
  private readonly byUser = new Map<string, VoiceSession>();
  private readonly connections = new Set<VoiceConnection>();
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 1 << 16, perMessageDeflate: false });
  private https: https.Server | null = null;
  private sweep: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;
  private announcer: NodeJS.Timeout | null = null;
  /** Sessions whose topics this server watches on the bus (one unwatch each). */
  private readonly watching = new WeakSet<VoiceSession>();
  private ssrcCounter = crypto.randomInt(1, 1 << 20);
  private readonly debugLog: boolean;
  readonly gcmTables: boolean;

  constructor(private readonly ctx: Ctx) {
    const cfg = ctx.config;
    this.states = voiceStates(ctx);
    this.heartbeatIntervalMs = cfg.voiceHeartbeatIntervalMs;
    const modes = cfg.voiceModes
      .split(',')
      .map((m) => m.trim())
      .filter(Boolean);
    const bad = modes.filter((m) => !isMode(m));
    if (bad.length)
      throw new Error(`--voice-modes: ${bad.join(', ')} ${bad.some((m) => DEPRECATED_MODES.includes(m)) ? 'was discontinued on 2024-11-18' : 'is unknown'}`);
    if (!modes.length) throw new Error('--voice-modes: at least one mode is needed');
    this.modes = modes as Mode[];
    if (!['auto', 'required', 'optional', 'off'].includes(cfg.voiceDave))
      throw new Error(`--voice-dave: ${cfg.voiceDave} is not auto, required, optional or off`);
    this.debugLog = cfg.logLevel === 'debug';
    this.gcmTables = cfg.voiceGcmTables === true;
  }

  async start(): Promise<void> {
    const cfg = this.ctx.config;
    const listenHost = cfg.host;
    const publicHost = voicePublicHost(cfg);
    // The IPv4 address clients send UDP to: an IPv6 loopback host is reached as 127.0.0.1 (the media socket is dual-stack).
    const v4Host = publicHost === '::1' || publicHost === '[::1]' ? '127.0.0.1' : publicHost;
    this.udpIp = cfg.voiceIp ?? (net.isIPv4(v4Host) ? v4Host : v4Host === 'localhost' ? '127.0.0.1' : (await dns.lookup(v4Host, { family: 4 })).address);
    this.tls = prepareVoiceTls(cfg);
    const voicePort = cfg.voicePort ?? (cfg.port === 0 ? 0 : cfg.port + 1);
    this.https = https.createServer({ cert: this.tls.cert, key: this.tls.key }, (_req, res) => {
      res.writeHead(426, { 'content-type': 'text/plain' }).end('voice gateway: connect with a WebSocket (wss://host:port/?v=8)\n');
    });
    this.https.on('upgrade', (req, socket, head) => {
      const url = new URL(req.url ?? '/', 'https://x');
      this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, url.searchParams.get('v')));
    });
    await new Promise<void>((resolve, reject) => {
      this.https!.once('error', reject);
      // exclusive: under `--workers` each worker's voice gateway has a port of its own, not one shared via the primary.
      this.https!.listen({ port: voicePort, host: listenHost, exclusive: true }, () => resolve());
    });
    this.port = (this.https.address() as AddressInfo).port;
    const udpPort = cfg.voiceUdpPort ?? (cfg.voicePort === undefined && cfg.port === 0 ? 0 : this.port);
    this.media = new MediaPlane({
      workers: cfg.voiceWorkers,
      bindHost: cfg.host, // media/host.ts udpBinding: '::' (dual-stack) for an IPv6 host, else the host's address
      port: udpPort,
      onEvent: () => {},
    });
    this.states.endpoint = `${publicHost.includes(':') ? `[${publicHost}]` : publicHost}:${this.port}`;
    // Distributed mode: this voice server is one of the deployment's; channels are handed to live ones only.
    const nodes = this.ctx.voiceNodes;
    if (nodes) {
      await nodes.announce(this.states.endpoint);
      this.announcer = setInterval(
        () => void nodes.announce(this.states.endpoint!).catch((err) => isUnavailable(err) || console.error('[voice] announce', err)),
        VOICE_NODE_TTL_MS / 3,
      );
      this.announcer.unref();
    }
    // Remote too: a user may leave or be moved through another node (the topics of this server's sessions are watched).
    this.unsubscribe = this.ctx.bus.subscribe(
      (e) => {
        if (e.t === 'VOICE_STATE_UPDATE' && e.guild_id && e.d?.user_id) this.onVoiceState(e.guild_id, e.d);
        // A DM call's states carry no guild: their sessions are keyed by the channel id (the voice server id).
        else if (e.t === 'VOICE_STATE_UPDATE' && !e.guild_id && e.channel_id && e.d?.user_id) this.onVoiceState(e.channel_id, e.d);
        else if (e.t === 'LOBBY_VOICE_STATE_UPDATE' && e.d?.lobby_id && e.d?.user_id) this.onVoiceState(String(e.d.lobby_id), e.d);
        else if ((e.t === 'CALL_DELETE' && e.d?.channel_id) || (e.t === 'CHANNEL_DELETE' && e.guild_id && e.d?.id))
          this.terminate(String(e.d.channel_id ?? e.d.id));
      },
      { remote: true },
    );
    this.sweep = setInterval(() => this.sweepConnections(), 1000);
    this.sweep.unref();
    if (cfg.logLevel !== 'silent') {
      console.log(
        `accord: voice gateway on wss://${this.states.endpoint}/?v=8 (UDP media ${udpPort || 'on free ports'}, ${cfg.voiceWorkers || 'no'} worker${cfg.voiceWorkers === 1 ? '' : 's'})`,
      );
      if (this.tls.generated) console.log(`accord: voice TLS uses a local CA; trust it with  NODE_EXTRA_CA_CERTS=${this.tls.caPath}  (set before node starts)`);
    }
  }

  /** A new WebSocket: the version is required, and versions below 4 were discontinued. */
  private accept(ws: import('ws').WebSocket, v: string | null): void {
    if (v === null || v === '') return ws.close(VoiceClose.BAD_REQUEST, 'A voice gateway version is required (?v=8).');
    const version = /^\d{1,2}$/.test(v) ? Number(v) : NaN;
    if (!Number.isInteger(version) || version > MAX_VERSION) return ws.close(VoiceClose.BAD_REQUEST, `Unknown voice gateway version ${v}.`);
    if (version < MIN_VERSION) return ws.close(VoiceClose.SESSION_INVALID, `Voice gateway version ${version} was discontinued on 2024-11-18; use v=8.`);
    const conn = new VoiceConnection(ws, this, version);
    this.connections.add(conn);
    ws.on('close', () => this.connections.delete(conn));
  }

  daveRequired(): boolean {
    const p = this.ctx.config.voiceDave;
    return p === 'required' || (p === 'auto' && this.ctx.clock.now() >= DAVE_REQUIRED_FROM);
  }

  private get daveEnabled(): boolean {
    return this.ctx.config.voiceDave !== 'off';
  }

  nextSsrc(): number {
    this.ssrcCounter = (this.ssrcCounter % 0xfffffff0) + 1;
    return this.ssrcCounter;
  }

  sessionByToken(token: string): VoiceSession | undefined {
    return this.sessions.get(token);
  }

  /**
   * Registers a freshly identified session: replaces the user's previous voice session in that guild, places the
   * room on a media host and adds the SSRC there (IP discovery comes before Select Protocol). Returns the UDP port,
   * or null when the voice state behind the token is gone.
   */
  async admit(s: VoiceSession): Promise<number | null> {
    const key = `${s.guildId}:${s.userId}`;
    const old = this.byUser.get(key);
    if (old) this.end(old, VoiceClose.SESSION_INVALID);
    this.sessions.set(s.grant.token, s);
    this.byUser.set(key, s);
    this.watching.add(s);
    await Promise.all(topicsOf(s).map((t) => this.ctx.bus.watch(t))); // before the state is read: no leave is missed
    const state = await this.states.store.get(s.guildId, s.userId);
    if (!state || state.channel_id !== s.channelId) return null;
    let room = this.rooms.get(s.channelId);
    if (!room) {
      room = new Room(s.channelId, this.sender, this.media, this.daveTimings, this.daveEnabled, (m) => this.debug(m));
      this.rooms.set(s.channelId, room);
    }
    s.muted = state.mute || state.suppress;
    // Lobby and DM calls have no guild: every member may speak.
    const open = !!(s.grant.lobby || s.grant.call);
    const perms = open ? null : await this.ctx.access.channelPerms(s.guildId, s.channelId, s.userId);
    s.mayspeak = open || (perms !== null && this.ctx.access.hasPerm(perms, P.SPEAK));
    const port = await this.media.portFor(s.channelId);
    if (s.ended) return null;
    await this.media.add({ ssrc: s.ssrc, userId: s.userId, room: s.channelId, crypto: null, canSpeak: s.canSpeak, daveReady: false });
    return port;
  }

  /** A WebSocket closed: a clean close (1000) ends the session, anything else keeps it resumable for a while. */
  detach(conn: Parameters<VoiceHost['detach']>[0], clean: boolean): void {
    const s = conn.session;
    if (!s || s.transport !== conn) return;
    s.transport = null;
    s.detachedAt = performance.now();
    if (clean) this.end(s, 1000);
  }

  /** Ends a voice session: it leaves its room; its socket (if any) is closed with `code`. */
  end(s: VoiceSession, code: number, reason = ''): void {
    if (s.ended) return;
    s.ended = true;
    if (this.sessions.get(s.grant.token) === s) this.sessions.delete(s.grant.token);
    const key = `${s.guildId}:${s.userId}`;
    if (this.byUser.get(key) === s) this.byUser.delete(key);
    if (this.watching.delete(s)) for (const t of topicsOf(s)) this.ctx.bus.unwatch(t);
    const room = this.rooms.get(s.channelId);
    if (room) {
      room.remove(s);
      if (room.empty) {
        room.close();
        this.rooms.delete(s.channelId);
      }
    }
    this.media.remove(s.ssrc);
    s.bridge?.close();
    s.bridge = null;
    const t = s.transport;
    s.transport = null;
    if (t && code !== 1000) t.close(code, reason);
  }

  /** The bus says a voice state changed: leaves and moves end the voice session; mutes stop forwarding. */
  private onVoiceState(guildId: string, d: any): void {
    const s = this.byUser.get(`${guildId}:${d.user_id}`);
    if (!s) return;
    if (d.channel_id === s.channelId) {
      s.muted = !!d.mute || !!d.suppress;
      if (s.grant.lobby || s.grant.call) return void this.media.update(s.ssrc, { canSpeak: s.canSpeak });
      void this.ctx.access.channelPerms(guildId, s.channelId, s.userId).then((perms) => {
        s.mayspeak = perms !== null && this.ctx.access.hasPerm(perms, P.SPEAK);
        this.media.update(s.ssrc, { canSpeak: s.canSpeak });
      });
      this.media.update(s.ssrc, { canSpeak: s.canSpeak });
      return;
    }
    if (d.channel_id === null) return this.end(s, VoiceClose.DISCONNECTED, 'Disconnected.');
    // Moved: the client opens a new voice session with the new token; the old one leaves its room now.
    const t = s.transport;
    this.end(s, 1000);
    if (t) setTimeout(() => t.close(VoiceClose.DISCONNECTED, 'Moved to another channel.'), SUPERSEDED_CLOSE_MS).unref();
  }

  /**
   * The call is over for everyone (a DM call ended, a guild voice channel was deleted): every voice session still in
   * its room closes with 4022 Call Terminated, which clients do not reconnect from.
   */
  private terminate(channelId: string): void {
    for (const s of [...this.byUser.values()]) if (s.channelId === channelId) this.end(s, VoiceClose.CALL_TERMINATED, 'Disconnected: Call Terminated.');
  }

  private sweepConnections(): void {
    const now = performance.now();
    const tolerance = this.heartbeatIntervalMs * 2 + 5000;
    for (const c of this.connections) if (now - c.lastBeat > tolerance) c.close(VoiceClose.SESSION_TIMEOUT, 'Session timed out.');
    for (const s of this.sessions.values()) {
      if (!s.transport && s.detachedAt && now - s.detachedAt > RESUME_WINDOW_MS) this.end(s, 1000);
    }
  }

  debug(msg: string): void {
    if (this.debugLog) console.log(`[voice] ${msg}`);
  }

  // ---- test and dev hooks --------------------------------------------------------------------------------------------

  /** Cuts a user's voice WebSocket without a close frame; the client sees 1006 and resumes. */
  dropSocket(userId: string): boolean {
    let dropped = false;
    for (const s of this.byUser.values()) {
      if (s.userId !== userId || !s.transport) continue;
      (s.transport as VoiceConnection).terminate();
      dropped = true;
    }
    return dropped;
  }

  /** The live voice session of a user in a guild (tests). */
  sessionOf(guildId: string, userId: string): VoiceSession | undefined {
    return this.byUser.get(`${guildId}:${userId}`);
  }

  async close(): Promise<void> {
    if (this.sweep) clearInterval(this.sweep);
    if (this.announcer) clearInterval(this.announcer);
    if (this.ctx.voiceNodes && this.states.endpoint) await this.ctx.voiceNodes.withdraw(this.states.endpoint).catch(() => {});
    this.unsubscribe?.();
    for (const c of this.connections) c.close(1001, 'Server shutting down.');
    for (const r of this.rooms.values()) r.close();
    this.wss.close();
    const closed = new Promise<void>((resolve) => (this.https ? this.https.close(() => resolve()) : resolve()));
    this.https?.closeAllConnections();
    await closed;
    await this.media?.close();
  }
}

/** The bus topics whose events a voice session needs from other nodes: its user's, and its guild's changes (not a call's or lobby's). */
function topicsOf(s: VoiceSession): Topic[] {
  return s.grant.lobby || s.grant.call ? [`user:${s.userId}`] : [`user:${s.userId}`, `guild-changes:${s.guildId}`];
}

/** The host clients reach the voice gateway at. */
function voicePublicHost(cfg: Config): string {
  return cfg.voiceHost ?? (['0.0.0.0', '::'].includes(cfg.host) ? '127.0.0.1' : cfg.host);
}

/** The voice gateway's certificate: the configured one, or a local CA's (created once in the data directory). */
export function prepareVoiceTls(cfg: Config): LocalTls {
  const hosts = [...new Set([voicePublicHost(cfg), 'localhost', '127.0.0.1'])];
  return loadLocalTls({
    certPath: cfg.voiceTlsCert,
    keyPath: cfg.voiceTlsKey,
    dir: cfg.dataDir,
    hosts,
    leaf: 'voice',
    flags: ['--voice-tls-cert', '--voice-tls-key'],
  });
}

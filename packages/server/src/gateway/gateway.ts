import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { Ctx } from '../context.js';
import { Authenticator } from '../http/auth.js';
import { Connection } from './connection.js';
import { Dispatcher, shardOf } from './dispatcher.js';
import { Presences, type Presence } from './presence.js';
import type { Session } from './session.js';
import { Close } from './opcodes.js';
import { voiceStates } from '../services/voice-states.js';

const STATUSES = new Set(['online', 'idle', 'dnd', 'invisible', 'offline']);

/**
 * The Gateway on the API's port: accepts upgrades, owns sessions (kept for the resume window after a drop),
 * presences, and the dispatcher that turns bus events into frames.
 */
export class Gateway {
  readonly sessions = new Map<string, Session>();
  readonly connections = new Set<Connection>();
  readonly dispatcher: Dispatcher;
  readonly presences = new Presences();
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 1 << 20, perMessageDeflate: false });
  private readonly auth: Authenticator;
  private readonly sweep: NodeJS.Timeout;
  private readonly unsubscribe: () => void;

  constructor(private readonly ctx: Ctx) {
    this.auth = new Authenticator(ctx);
    this.dispatcher = new Dispatcher(ctx, this.presences);
    this.unsubscribe = ctx.bus.subscribe((e) => {
      if (e.t === '__TOKENS_CHANGED') this.auth.clear();
      this.dispatcher.enqueue(e);
    });
    this.sweep = setInterval(() => this.sweepSessions(), 5000);
    this.sweep.unref();
  }

  get resumeUrl(): string {
    return this.ctx.publicUrl.replace(/^http/, 'ws');
  }

  shardOf(guildId: string, count: number): number {
    return shardOf(guildId, count);
  }

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/' && url.pathname !== '/gateway') return void socket.destroy();
    const v = url.searchParams.get('v');
    const encoding = url.searchParams.get('encoding') ?? 'json';
    const compress = url.searchParams.get('compress');
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      if (v !== null && v !== '10' && v !== '9') return ws.close(Close.INVALID_API_VERSION, 'Invalid API version.');
      if (encoding !== 'json') return ws.close(Close.DECODE_ERROR, 'Only the json encoding is supported.');
      if (compress !== null && compress !== 'zlib-stream') return ws.close(Close.DECODE_ERROR, 'Unsupported compression.');
      const conn = new Connection(ws, this, this.ctx, this.auth, compress === 'zlib-stream');
      this.connections.add(conn);
      ws.on('close', () => this.connections.delete(conn));
    });
  }

  attach(s: Session): void {
    this.sessions.set(s.id, s);
    this.dispatcher.add(s);
  }

  sendGuildCreates(s: Session): void {
    if (s.guildIds.size) this.dispatcher.enqueueGuildCreates(s);
  }

  /** A connection ended: a clean close (1000/1001) ends its session, anything else keeps it resumable. */
  detach(conn: Connection, clean: boolean): void {
    const s = conn.session;
    if (!s || s.transport !== conn) return;
    s.transport = null;
    s.detachedAt = performance.now();
    if (clean) this.kill(s);
  }

  kill(s: Session): void {
    if (s.dead) return;
    s.dead = true;
    this.sessions.delete(s.id);
    this.dispatcher.remove(s);
    voiceStates(this.ctx).sessionEnded(s.id); // its users leave voice
    if (!this.dispatcher.byUser.has(s.userId)) this.publishPresence(s, { status: 'offline', activities: [], client_status: {} }, true);
  }

  setPresence(s: Session, raw: any): void {
    const status = typeof raw?.status === 'string' && STATUSES.has(raw.status) ? raw.status : 'online';
    const activities = Array.isArray(raw?.activities) ? raw.activities.slice(0, 5).filter((a: any) => a && typeof a.name === 'string' && Number.isInteger(a.type)) : [];
    this.publishPresence(s, { status, activities, client_status: { [s.isBot ? 'web' : 'desktop']: status } }, false);
  }

  private publishPresence(s: Session, p: Presence, offline: boolean): void {
    if (offline) this.presences.clear(s.userId);
    else this.presences.set(s.userId, p);
    const visible = this.presences.visible(s.userId);
    for (const guildId of s.guildIds) {
      this.ctx.bus.publish({ t: 'PRESENCE_UPDATE', d: { user: { id: s.userId }, guild_id: guildId, status: visible.status, activities: visible.activities, client_status: visible.client_status }, guild_id: guildId });
    }
  }

  /** Closes connections that stopped heartbeating and forgets sessions past their resume window. */
  private sweepSessions(): void {
    const now = performance.now();
    const tolerance = this.ctx.config.heartbeatIntervalMs * 2 + 5000;
    for (const c of this.connections) if (now - c.lastBeat > tolerance) c.close(Close.SESSION_TIMED_OUT, 'Session timed out.');
    for (const s of this.sessions.values()) {
      if (!s.transport && s.detachedAt && now - s.detachedAt > this.ctx.config.resumeWindowMs) this.kill(s);
    }
  }

  /** Asks a session's client to reconnect and resume (op 7), as the platform does before maintenance. */
  requestReconnect(s: Session): void {
    s.transport?.send('{"op":7,"d":null,"s":null,"t":null}');
  }

  close(): void {
    clearInterval(this.sweep);
    this.unsubscribe();
    for (const c of this.connections) c.close(1001, 'Server shutting down.');
    this.wss.close();
  }
}

export type GatewayHub = Gateway;

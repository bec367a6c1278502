import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { Ctx } from '../services/context.js';
import { Authenticator } from '../services/identity/authenticate.js';
import { Connection } from './connection.js';
import { Dispatcher, shardOf } from './dispatcher.js';
import type { Presence, PresenceState } from './presence.js';
import { Session, type DispatchFaults, type SessionTap } from './session.js';
import type { GatewayHub } from './hub.js';
import { Close } from '@accord/protocol';
import { calls } from '../services/voice/calls.js';
import { voiceStates } from '../services/voice/states.js';
import { normalizeActivities } from '../services/social/presence/activity.js';
import { publishPresenceToFriends, sdkSessionEnded } from './social.js';
import { leaveSession } from '../services/activities/instances.js';
import { existingTokenHashes } from '../services/identity/tokens.js';
import { clientAddress } from './client-address.js';
import { checkpointFor, type RedisSessionStore } from './session-store.js';
import { rebuildSession } from './rebuild.js';
import type { Actor } from '../services/context.js';
import crypto from 'node:crypto';
import { gatewayUrl } from '../core/gateway-url.js';

const TOO_MANY_BODY = '{"message": "Too many Gateway connections from this address.", "code": 0}';
const TOO_MANY = `HTTP/1.1 429 Too Many Requests\r\nRetry-After: 5\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(TOO_MANY_BODY)}\r\nConnection: close\r\n\r\n${TOO_MANY_BODY}`;

const STATUSES = new Set(['online', 'idle', 'dnd', 'invisible', 'offline']);

/** How long a socket told to reconnect (op 7) stays open for its client to close it. */
const RECONNECT_GRACE_MS = 3000;

/**
 * The Gateway on the API's port: accepts upgrades, owns sessions (kept for the resume window after a drop),
 * presences, and the dispatcher that turns bus events into frames.
 */
export class Gateway implements GatewayHub {
  readonly sessions = new Map<string, Session>();
  readonly connections = new Set<Connection>();
  readonly dispatcher: Dispatcher;
  readonly presences: PresenceState;
  /** An observer of every dispatch (the dev inspector); sessions pick it up when they attach. */
  tap: SessionTap | null = null;
  /** Dev faults on bot sessions' dispatches (--dev only); sessions pick it up when they attach. */
  faults: DispatchFaults | null = null;
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 1 << 20, perMessageDeflate: false });
  private readonly auth: Authenticator;
  private readonly sweep: NodeJS.Timeout;
  private readonly unsubscribe: () => void;
  private closing = false;
  tokenEpoch = 0;
  /** Open (or opening) Gateway sockets per client address, for --gateway-connections-per-ip. */
  readonly perIp = new Map<string, number>();

  /** Names this Gateway in control events it publishes (it hears its own through the bus too). */
  private readonly nodeId = crypto.randomBytes(8).toString('hex');

  /** `store`: distributed mode, where sessions are recorded so that any node can resume them. */
  constructor(
    private readonly ctx: Ctx,
    private readonly store: RedisSessionStore | null = null,
  ) {
    this.auth = new Authenticator(ctx);
    this.presences = ctx.presences;
    this.dispatcher = new Dispatcher(ctx, this.presences);
    this.unsubscribe = ctx.bus.subscribe(
      (e) => {
        // Published on every node after the store changed (token reset, password change, deauthorization, ban): each
        // node ends its own sessions whose token is gone, so one without its own lookup needs nothing but the bus.
        if (e.t === '__TOKENS_CHANGED') {
          this.auth.clear();
          this.tokenEpoch++;
          if (e.d?.user_id) void this.revalidate(String(e.d.user_id)).catch((err) => console.error('[gateway] token check', err));
        }
        // After the events already queued (a merge's USER_MERGE_OPERATION_COMPLETED must reach the session first).
        if (e.t === '__USER_SESSIONS_INVALIDATED') void this.dispatcher.idle().then(() => this.endSessionsOf(String(e.d?.user_id)));
        // Another node resumed one of this node's sessions (its client lost this node): it lives there now.
        if (e.t === '__SESSION_MOVED' && e.d?.node !== this.nodeId) this.forget(String(e.d?.session_id));
        this.dispatcher.enqueue(e);
      },
      { ordered: true },
    ); // every node's events in one order, for the guilds and users of this node's sessions
    this.sweep = setInterval(() => this.sweepSessions(), 5000);
    this.sweep.unref();
  }

  get resumeUrl(): string {
    return gatewayUrl(this.ctx.publicUrl);
  }

  shardOf(guildId: string, count: number): number {
    return shardOf(guildId, count);
  }

  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    // A server shutting down takes no new sessions: clients reconnecting at once would keep it from closing.
    if (this.closing) return void socket.destroy();
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/' && url.pathname !== '/gateway') return void socket.destroy();
    const v = url.searchParams.get('v');
    const encoding = url.searchParams.get('encoding') ?? 'json';
    const compress = url.searchParams.get('compress');
    if (!this.admit(clientAddress(req, this.ctx.config.trustProxy), socket)) return;
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      if (v !== null && v !== '10' && v !== '9') return ws.close(Close.INVALID_API_VERSION, 'Invalid API version.');
      if (encoding !== 'json') return ws.close(Close.DECODE_ERROR, 'Only the json encoding is supported.');
      if (compress !== null && compress !== 'zlib-stream') return ws.close(Close.DECODE_ERROR, 'Unsupported compression.');
      const conn = new Connection(ws, this, this.ctx, this.auth, compress === 'zlib-stream');
      this.connections.add(conn);
      ws.on('close', () => this.connections.delete(conn));
    });
  }

  /**
   * Counts the socket against its address until it closes; past the cap the upgrade is answered 429 and never
   * becomes a WebSocket (no Hello, nothing allocated).
   */
  private admit(ip: string, socket: Duplex): boolean {
    const open = this.perIp.get(ip) ?? 0;
    if (open >= this.ctx.config.gatewayConnectionsPerIp) {
      socket.end(TOO_MANY);
      return false;
    }
    this.perIp.set(ip, open + 1);
    socket.once('close', () => {
      const n = (this.perIp.get(ip) ?? 1) - 1;
      if (n > 0) this.perIp.set(ip, n);
      else this.perIp.delete(ip);
    });
    return true;
  }

  attach(s: Session): void {
    s.tap = this.tap;
    s.faults = s.isBot ? this.faults : null; // faults are of an application: its bot's sessions
    this.sessions.set(s.id, s);
    this.dispatcher.add(s);
  }

  /** Distributed mode: the bus position a new session starts after, and its record from then on. */
  async position(): Promise<number> {
    return this.store ? this.store.position() : 0;
  }

  record(s: Session): void {
    this.store?.start(s);
  }

  /**
   * Distributed mode: takes over a session of another node (which may be dead) from its record, rebuilt up to now,
   * for a client resuming from `seq` with the token it identified with. Null when there is no such session to take.
   */
  async adopt(id: string, actor: Actor, tokenHash: string, seq: number): Promise<Session | null> {
    const stored = this.store ? await this.store.load(id) : null;
    if (!this.store || !stored || stored.meta.userId !== actor.user.id || stored.meta.tokenHash !== tokenHash || this.sessions.has(id)) return null;
    const store = this.store;
    const m = stored.meta;
    const s = new Session(id, actor, m.intents, m.shard, m.capabilities, m.largeThreshold);
    s.tokenHash = m.tokenHash;
    const base = checkpointFor(stored, seq);
    const release = await this.hold(m.userId, base?.guilds ?? []);
    try {
      return await this.dispatcher.exclusive(async () => {
        if (this.sessions.has(id) || !(await rebuildSession(this.dispatcher, store, s, stored, seq))) {
          this.dispatcher.remove(s);
          return null;
        }
        this.ctx.bus.publish({ t: '__SESSION_MOVED', d: { session_id: id, node: this.nodeId } });
        store.adopt(s, stored);
        s.detachedAt = performance.now(); // until the resuming socket takes it (the resume window runs if it never does)
        this.attach(s);
        return s;
      });
    } finally {
      release();
    }
  }

  /** A session that moved to another node: dropped here without ending it (no presence, voice or record changes). */
  private forget(id: string): void {
    const s = this.sessions.get(id);
    if (!s) return;
    s.dead = true;
    this.sessions.delete(id);
    this.dispatcher.remove(s);
    this.store?.release(id);
    const t = s.transport;
    s.transport = null;
    t?.close(Close.SESSION_TIMED_OUT, 'Session resumed elsewhere.');
  }

  hold(userId: string, guildIds: Iterable<string>): Promise<() => void> {
    return this.dispatcher.hold(userId, guildIds);
  }

  sendGuildCreates(s: Session): void {
    if (s.guildIds.size) this.dispatcher.enqueueGuildCreates(s);
  }

  /** A connection ended: a clean close (1000/1001) ends its session, anything else keeps it resumable. */
  detach(conn: Parameters<GatewayHub['detach']>[0], clean: boolean): void {
    const s = conn.session;
    if (!s || s.transport !== conn) return;
    this.park(s);
    // A node shutting down in distributed mode keeps its sessions' records: their clients resume on another node.
    if (clean && !(this.closing && this.store)) this.kill(s);
  }

  /** The session has no socket now and waits for a resume; the resume window runs from here. */
  private park(s: Session): void {
    s.transport = null;
    s.detachedAt = performance.now();
  }

  kill(s: Session): void {
    if (s.dead) return;
    s.dead = true;
    this.sessions.delete(s.id);
    this.dispatcher.remove(s);
    this.store?.end(s.id);
    voiceStates(this.ctx).sessionEnded(s.id); // its users leave voice
    calls(this.ctx).sessionEnded(s.id); // and DM calls
    const last = !this.dispatcher.byUser.has(s.userId);
    if (!this.closing) void sdkSessionEnded(this.ctx, s, last).catch((err) => console.error('[gateway] session end', err)); // lobby calls, LOBBY_MEMBER_DISCONNECT
    void leaveSession(this.ctx, s.userId, s.id).catch(() => {}); // and the Activity instances it took part in
    if (last) this.publishPresence(s, { status: 'offline', activities: [], client_status: {} }, true);
  }

  sessionsOf(userId: string): number {
    return this.dispatcher.byUser.get(userId)?.size ?? 0;
  }

  /** The account's tokens are gone (ban, merge): its sessions end now (4004), not at their next resume. */
  private endSessionsOf(userId: string): void {
    for (const s of [...this.sessions.values()]) {
      if (s.userId === userId) this.endSession(s);
    }
  }

  async revalidate(userId: string): Promise<void> {
    const mine = [...(this.dispatcher.byUser.get(userId) ?? [])].filter((s) => s.tokenHash);
    if (!mine.length) return;
    const alive = await existingTokenHashes(this.ctx, [...new Set(mine.map((s) => s.tokenHash))]);
    for (const s of mine) if (!alive.has(s.tokenHash)) this.endSession(s);
  }

  /** Closes a session's socket with 4004 and ends the session: it cannot be resumed. */
  private endSession(s: Session): void {
    s.transport?.close(Close.AUTHENTICATION_FAILED, 'Authentication failed.');
    s.transport = null;
    this.kill(s);
  }

  setPresence(s: Session, raw: any): void {
    const status = typeof raw?.status === 'string' && STATUSES.has(raw.status) ? raw.status : 'online';
    const activities = normalizeActivities(raw?.activities, {
      applicationId: s.actor.kind === 'bearer' ? s.actor.applicationId : null,
      now: this.ctx.clock.now(),
    });
    this.publishPresence(s, { status, activities, client_status: { [s.isBot ? 'web' : 'desktop']: status } }, false);
  }

  private publishPresence(s: Session, p: Presence, offline: boolean): void {
    if (offline) this.presences.clear(s.userId);
    else this.presences.set(s.userId, p);
    const visible = this.presences.visible(s.userId);
    if (!s.isBot && !this.closing)
      void publishPresenceToFriends(this.ctx, s.userId, visible).catch((err) => console.error('[gateway] presence to friends', err));
    for (const guildId of s.guildIds) {
      this.ctx.bus.publish({
        t: 'PRESENCE_UPDATE',
        d: { user: { id: s.userId }, guild_id: guildId, status: visible.status, activities: visible.activities, client_status: visible.client_status },
        guild_id: guildId,
      });
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

  /**
   * Asks a session's client to reconnect and resume (op 7), as the platform does before maintenance: the socket carries
   * none of the session's events after it (they wait for the resume), and is closed (1012) if the client has not closed
   * it within RECONNECT_GRACE_MS. A client that ignores op 7 misses everything from then on.
   */
  requestReconnect(s: Session): void {
    const t = s.transport;
    if (!t) return;
    t.send('{"op":7,"d":null,"s":null,"t":null}');
    this.park(s);
    setTimeout(() => t.close(1012, 'Reconnect requested.'), RECONNECT_GRACE_MS).unref();
  }

  close(): void {
    this.closing = true; // sessions ending now need no friends told: the store closes next
    clearInterval(this.sweep);
    this.unsubscribe();
    for (const c of this.connections) c.close(1001, 'Server shutting down.');
    this.wss.close();
  }
}

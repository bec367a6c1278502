import { Capability } from '@accord/protocol';
import { ClientError, Status } from './enums.js';
import { openSocket, type SocketLike } from './socket.js';
import { VERSION } from './version.js';

/** Close codes after which reconnecting cannot help (the token or the request is wrong). */
const FATAL = new Set([4004, 4010, 4011, 4012, 4013, 4014]);
const BACKOFF_MS = [250, 500, 1000, 2000, 5000];

export interface GatewayEvents {
  status(status: Status, error: ClientError, detail: number): void;
  dispatch(t: string, d: any): void;
  /** READY or RESUMED: the session is usable (again). */
  ready(kind: 'READY' | 'RESUMED', d: any): void;
}

/**
 * The SDK's Gateway session: Identify with the Bearer token, the release, and AUTO_LOBBY_CONNECT; heartbeats; on an
 * unexpected close it reconnects by itself (Reconnecting) and resumes the session, or identifies anew when the
 * session is gone. Fatal close codes (bad token, end-of-life release) stop it with ConnectionFailed and the code.
 */
export class GatewaySession {
  private ws: SocketLike | null = null;
  private seq: number | null = null;
  private sessionId: string | null = null;
  private resumeUrl: string | null = null;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private acked = true;
  private stopped = true;
  private attempt = 0;
  private presence: unknown = null;

  constructor(
    private readonly url: () => Promise<string>,
    private readonly token: () => string,
    private readonly on: GatewayEvents,
  ) {}

  get connected(): boolean {
    return !this.stopped && this.ws?.readyState === 1;
  }

  async start(): Promise<void> {
    this.stopped = false;
    this.attempt = 0;
    this.sessionId = null;
    this.seq = null;
    await this.open(false);
  }

  /** Closes for good (1000: the session ends on the server too). */
  stop(): void {
    this.stopped = true;
    this.clearHeartbeat();
    const ws = this.ws;
    this.ws = null;
    if (ws && ws.readyState <= 1) ws.close(1000, 'disconnect');
  }

  send(op: number, d: unknown): boolean {
    if (this.ws?.readyState !== 1) return false;
    this.ws.send(JSON.stringify({ op, d }));
    return true;
  }

  /** Presence to send with Identify (and with op 3 now, when connected). */
  setPresence(p: unknown): void {
    this.presence = p;
    this.send(3, p);
  }

  private async open(resuming: boolean): Promise<void> {
    this.on.status(resuming ? Status.Reconnecting : Status.Connecting, ClientError.None, 0);
    let ws: SocketLike;
    try {
      const base = resuming && this.resumeUrl ? this.resumeUrl : await this.url();
      ws = await openSocket(`${base.replace(/\/+$/, '')}/?v=10&encoding=json`);
    } catch {
      return this.retry(ClientError.ConnectionFailed, 0);
    }
    if (this.stopped) return void ws.close(1000);
    this.ws = ws;
    ws.onmessage = (ev) => this.onMessage(ws, String(ev.data));
    ws.onerror = () => {};
    ws.onclose = (ev) => this.onClose(ws, ev.code);
  }

  private onMessage(ws: SocketLike, raw: string): void {
    if (ws !== this.ws) return;
    const msg = JSON.parse(raw) as { op: number; d: any; s: number | null; t: string | null };
    if (msg.s != null) this.seq = msg.s;
    switch (msg.op) {
      case 10: {
        this.startHeartbeat(msg.d.heartbeat_interval);
        this.on.status(Status.Connected, ClientError.None, 0);
        if (this.sessionId) this.send(6, { token: this.token(), session_id: this.sessionId, seq: this.seq ?? 0 });
        else this.identify();
        return;
      }
      case 11:
        this.acked = true;
        return;
      case 1:
        this.send(1, this.seq);
        return;
      case 7:
        return void ws.close(4000, 'reconnect requested');
      case 9:
        this.sessionId = null;
        this.seq = null;
        return this.identify();
      case 0:
        if (msg.t === 'READY') {
          this.sessionId = msg.d.session_id;
          this.resumeUrl = msg.d.resume_gateway_url ?? null;
          this.attempt = 0;
          this.on.ready('READY', msg.d);
        } else if (msg.t === 'RESUMED') {
          this.attempt = 0;
          this.on.ready('RESUMED', msg.d);
        }
        this.on.dispatch(msg.t!, msg.d);
    }
  }

  private identify(): void {
    this.send(2, {
      token: this.token(),
      capabilities: Capability.AUTO_LOBBY_CONNECT,
      intents: 0,
      properties: {
        os: typeof process !== 'undefined' ? process.platform : 'browser',
        browser: 'Discord Social SDK',
        device: 'accord-social-sdk',
        sdk_version: VERSION,
      },
      ...(this.presence ? { presence: this.presence } : {}),
    });
  }

  private onClose(ws: SocketLike, code: number): void {
    if (ws !== this.ws) return;
    this.ws = null;
    this.clearHeartbeat();
    if (this.stopped) return;
    if (FATAL.has(code)) {
      this.stopped = true;
      this.on.status(Status.Disconnected, ClientError.ConnectionFailed, code);
      return;
    }
    this.retry(ClientError.UnexpectedClose, code);
  }

  private retry(error: ClientError, detail: number): void {
    if (this.stopped) return;
    this.on.status(Status.Reconnecting, error, detail);
    const delay = BACKOFF_MS[Math.min(this.attempt++, BACKOFF_MS.length - 1)];
    setTimeout(() => {
      if (!this.stopped) void this.open(true);
    }, delay);
  }

  private startHeartbeat(intervalMs: number): void {
    this.clearHeartbeat();
    this.acked = true;
    this.heartbeat = setInterval(() => {
      if (!this.acked) return void this.ws?.close(4000, 'heartbeat not acknowledged');
      this.acked = false;
      this.send(1, this.seq);
    }, intervalMs);
    (this.heartbeat as { unref?: () => void }).unref?.();
  }

  private clearHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }
}

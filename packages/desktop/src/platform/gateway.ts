import { EventEmitter } from 'node:events';
import WebSocket from 'ws';

/** Close codes after which identifying again cannot help (bad token, bad intents, …). */
const FATAL = new Set([4004, 4010, 4011, 4012, 4013, 4014]);

export interface GatewayPresence {
  status: 'online' | 'idle' | 'dnd' | 'invisible';
  activities: unknown[];
  since: number | null;
  afk: boolean;
}

/**
 * The person's own Gateway session (op 2 Identify with a user token): heartbeats, and RESUME after a drop so no
 * dispatch is lost. Emits `dispatch` (t, d) for every event, `ready` after READY or RESUMED, and `fatal` when the
 * platform refuses the session for good.
 */
export class UserGateway extends EventEmitter {
  private ws: WebSocket | null = null;
  private seq: number | null = null;
  private sessionId: string | null = null;
  private resumeUrl: string | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private acked = true;
  private stopped = false;
  private reconnectTimer: NodeJS.Timeout | null = null;
  /** Failed reconnects in a row: the wait doubles with each, up to 30 s, and resets once READY or RESUMED arrive. */
  private failures = 0;
  private presence: GatewayPresence = { status: 'online', activities: [], since: null, afk: false };
  /** How many times it connected (1 = the first identify); RESUMEs count too. For tests and logs. */
  connects = 0;
  resumes = 0;

  constructor(
    private readonly gatewayUrl: string,
    private readonly token: string,
  ) {
    super();
  }

  start(): Promise<void> {
    const ready = new Promise<void>((resolve, reject) => {
      this.once('ready', () => resolve());
      this.once('fatal', (code: number) => reject(new Error(`gateway refused the session (close ${code})`)));
    });
    this.open(this.gatewayUrl);
    return ready;
  }

  /** Replaces the presence (op 3); it is also sent again with any fresh identify. */
  setPresence(p: Partial<GatewayPresence>): void {
    this.presence = { ...this.presence, ...p };
    this.send(3, this.presence);
  }

  send(op: number, d: unknown): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ op, d }));
  }

  /** Drops the connection without ending the session, as a network failure would (the next connect resumes). */
  drop(): void {
    this.ws?.terminate();
  }

  stop(): void {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.stopHeartbeat();
    this.ws?.close(1000);
    this.ws = null;
  }

  private open(base: string): void {
    const url = new URL(base);
    url.searchParams.set('v', '10');
    url.searchParams.set('encoding', 'json');
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.on('message', (data) => this.onMessage(ws, data.toString()));
    ws.on('close', (code) => this.onClose(ws, code));
    ws.on('error', () => {}); // a 'close' follows
  }

  private onMessage(ws: WebSocket, raw: string): void {
    if (ws !== this.ws) return;
    let msg: { op: number; d: any; s: number | null; t: string | null };
    try {
      msg = JSON.parse(raw);
    } catch {
      return;
    }
    if (msg.s != null) this.seq = msg.s;
    switch (msg.op) {
      case 10:
        this.startHeartbeat(msg.d?.heartbeat_interval ?? 41250);
        this.connects++;
        if (this.sessionId && this.seq !== null) {
          this.resumes++;
          this.send(6, { token: this.token, session_id: this.sessionId, seq: this.seq });
        } else {
          this.send(2, {
            token: this.token,
            properties: { os: process.platform, browser: 'Accord Desktop', device: 'accord-desktop' },
            presence: this.presence,
            capabilities: 0,
          });
        }
        return;
      case 11:
        this.acked = true;
        return;
      case 1:
        this.send(1, this.seq);
        return;
      case 7: // reconnect and resume
        ws.close(4000);
        return;
      case 9: // invalid session: identify afresh
        if (!msg.d) {
          this.sessionId = null;
          this.seq = null;
        }
        ws.close(4000);
        return;
      case 0:
        if (msg.t === 'READY') {
          this.sessionId = msg.d.session_id;
          this.resumeUrl = msg.d.resume_gateway_url ?? null;
        }
        this.emit('dispatch', msg.t, msg.d);
        if (msg.t === 'READY' || msg.t === 'RESUMED') {
          this.failures = 0;
          this.emit('ready', msg.t);
        }
        return;
    }
  }

  private onClose(ws: WebSocket, code: number): void {
    if (ws !== this.ws) return;
    this.stopHeartbeat();
    this.ws = null;
    if (this.stopped) return;
    if (FATAL.has(code)) {
      this.stopped = true;
      this.emit('fatal', code);
      return;
    }
    const wait = Math.min(30_000, 250 * 2 ** this.failures++) + Math.random() * 750;
    this.reconnectTimer = setTimeout(() => this.open(this.sessionId && this.resumeUrl ? this.resumeUrl : this.gatewayUrl), wait);
  }

  private startHeartbeat(interval: number): void {
    this.stopHeartbeat();
    this.acked = true;
    const beat = () => {
      if (!this.acked) return this.ws?.terminate(); // zombie connection: reconnect and resume
      this.acked = false;
      this.send(1, this.seq);
    };
    const first = setTimeout(() => {
      beat();
      this.heartbeat = setInterval(beat, interval);
    }, interval * Math.random());
    this.heartbeat = first;
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) {
      clearTimeout(this.heartbeat);
      clearInterval(this.heartbeat);
    }
    this.heartbeat = null;
  }
}

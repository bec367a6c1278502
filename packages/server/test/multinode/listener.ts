import WebSocket from 'ws';

/**
 * One user session as a real client keeps it: Identify, heartbeats carrying the last `s`, and on a dropped socket a
 * reconnect to another gateway node and RESUME with the session id and last `s`. It records what the test checks:
 * every MESSAGE_CREATE id of the watched channel, and every `s` in order.
 */
export class Listener {
  sessionId: string | null = null;
  lastSeq = 0;
  ready = false;
  guildCreated = false;
  /** MESSAGE_CREATE ids of the watched channel, with how often each came. */
  readonly messages = new Map<string, number>();
  /** `s` values that did not follow the previous one (the previous and the received). */
  readonly seqBreaks: [number, number][] = [];
  identifies = 0;
  resumes = 0;
  resumed = 0;
  invalidSessions = 0;
  reconnects = 0;
  /** What happened to the session, for a failure's report: resumes, invalid sessions, duplicates with their `s`. */
  readonly notes: string[] = [];
  private heartbeats = 0;
  /** The `s` each message id first came with (to show where a duplicate came from). */
  private firstSeq = new Map<string, number>();
  /** The node (index into `nodes`) of the current socket. */
  node: number;
  private ws: WebSocket | null = null;
  private beat: NodeJS.Timeout | null = null;
  private stopped = false;
  private readyWaiters: (() => void)[] = [];

  constructor(
    private readonly token: string,
    private readonly nodes: string[],
    first: number,
    private readonly channelId: string,
    /** Nodes a client has seen refuse connections: skipped first on later reconnects. */
    private readonly down: Set<number>,
  ) {
    this.node = first;
  }

  /** Opens the socket and identifies; resolves on READY and the guild's GUILD_CREATE. */
  start(): Promise<void> {
    this.open();
    return this.settled();
  }

  /** Resolves once the session is ready and has its guild (again, after a re-identify). */
  settled(): Promise<void> {
    if (this.ready && this.guildCreated) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /** Whether the session is attached and caught up as far as it knows (after a RESUMED, or never dropped). */
  get connected(): boolean {
    return this.ws?.readyState === WebSocket.OPEN && this.ready && this.guildCreated;
  }

  stop(): void {
    this.stopped = true;
    this.clearBeat();
    this.ws?.terminate();
  }

  private open(): void {
    const url = this.nodes[this.node].replace(/^http/, 'ws') + '/?v=10&encoding=json';
    const ws = new WebSocket(url, { handshakeTimeout: 15_000 });
    this.ws = ws;
    ws.on('message', (data) => this.onFrame(ws, JSON.parse(data.toString())));
    ws.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNREFUSED' || err.code === 'EHOSTUNREACH') this.down.add(this.node);
    });
    ws.on('close', (code, reason) => {
      if (ws === this.ws && !this.stopped && this.resumes > this.resumed) this.notes.push(`closed ${code} ${reason.toString()}`.trim());
      this.onClose(ws);
    });
  }

  private onFrame(ws: WebSocket, f: { op: number; d: any; s: number | null; t: string | null }): void {
    if (ws !== this.ws) return;
    if (f.s != null) {
      if (f.s !== this.lastSeq + 1) this.seqBreaks.push([this.lastSeq, f.s]);
      if (f.s > this.lastSeq) this.lastSeq = f.s;
    }
    switch (f.op) {
      case 10: {
        this.clearBeat();
        const interval = f.d.heartbeat_interval as number;
        const first = setTimeout(() => {
          this.heartbeat(ws);
          this.beat = setInterval(() => this.heartbeat(ws), interval);
        }, Math.random() * interval);
        this.beat = first;
        if (this.sessionId) {
          this.resumes++;
          this.notes.push(`RESUME seq ${this.lastSeq} on node ${this.node}`);
          ws.send(JSON.stringify({ op: 6, d: { token: this.token, session_id: this.sessionId, seq: this.lastSeq } }));
        } else this.identify(ws);
        return;
      }
      case 1:
        return this.heartbeat(ws);
      case 7: // reconnect requested: close and resume elsewhere
        return void ws.close(4900);
      case 9: {
        // The session cannot be resumed: a real client identifies anew, as a new session whose `s` starts over. The
        // test counts this as a failure (every event of the old session after its last `s` is lost).
        this.invalidSessions++;
        this.notes.push(`INVALID_SESSION after ${this.heartbeats} heartbeats (last s ${this.lastSeq})`);
        this.sessionId = null;
        this.lastSeq = 0;
        this.ready = false;
        this.guildCreated = false;
        setTimeout(() => ws === this.ws && ws.readyState === WebSocket.OPEN && this.identify(ws), 1000 + Math.random() * 1000);
        return;
      }
      case 0:
        break;
      default:
        return;
    }
    if (f.t === 'READY') {
      this.sessionId = f.d.session_id;
      this.ready = true;
    } else if (f.t === 'GUILD_CREATE') {
      this.guildCreated = true;
      if (this.ready) for (const w of this.readyWaiters.splice(0)) w();
    } else if (f.t === 'RESUMED') {
      this.resumed++;
      this.notes.push(`RESUMED at s ${f.s}`);
    } else if (f.t === 'MESSAGE_CREATE' && f.d.channel_id === this.channelId) {
      this.messages.set(f.d.id, (this.messages.get(f.d.id) ?? 0) + 1);
      const first = this.firstSeq.get(f.d.id);
      if (first === undefined) this.firstSeq.set(f.d.id, f.s!);
      else this.notes.push(`MESSAGE_CREATE ${f.d.id} again at s ${f.s} (first at s ${first})`);
    }
  }

  private identify(ws: WebSocket): void {
    this.identifies++;
    ws.send(JSON.stringify({ op: 2, d: { token: this.token, properties: { os: 'linux', browser: 'accord-multinode', device: 'accord-multinode' } } }));
  }

  private heartbeat(ws: WebSocket): void {
    if (ws !== this.ws || ws.readyState !== WebSocket.OPEN) return;
    this.heartbeats++;
    ws.send(JSON.stringify({ op: 1, d: this.lastSeq || null }));
  }

  private clearBeat(): void {
    if (this.beat) clearInterval(this.beat);
    this.beat = null;
  }

  /** Any close but ours: reconnect to the next gateway node (preferring nodes not seen down) after a short jitter. */
  private onClose(ws: WebSocket): void {
    if (ws !== this.ws || this.stopped) return;
    this.clearBeat();
    this.reconnects++;
    const n = this.nodes.length;
    let next = (this.node + 1) % n;
    for (let i = 0; i < n && this.down.has(next); i++) next = (next + 1) % n;
    this.node = next;
    setTimeout(() => !this.stopped && this.open(), 250 + Math.random() * 1500);
  }
}

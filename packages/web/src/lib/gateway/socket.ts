/**
 * The user Gateway session in the browser: HELLO, op 2 IDENTIFY as a person, heartbeats with jitter (a missed ACK
 * means a zombie connection), RESUME after a drop, op 7 RECONNECT and op 9 INVALID_SESSION, as the official client
 * does. Dispatches go to one listener (the store). JSON encoding, no compression: browsers parse JSON natively.
 */

import { Capability, Op } from '@accord/protocol';

/** Close codes after which reconnecting cannot help. */
const FATAL = new Set([4004, 4010, 4011, 4012, 4013, 4014]);

export type GatewayStatus = 'connecting' | 'ready' | 'resuming' | 'reconnecting' | 'closed' | 'failed';

export interface GatewayOptions {
  url: string;
  token: string;
  onDispatch(t: string, d: any): void;
  onStatus?(status: GatewayStatus, detail?: string): void;
  /** Server rejected the token (4004): log out. */
  onAuthFailed?(): void;
}

export class GatewaySocket {
  private ws: WebSocket | null = null;
  private seq: number | null = null;
  private sessionId: string | null = null;
  private resumeUrl: string | null = null;
  private beat: ReturnType<typeof setTimeout> | null = null;
  private acked = true;
  private attempts = 0;
  private stopped = false;
  status: GatewayStatus = 'connecting';

  constructor(private readonly opts: GatewayOptions) {}

  get session(): string | null {
    return this.sessionId;
  }

  start(): void {
    this.stopped = false;
    this.open(false);
  }

  /** Closes for good (log out, leaving the page). */
  stop(): void {
    this.stopped = true;
    this.clearBeat();
    this.ws?.close(1000);
    this.ws = null;
    this.setStatus('closed');
  }

  send(op: number, d: unknown): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ op, d }));
  }

  private open(resume: boolean): void {
    const base = resume && this.resumeUrl ? this.resumeUrl : this.opts.url;
    const url = `${base.replace(/\/?$/, '/')}?v=10&encoding=json`;
    this.setStatus(resume ? 'resuming' : this.attempts ? 'reconnecting' : 'connecting');
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.onmessage = (ev) => {
      if (this.ws !== ws) return;
      let frame: { op: number; d: any; s?: number | null; t?: string | null };
      try {
        frame = JSON.parse(String(ev.data));
      } catch {
        return;
      }
      this.onFrame(frame, resume);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.clearBeat();
      if (this.stopped) return;
      if (ev.code === 4004) {
        this.setStatus('failed', 'Authentication failed');
        this.opts.onAuthFailed?.();
        return;
      }
      if (FATAL.has(ev.code)) return this.setStatus('failed', ev.reason || `Closed (${ev.code})`);
      // 4007 invalid seq and 4009 timed out need a new session; anything else tries to resume.
      if (ev.code === 4007 || ev.code === 4009) this.forget();
      this.retry();
    };
  }

  private onFrame(f: { op: number; d: any; s?: number | null; t?: string | null }, resuming: boolean): void {
    switch (f.op) {
      case Op.HELLO: {
        this.startBeat(Number(f.d?.heartbeat_interval ?? 41250));
        if (resuming && this.sessionId) {
          this.send(Op.RESUME, { token: this.opts.token, session_id: this.sessionId, seq: this.seq });
        } else {
          this.send(Op.IDENTIFY, {
            token: this.opts.token,
            // Calls already ringing when this page connects arrive as CALL_CREATE after READY.
            capabilities: Capability.AUTO_CALL_CONNECT,
            properties: { os: platformName(), browser: 'Accord Web', device: '' },
            presence: { status: 'online', since: 0, activities: [], afk: false },
          });
        }
        return;
      }
      case Op.HEARTBEAT_ACK:
        this.acked = true;
        return;
      case Op.HEARTBEAT:
        this.send(Op.HEARTBEAT, this.seq);
        return;
      case Op.RECONNECT:
        this.ws?.close(4900, 'Reconnect requested');
        return;
      case Op.INVALID_SESSION:
        if (!f.d) this.forget();
        // The documented wait of 1-5 s before sending a new IDENTIFY.
        setTimeout(() => this.ws?.close(4901, 'Invalid session'), 1000 + Math.random() * 2000);
        return;
      case Op.DISPATCH: {
        if (typeof f.s === 'number') this.seq = f.s;
        if (f.t === 'READY') {
          this.sessionId = f.d.session_id;
          this.resumeUrl = f.d.resume_gateway_url ?? null;
          this.attempts = 0;
          this.setStatus('ready');
        } else if (f.t === 'RESUMED') {
          this.attempts = 0;
          this.setStatus('ready');
        }
        if (f.t) this.opts.onDispatch(f.t, f.d);
        return;
      }
      default:
    }
  }

  private startBeat(interval: number): void {
    this.clearBeat();
    this.acked = true;
    const tick = () => {
      if (!this.acked) {
        // Zombie: no ACK since the last beat. Drop the socket and resume.
        this.ws?.close(4902, 'Heartbeat not acknowledged');
        return;
      }
      this.acked = false;
      this.send(Op.HEARTBEAT, this.seq);
      this.beat = setTimeout(tick, interval);
    };
    this.beat = setTimeout(tick, interval * Math.random());
  }

  private clearBeat(): void {
    if (this.beat) clearTimeout(this.beat);
    this.beat = null;
  }

  private forget(): void {
    this.sessionId = null;
    this.seq = null;
    this.resumeUrl = null;
  }

  private retry(): void {
    this.attempts++;
    const delay = Math.min(30_000, 500 * 2 ** Math.min(this.attempts - 1, 6)) * (0.5 + Math.random() / 2);
    this.setStatus('reconnecting');
    setTimeout(() => {
      if (!this.stopped) this.open(this.sessionId !== null);
    }, delay);
  }

  private setStatus(s: GatewayStatus, detail?: string): void {
    this.status = s;
    this.opts.onStatus?.(s, detail);
  }
}

function platformName(): string {
  const p = typeof navigator !== 'undefined' ? navigator.userAgent : '';
  if (/Windows/.test(p)) return 'Windows';
  if (/Mac OS/.test(p)) return 'Mac OS X';
  if (/Linux/.test(p)) return 'Linux';
  return 'Unknown';
}

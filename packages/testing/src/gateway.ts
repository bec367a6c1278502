import WebSocket from 'ws';
import { Arrivals } from './waiter.js';

export interface Dispatch {
  t: string;
  d: any;
  s: number;
}

/**
 * A person's Gateway session, as the official client keeps one: what the platform sends them (their messages,
 * ephemeral answers, modals, interaction outcomes) lands in `events`, where tests wait for it.
 */
export class PersonGateway {
  readonly events = new Arrivals<Dispatch>((e) => `${e.t} ${summary(e.d)}`);
  sessionId = '';
  private ws: WebSocket | null = null;
  private beat: NodeJS.Timeout | null = null;
  private seq: number | null = null;
  private readonly listeners = new Set<(e: Dispatch) => void>();

  constructor(
    private readonly url: string,
    private readonly token: string,
  ) {}

  /** Connects and resolves at READY. */
  open(): Promise<void> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${this.url}/?v=10&encoding=json`);
      this.ws = ws;
      ws.on('error', reject);
      ws.on('close', (code) => {
        if (this.beat) clearInterval(this.beat);
        if (!this.sessionId) reject(new Error(`the Gateway closed the person's session before READY (${code})`));
      });
      ws.on('message', (raw) => {
        const p = JSON.parse(String(raw));
        if (p.s != null) this.seq = p.s;
        if (p.op === 10) {
          this.beat = setInterval(() => ws.readyState === 1 && ws.send(JSON.stringify({ op: 1, d: this.seq })), p.d.heartbeat_interval);
          this.beat.unref();
          ws.send(JSON.stringify({ op: 2, d: { token: this.token, capabilities: 16381, properties: { os: 'linux', browser: 'Accord testing', device: '' } } }));
        } else if (p.op === 0) {
          if (p.t === 'READY') {
            this.sessionId = p.d.session_id;
            resolve();
          }
          const e = { t: p.t, d: p.d, s: p.s };
          this.events.push(e);
          for (const l of this.listeners) l(e);
        }
      });
    });
  }

  /** Every dispatch from now on (voice uses it for VOICE_STATE_UPDATE and VOICE_SERVER_UPDATE). */
  onDispatch(listener: (e: Dispatch) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Sends a Gateway command (op 4, a voice state update, for one). */
  send(payload: { op: number; d: unknown }): boolean {
    if (this.ws?.readyState !== 1) return false;
    this.ws.send(JSON.stringify(payload));
    return true;
  }

  close(): void {
    if (this.beat) clearInterval(this.beat);
    this.ws?.close(1000);
  }
}

function summary(d: any): string {
  if (!d || typeof d !== 'object') return '';
  const parts = [
    d.id && `id=${d.id}`,
    d.channel_id && `channel=${d.channel_id}`,
    d.author?.username && `from=${d.author.username}`,
    typeof d.content === 'string' && JSON.stringify(d.content.slice(0, 60)),
    d.nonce && `nonce=${d.nonce}`,
  ];
  return parts.filter(Boolean).join(' ');
}

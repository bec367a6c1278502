import { VoiceOp } from '@accord/protocol';

export { VoiceOp };

export interface VoiceSocketHandlers {
  open(): void;
  json(op: number, d: any): void;
  binary(op: number, payload: Uint8Array): void;
  closed(code: number, reason: string): void;
}

/**
 * The voice gateway's WebSocket (wss://endpoint/?v=8): JSON messages, binary DAVE messages (`[seq u16][op u8]` from
 * the server, `[op u8]` to it), and heartbeats that acknowledge the last sequence number seen.
 */
export class VoiceSocket {
  private readonly ws: WebSocket;
  private beat: ReturnType<typeof setInterval> | null = null;
  private done = false;

  constructor(
    endpoint: string,
    private readonly on: VoiceSocketHandlers,
    /** The last sequence number seen (a resumed socket continues from its predecessor's). */
    public seq = -1,
  ) {
    this.ws = new WebSocket(`wss://${endpoint}/?v=8`);
    this.ws.binaryType = 'arraybuffer';
    this.ws.onopen = () => on.open();
    this.ws.onmessage = (e) => this.message(e.data);
    this.ws.onclose = (e) => {
      this.stopBeat();
      if (!this.done) on.closed(e.code, e.reason);
      this.done = true;
    };
  }

  private message(data: string | ArrayBuffer): void {
    if (typeof data !== 'string') {
      const bytes = new Uint8Array(data);
      if (bytes.length < 3) return;
      this.seq = (bytes[0] << 8) | bytes[1];
      return this.on.binary(bytes[2], bytes.subarray(3));
    }
    let msg: { op: number; d: any; seq?: number };
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    if (typeof msg.seq === 'number' && msg.seq > 0) this.seq = msg.seq;
    if (msg.op === VoiceOp.HELLO) this.startBeat(Number(msg.d?.heartbeat_interval) || 13_750);
    if (msg.op === VoiceOp.HEARTBEAT_ACK) return;
    this.on.json(msg.op, msg.d);
  }

  private startBeat(interval: number): void {
    this.stopBeat();
    this.beat = setInterval(() => this.send(VoiceOp.HEARTBEAT, { t: Date.now(), seq_ack: this.seq }), interval);
  }

  private stopBeat(): void {
    if (this.beat) clearInterval(this.beat);
    this.beat = null;
  }

  send(op: number, d: unknown): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ op, d }));
  }

  sendBinary(op: number, payload: Uint8Array): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    const frame = new Uint8Array(payload.length + 1);
    frame[0] = op;
    frame.set(payload, 1);
    this.ws.send(frame);
  }

  close(): void {
    this.done = true;
    this.stopBeat();
    this.ws.close(1000);
  }
}

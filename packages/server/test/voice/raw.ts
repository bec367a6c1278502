import fs from 'node:fs';
import WebSocket from 'ws';
import { RawGateway } from '../helpers/gateway-client.js';
import type { TestServer } from '../helpers/server.js';

/** One message from the voice gateway: JSON (`op`, `d`, `seq`) or binary (`seq`, `op`, `payload`). */
export interface VoiceFrame {
  op: number;
  d?: any;
  seq?: number;
  payload?: Buffer;
  binary: boolean;
}

/** A bare voice gateway client for protocol tests: it records every message and trusts the server's CA. */
export class RawVoice {
  readonly frames: VoiceFrame[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: { pred: (f: VoiceFrame) => boolean; resolve: (f: VoiceFrame) => void }[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer, isBinary) => {
      const f: VoiceFrame = isBinary
        ? { binary: true, seq: data.readUInt16BE(0), op: data[2], payload: Buffer.from(data.subarray(3)) }
        : { binary: false, ...JSON.parse(data.toString()) };
      this.frames.push(f);
      for (const w of [...this.waiters])
        if (w.pred(f)) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve(f);
        }
    });
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    ws.on('error', () => {});
  }

  static async connect(t: TestServer, query = '?v=8'): Promise<RawVoice> {
    const ws = new WebSocket(`wss://${t.server.voice.states.endpoint}/${query}`, { ca: fs.readFileSync(t.server.voice.tls!.caPath!) });
    const v = new RawVoice(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return v;
  }

  send(op: number, d: unknown): void {
    this.ws.send(JSON.stringify({ op, d }));
  }

  sendBinary(op: number, payload: Buffer): void {
    this.ws.send(Buffer.concat([Buffer.from([op]), payload]));
  }

  wait(pred: (f: VoiceFrame) => boolean, timeoutMs = 5000): Promise<VoiceFrame> {
    const seen = this.frames.find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for a voice frame; got ops ${this.frames.map((f) => f.op).join(',')}`)), timeoutMs);
      this.waiters.push({
        pred,
        resolve: (f) => {
          clearTimeout(timer);
          resolve(f);
        },
      });
    });
  }

  op(op: number, timeoutMs?: number): Promise<VoiceFrame> {
    return this.wait((f) => f.op === op, timeoutMs);
  }

  close(): void {
    this.ws.close(1000);
  }
}

/** GUILDS | GUILD_VOICE_STATES. */
export const VOICE_INTENTS = 1 | (1 << 7);

/** A bot on the main gateway that joined the seed voice channel: what Identify on the voice gateway needs. */
export async function joinOnGateway(t: TestServer, token: string, channelId = t.world.voiceChannelId) {
  const gw = await RawGateway.connect(t.server.url);
  const ready = await gw.identify(token, { intents: VOICE_INTENTS });
  gw.send(4, { guild_id: t.world.guildId, channel_id: channelId, self_mute: false, self_deaf: false });
  const server = await gw.dispatch('VOICE_SERVER_UPDATE');
  const state = gw.frames.find((f) => f.t === 'VOICE_STATE_UPDATE' && f.d.user_id === ready.user.id && f.d.channel_id === channelId)!.d;
  return {
    gw,
    userId: ready.user.id as string,
    sessionId: state.session_id as string,
    token: server.token as string,
    endpoint: server.endpoint as string,
    identify: (extra: Record<string, unknown> = {}) => ({
      server_id: t.world.guildId,
      user_id: ready.user.id,
      session_id: state.session_id,
      token: server.token,
      max_dave_protocol_version: 1,
      ...extra,
    }),
  };
}

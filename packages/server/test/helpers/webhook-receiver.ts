import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyKey } from 'discord-interactions';

/** One request the app's webhook-events endpoint received. */
export interface Received {
  raw: string;
  body: any;
  signature: string;
  timestamp: string;
  /** discord-interactions' verifyKey over the raw body with the app's public key. */
  verified: boolean;
  /** What the endpoint answered. */
  status: number;
  /** Real arrival time (ms). */
  at: number;
}

/**
 * An app's webhook-events endpoint on 127.0.0.1:0, behaving as discord-interactions' `verifyWebhookEventMiddleware`
 * does (401 without a valid signature, 204 for a PING) and answering events as `answer` decides (204 by default).
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  publicKey = '';
  /** Status for a verified event (`'hang'`: never answer; `'drop'`: destroy the socket). */
  answer: (body: any, nth: number) => number | 'hang' | 'drop' = () => 204;
  /** Status for a verified PING (204 is what the platform wants). */
  pingStatus = 204;
  /** Answer everything 204 without checking signatures (an endpoint the platform must refuse). */
  lax = false;
  private readonly hung: http.ServerResponse[] = [];

  private constructor(
    readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(port = 0): Promise<WebhookReceiver> {
    let self: WebhookReceiver | null = null;
    const server = http.createServer((req, res) => void self!.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    const addr = server.address() as AddressInfo;
    self = new WebhookReceiver(server, `http://127.0.0.1:${addr.port}/events`);
    return self;
  }

  /** The events (type 1) whose signature verified, in arrival order. */
  events(type?: string): Received[] {
    return this.received.filter((r) => r.verified && r.body?.type === 1 && (!type || r.body.event?.type === type));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const signature = String(req.headers['x-signature-ed25519'] ?? '');
    const timestamp = String(req.headers['x-signature-timestamp'] ?? '');
    let body: any = null;
    try {
      body = JSON.parse(raw);
    } catch {
      body = null;
    }
    const verified = !!signature && !!timestamp && !!this.publicKey && (await verifyKey(raw, signature, timestamp, this.publicKey).catch(() => false));
    const rec: Received = { raw, body, signature, timestamp, verified, status: 0, at: Date.now() };
    this.received.push(rec);
    const send = (status: number) => {
      rec.status = status;
      res.writeHead(status).end();
    };
    if (this.lax) return send(204);
    if (!verified) return send(401);
    if (body?.type === 0) return send(this.pingStatus);
    const nth = this.received.filter((r) => r.verified && r.body?.type === 1).length;
    const a = this.answer(body, nth);
    if (a === 'hang') {
      this.hung.push(res);
      return;
    }
    if (a === 'drop') {
      rec.status = -1;
      req.socket.destroy();
      return;
    }
    send(a);
  }

  async close(): Promise<void> {
    for (const r of this.hung) r.destroy();
    this.server.closeAllConnections?.();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

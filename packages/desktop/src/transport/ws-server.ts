import http from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import type { RpcCore } from '../rpc/core.js';
import { RpcClose, RpcCloseCode } from '../rpc/codes.js';
import type { RpcSocket, RpcTransport } from '../rpc/socket.js';
import { MAX_FRAME_BYTES } from './framing.js';
import { LINK_MAX_PAYLOAD, LINK_PATH, type WebConsentLink } from '../link/web-link.js';

export const WS_PORTS = [6463, 6464, 6465, 6466, 6467, 6468, 6469, 6470, 6471, 6472];

/**
 * RPC over WebSocket on the first free port of 127.0.0.1:6463–6472 (`/?v=1&client_id=…&encoding=json`). A browser
 * always sends an Origin, which must be one of the app's rpc_origins (else close 4001); native apps send none.
 * Plain HTTP on the same port answers 404, which discord-rpc probes for after AUTHORIZE. The path `/accord-link` is
 * the open web client's consent link instead (link/web-link.ts), when one is given.
 */
export class WsServer {
  private server: http.Server | null = null;
  private wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false });
  private linkWss = new WebSocketServer({ noServer: true, maxPayload: LINK_MAX_PAYLOAD, perMessageDeflate: false });
  port: number | null = null;

  constructor(
    private readonly core: RpcCore,
    private readonly ports: number[] = WS_PORTS,
    private readonly link: WebConsentLink | null = null,
  ) {}

  async listen(): Promise<number> {
    for (const port of this.ports) {
      const server = http.createServer((req, res) => {
        if (this.link && isLinkPath(req)) return this.link.http(req, res);
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"code":0,"message":"404: Not Found"}');
      });
      server.on('upgrade', (req, socket, head) => {
        socket.on('error', () => socket.destroy());
        if (isLinkPath(req)) {
          const link = this.link;
          if (!link || !link.allows(req)) return void socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
          return this.linkWss.handleUpgrade(req, socket, head, (ws) => link.accept(ws));
        }
        this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, req));
      });
      const ok = await new Promise<boolean>((resolve) => {
        server.once('error', () => resolve(false));
        server.listen(port, '127.0.0.1', () => resolve(true));
      });
      if (!ok) continue;
      server.on('error', () => {});
      this.server = server;
      this.port = (server.address() as { port: number }).port;
      return this.port;
    }
    throw new Error(`no free port for the RPC WebSocket (${this.ports[0]}–${this.ports[this.ports.length - 1]})`);
  }

  private accept(ws: WebSocket, req: http.IncomingMessage): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const origin = typeof req.headers.origin === 'string' && req.headers.origin !== '' ? req.headers.origin : null;
    let rpc: RpcSocket | null = null;
    let closed = false;
    const transport: RpcTransport = {
      kind: 'websocket',
      send: (payload) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(payload));
      },
      close: (code, message) => {
        closed = true;
        if (rpc) this.core.closed(rpc);
        ws.close(code, message.slice(0, 120));
      },
    };
    ws.on('error', () => {});
    ws.on('close', () => {
      closed = true;
      if (rpc) this.core.closed(rpc);
    });

    const encoding = url.searchParams.get('encoding') ?? 'json';
    if (encoding !== 'json') return transport.close(RpcCloseCode.INVALID_ENCODING, 'Invalid Encoding');
    const handshake = this.core
      .handshake(transport, { v: url.searchParams.get('v') ?? undefined, client_id: url.searchParams.get('client_id') ?? undefined }, origin)
      .then((sock) => {
        rpc = sock;
        if (closed) this.core.closed(sock);
      })
      .catch((err) => transport.close(err instanceof RpcClose ? err.code : RpcCloseCode.ABNORMAL, err instanceof RpcClose ? err.message : 'Handshake failed'));

    ws.on('message', (data, isBinary) => {
      if (isBinary) return transport.close(RpcCloseCode.UNSUPPORTED, 'Binary frames are not supported');
      let payload: unknown;
      try {
        payload = JSON.parse(data.toString());
      } catch {
        payload = undefined;
      }
      void handshake.then(() => {
        if (!rpc || closed) return;
        if (payload === undefined) rpc.error('DISPATCH', null, 4000, 'Invalid payload: not JSON');
        else return this.core.message(rpc, payload);
      });
    });
  }

  close(): Promise<void> {
    for (const c of this.wss.clients) c.terminate();
    for (const c of this.linkWss.clients) c.terminate();
    return new Promise((resolve) => {
      if (!this.server) return resolve();
      this.server.close(() => resolve());
      this.server.closeAllConnections?.();
      this.server = null;
    });
  }
}

const isLinkPath = (req: http.IncomingMessage) => new URL(req.url ?? '/', 'http://127.0.0.1').pathname === LINK_PATH;

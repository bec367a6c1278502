import fs from 'node:fs';
import net from 'node:net';
import type { RpcCore } from '../rpc/core.js';
import { RpcClose, RpcCloseCode } from '../rpc/codes.js';
import type { RpcSocket, RpcTransport } from '../rpc/socket.js';
import { ipcPath } from '../platform/ipc-path.js';
import { encodeFrame, FrameDecoder, Op } from './framing.js';
import { PacedWriter } from './paced-writer.js';

export interface IpcServerOptions {
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  /** How long a probe of an existing socket waits for it to accept (ms). */
  probeTimeoutMs?: number;
}

/**
 * Serves RPC on the first free `discord-ipc-N` (N = 0…9). A socket file that nobody accepts connections on is
 * stale and removed; one that accepts is someone else's (another client) and is left alone.
 */
export class IpcServer {
  private server: net.Server | null = null;
  readonly connections = new Set<net.Socket>();
  path: string | null = null;

  constructor(
    private readonly core: RpcCore,
    private readonly opts: IpcServerOptions = {},
  ) {}

  async listen(): Promise<string> {
    const platform = this.opts.platform ?? process.platform;
    for (let n = 0; n < 10; n++) {
      const p = ipcPath(n, platform, this.opts.env ?? process.env);
      if (platform !== 'win32' && !(await this.freeSlot(p))) continue;
      const server = net.createServer((s) => this.accept(s));
      const ok = await new Promise<boolean>((resolve) => {
        server.once('error', () => resolve(false));
        server.listen(p, () => resolve(true));
      });
      if (!ok) continue;
      server.on('error', () => {});
      this.server = server;
      this.path = p;
      return p;
    }
    throw new Error('no free IPC slot (discord-ipc-0…9 are all in use)');
  }

  /** Whether a slot can be used: no file, or a stale socket file (removed here). A live socket is never touched. */
  private async freeSlot(p: string): Promise<boolean> {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(p);
    } catch {
      return true; // nothing there
    }
    if (!st.isSocket()) return false; // not ours to remove
    if (await this.listening(p)) return false;
    try {
      fs.unlinkSync(p);
      return true;
    } catch {
      return false;
    }
  }

  private listening(p: string): Promise<boolean> {
    return new Promise((resolve) => {
      const c = net.createConnection(p);
      const done = (v: boolean) => {
        clearTimeout(timer);
        c.destroy();
        resolve(v);
      };
      // A listener that accepts but never answers is still alive: only a refused connection means stale.
      const timer = setTimeout(() => done(true), this.opts.probeTimeoutMs ?? 1000);
      c.once('connect', () => done(true));
      c.once('error', (err: NodeJS.ErrnoException) => done(!(err.code === 'ECONNREFUSED' || err.code === 'ENOENT')));
    });
  }

  private accept(s: net.Socket): void {
    this.connections.add(s);
    const writer = new PacedWriter(s);
    const decoder = new FrameDecoder();
    let rpc: RpcSocket | null = null;
    let handshake: Promise<void> | null = null;
    let ended = false;

    const transport: RpcTransport = {
      kind: 'ipc',
      send: (payload) => writer.write(encodeFrame(Op.FRAME, payload)),
      close: (code, message) => end(code, message),
    };
    const end = (code: number, message: string) => {
      if (ended) return;
      ended = true;
      writer.end(encodeFrame(Op.CLOSE, { code, message }));
      if (rpc) this.core.closed(rpc);
      setTimeout(() => s.destroy(), 1000).unref();
    };

    s.on('data', (chunk: Buffer) => {
      if (ended) return;
      for (const d of decoder.push(chunk)) {
        if (d.kind === 'fatal') return end(RpcCloseCode.UNSUPPORTED, d.reason === 'too-large' ? 'Frame too large' : `Unknown opcode: ${d.op}`);
        if (d.kind === 'bad-json') {
          if (!rpc) return end(RpcCloseCode.UNSUPPORTED, 'Invalid payload');
          rpc.error('DISPATCH', null, 4000, 'Invalid payload: not JSON');
          continue;
        }
        switch (d.op) {
          case Op.PING:
            writer.write(encodeFrame(Op.PONG, d.payload));
            break;
          case Op.PONG:
            break;
          case Op.CLOSE:
            ended = true;
            if (rpc) this.core.closed(rpc);
            s.end();
            return;
          case Op.HANDSHAKE:
            if (handshake) break; // one handshake per connection
            handshake = this.core
              .handshake(transport, (d.payload ?? {}) as { v?: unknown; client_id?: unknown }, null)
              .then((sock) => {
                rpc = sock;
                if (ended) this.core.closed(sock);
              })
              .catch((err) => end(err instanceof RpcClose ? err.code : RpcCloseCode.ABNORMAL, err instanceof RpcClose ? err.message : 'Handshake failed'));
            break;
          case Op.FRAME: {
            if (!handshake) return end(RpcCloseCode.UNSUPPORTED, 'Handshake required');
            const payload = d.payload;
            void handshake.then(() => (rpc && !ended ? this.core.message(rpc, payload) : undefined));
            break;
          }
        }
      }
    });
    const gone = () => {
      ended = true;
      this.connections.delete(s);
      if (rpc) this.core.closed(rpc);
    };
    s.on('close', gone);
    s.on('error', () => s.destroy());
  }

  close(): Promise<void> {
    for (const c of this.connections) c.destroy();
    return new Promise((resolve) => {
      if (!this.server) return resolve();
      // net.Server removes its socket file on close.
      this.server.close(() => resolve());
      this.server = null;
    });
  }
}

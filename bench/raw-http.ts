/**
 * A lean HTTP/1.1 client for closed loops: keep-alive sockets, one request in flight on each, the request written as
 * one buffer and the answer read by its status line and Content-Length (or chunks). It does what node:http's Agent
 * does for these benchmarks at about a quarter of the CPU (15 against 55–60 µs a request, measured 2026-11-29):
 * on a 2-core machine the load generator's CPU is taken from the server's processes, and more so from a server of
 * two processes, which the second core would otherwise serve.
 */
import net from 'node:net';
import type { HttpResult } from './lib.js';

const HEAD_END = Buffer.from('\r\n\r\n');

/** One keep-alive connection; `request` must not be called again before the previous answer. */
class RawConnection {
  private readonly socket: net.Socket;
  private buf: Buffer = Buffer.alloc(0);
  private pending: { resolve(r: HttpResult): void; reject(err: Error): void } | null = null;
  closed = false;

  constructor(port: number) {
    this.socket = net.connect(port, '127.0.0.1');
    this.socket.setNoDelay(true);
    this.socket.on('data', (d: Buffer) => this.onData(d));
    const fail = (err?: Error) => {
      this.closed = true;
      const p = this.pending;
      this.pending = null;
      p?.reject(err ?? new Error('connection closed'));
    };
    this.socket.on('error', fail);
    this.socket.on('close', () => fail());
  }

  request(head: string, body: Buffer | undefined): Promise<HttpResult> {
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.socket.write(body ? Buffer.concat([Buffer.from(head, 'latin1'), body]) : head, 'latin1');
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private onData(d: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d;
    const answer = parseAnswer(this.buf);
    if (!answer) return;
    this.buf = this.buf.subarray(answer.length);
    const p = this.pending;
    this.pending = null;
    if (answer.close) this.close();
    p?.resolve({ status: answer.status, body: answer.body });
  }
}

/** A whole answer at the start of `buf`: its status, body and length in bytes; null while it is incomplete. */
function parseAnswer(buf: Buffer): { status: number; body: string; length: number; close: boolean } | null {
  const end = buf.indexOf(HEAD_END);
  if (end < 0) return null;
  const head = buf.toString('latin1', 0, end).toLowerCase();
  const status = Number(head.slice(9, 12));
  const close = /\r\nconnection: *close/.test(head);
  const start = end + 4;
  const length = /\r\ncontent-length: *(\d+)/.exec(head);
  if (length) {
    const stop = start + Number(length[1]);
    return buf.length < stop ? null : { status, body: buf.toString('utf8', start, stop), length: stop, close };
  }
  if (!/\r\ntransfer-encoding: *chunked/.test(head)) return { status, body: '', length: start, close };
  const parts: Buffer[] = [];
  let at = start;
  for (;;) {
    const line = buf.indexOf('\r\n', at);
    if (line < 0) return null;
    const size = parseInt(buf.toString('latin1', at, line), 16);
    const stop = line + 2 + size + 2;
    if (buf.length < stop) return null;
    if (size === 0) return { status, body: Buffer.concat(parts).toString('utf8'), length: stop, close };
    parts.push(buf.subarray(line + 2, line + 2 + size));
    at = stop;
  }
}

/**
 * Keep-alive connections per port: a request takes an idle one or opens another. No cap: the closed loops that use it
 * have as many requests in flight as they want connections.
 */
export class RawAgent {
  private readonly idle = new Map<number, RawConnection[]>();

  async request(port: number, method: string, urlPath: string, auth: string | null, body?: unknown): Promise<HttpResult> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    let head = `${method} ${urlPath} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`;
    if (auth) head += `Authorization: ${auth}\r\n`;
    if (payload) head += `Content-Type: application/json\r\nContent-Length: ${payload.length}\r\n`;
    else if (method !== 'GET') head += 'Content-Length: 0\r\n';
    const list = this.idle.get(port) ?? [];
    this.idle.set(port, list);
    let conn = list.pop();
    while (conn?.closed) conn = list.pop(); // closed by the server while idle
    conn ??= new RawConnection(port);
    try {
      return await conn.request(`${head}\r\n`, payload);
    } finally {
      if (!conn.closed) list.push(conn);
    }
  }

  destroy(): void {
    for (const list of this.idle.values()) for (const c of list) c.close();
    this.idle.clear();
  }
}

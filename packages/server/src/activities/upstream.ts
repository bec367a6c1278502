import http, { type ClientRequest, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import { Transform, type Duplex, type Readable } from 'node:stream';
import { isIP, type LookupFunction } from 'node:net';
import { RefusedByPolicy, type OutgoingClient } from '../core/outgoing.js';

/**
 * The proxy's only way out: every request to an Activity's upstream goes through `upstreamRequest`, and every
 * WebSocket through `upstreamUpgrade`. Callers have already resolved the URL from the app's URL mappings, so these
 * only ever reach mapped targets, and the operator's outgoing policy (core/outgoing.ts) decides which addresses
 * those may be. Bodies stream with a 64 MiB cap each way's limit below.
 */

export interface UpstreamLimits {
  /** Connecting and receiving the response head. */
  headersTimeoutMs: number;
  /** Silence on an established exchange. */
  idleTimeoutMs: number;
  maxRequestBytes: number;
  maxResponseBytes: number;
}

export const DEFAULT_LIMITS: UpstreamLimits = {
  headersTimeoutMs: 15_000,
  idleTimeoutMs: 30_000,
  maxRequestBytes: 10 * 1024 * 1024,
  maxResponseBytes: 64 * 1024 * 1024,
};

export class UpstreamError extends Error {
  constructor(
    readonly status: 413 | 502 | 504,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Node's own client (the proxy streams both ways and upgrades), opened only after the guarded client's checks: the
 * host is resolved and its address checked first (core/outgoing.ts `pick`), and the socket then goes to exactly that
 * address, with no second lookup. The original name stays the Host header and the TLS name (SNI and the
 * certificate check). A refused address never sees a connection.
 */
async function send(guard: OutgoingClient, url: URL, method: string, headers: OutgoingHttpHeaders, timeoutMs: number) {
  const mod = url.protocol === 'https:' || url.protocol === 'wss:' ? https : http;
  const protocol = mod === https ? 'https:' : 'http:';
  const name = url.hostname.replace(/^\[|\]$/g, '');
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new UpstreamError(504, 'The Activity did not answer in time.')), timeoutMs);
  });
  const target = await Promise.race([guard.pick(name, protocol), deadline]).finally(() => clearTimeout(timer));
  const pinned = ((_host: string, options: any, callback: any) => {
    const cb = typeof options === 'function' ? options : callback;
    if (typeof options === 'object' && options?.all) cb(null, [target]);
    else cb(null, target.address, target.family);
  }) as LookupFunction;
  return mod.request({
    protocol,
    host: target.address,
    family: target.family,
    port: url.port || undefined,
    path: `${url.pathname}${url.search}`,
    method,
    headers,
    agent: false,
    lookup: pinned,
    ...(mod === https && !isIP(name) ? { servername: name } : {}),
  });
}

const refusedOrUnreachable = (err: unknown) =>
  err instanceof RefusedByPolicy
    ? new UpstreamError(502, "The Activity's address is refused by the server's outgoing policy.")
    : new UpstreamError(502, 'The Activity cannot be reached.');

export interface UpstreamResponse {
  status: number;
  /** As received: [name, value, name, value, …]. */
  rawHeaders: string[];
  /** The body, failing once it passes the size limit. */
  body: Readable;
}

/** Sends one request upstream and resolves with its response head; the body streams, size-checked. */
export async function upstreamRequest(
  guard: OutgoingClient,
  url: URL,
  method: string,
  headers: OutgoingHttpHeaders,
  body: Readable | null,
  limits: UpstreamLimits = DEFAULT_LIMITS,
): Promise<UpstreamResponse> {
  let req: ClientRequest;
  try {
    req = await send(guard, url, method, headers, limits.headersTimeoutMs);
  } catch (err) {
    body?.resume();
    throw err instanceof UpstreamError ? err : refusedOrUnreachable(err);
  }
  return new Promise((resolve, reject) => {
    const headTimer = setTimeout(() => req.destroy(new UpstreamError(504, 'The Activity did not answer in time.')), limits.headersTimeoutMs);
    req.setTimeout(limits.idleTimeoutMs, () => req.destroy(new UpstreamError(504, 'The Activity stopped answering.')));
    req.on('error', (err) => {
      clearTimeout(headTimer);
      reject(err instanceof UpstreamError ? err : refusedOrUnreachable(err));
    });
    req.on('response', (res) => {
      clearTimeout(headTimer);
      res.setTimeout(limits.idleTimeoutMs, () => res.destroy(new UpstreamError(504, 'The Activity stopped answering.')));
      if (Number(res.headers['content-length'] ?? 0) > limits.maxResponseBytes) {
        res.destroy();
        return reject(new UpstreamError(502, 'The Activity answered with too large a body.'));
      }
      let size = 0;
      const limited = new Transform({
        transform(chunk: Buffer, _enc, done) {
          size += chunk.length;
          done(size > limits.maxResponseBytes ? new UpstreamError(502, 'The Activity answered with too large a body.') : null, chunk);
        },
      });
      res.on('error', (err) => limited.destroy(err));
      limited.on('error', () => res.destroy());
      res.pipe(limited);
      resolve({ status: res.statusCode ?? 502, rawHeaders: res.rawHeaders, body: limited });
    });
    if (!body) return void req.end();
    let sent = 0;
    body.on('data', (chunk: Buffer) => {
      sent += chunk.length;
      if (sent > limits.maxRequestBytes) {
        body.destroy();
        req.destroy(new UpstreamError(413, 'The request body is too large.'));
      }
    });
    body.on('error', () => req.destroy(new UpstreamError(502, 'The request was interrupted.')));
    body.pipe(req);
  });
}

/**
 * Opens a WebSocket upstream for a client's upgrade request and splices the two sockets together. The upstream's
 * handshake answer (101, or a refusal) is relayed to the client as it is.
 */
export function upstreamUpgrade(
  guard: OutgoingClient,
  url: URL,
  headers: OutgoingHttpHeaders,
  client: Duplex,
  head: Buffer,
  limits: UpstreamLimits = DEFAULT_LIMITS,
): void {
  const refuse = (status: number, text: string) => {
    if (!client.destroyed) client.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  };
  send(guard, url, 'GET', headers, limits.headersTimeoutMs).then(
    (req) => splice(req, client, head, limits, refuse),
    (err) => refuse(err instanceof UpstreamError ? err.status : 502, err instanceof UpstreamError && err.status === 504 ? 'Gateway Timeout' : 'Bad Gateway'),
  );
}

function splice(req: ClientRequest, client: Duplex, head: Buffer, limits: UpstreamLimits, refuse: (status: number, text: string) => void): void {
  const timer = setTimeout(() => req.destroy(new UpstreamError(504, 'timeout')), limits.headersTimeoutMs);
  req.on('error', (err) => {
    clearTimeout(timer);
    refuse(err instanceof UpstreamError ? err.status : 502, err instanceof UpstreamError && err.status === 504 ? 'Gateway Timeout' : 'Bad Gateway');
  });
  req.on('response', (res) => {
    clearTimeout(timer);
    refuse(res.statusCode === 101 ? 502 : (res.statusCode ?? 502), res.statusMessage ?? 'Refused');
    res.resume();
  });
  req.on('upgrade', (res, upstream, upHead) => {
    clearTimeout(timer);
    const lines = [`HTTP/1.1 101 ${res.statusMessage ?? 'Switching Protocols'}`];
    for (let i = 0; i < res.rawHeaders.length; i += 2) lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
    client.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (upHead.length) client.write(upHead);
    if (head.length) upstream.write(head);
    upstream.pipe(client).pipe(upstream);
    const close = () => {
      upstream.destroy();
      client.destroy();
    };
    upstream.on('error', close);
    client.on('error', close);
    upstream.on('close', close);
    client.on('close', close);
  });
  client.on('error', () => req.destroy());
  req.end();
}

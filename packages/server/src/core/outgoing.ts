import dns from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector, request } from 'undici';
import { AllowList, LOOPBACK_CIDRS, addressAllowed, addressClass } from './address-policy.js';

/**
 * The server's one way out (issue 14). Every HTTP request the server makes to a URL an app owner or a provider
 * chose goes through `OutgoingClient`:
 * - resolve, check, connect, in that order: the host is resolved once, the address is checked before any socket
 *   exists, and the socket goes to exactly that address (no second lookup), so a DNS answer that changes after a URL
 *   was saved (rebinding) cannot reach a refused address, and a refused address never sees a connection;
 * - special-purpose addresses (core/address-policy.ts) are refused unless the operator's allow list covers them, and
 *   plain http goes only to allowed addresses;
 * - redirects are never followed, every request has a deadline, and every answer body has a size cap;
 * - failures are reported in a few fixed words ("refused by policy", "connection refused", …), never the network's
 *   own error text.
 *
 * Body caps by use (documented in SECURITY.md): interactions endpoint answer 4 MiB (`INTERACTION_REPLY_BYTES`),
 * event webhook and endpoint verification answers 64 KiB, OIDC discovery and JWKS 256 KiB, the Activity proxy's
 * upstream 64 MiB streamed (activities/upstream.ts).
 */

export interface Resolved {
  address: string;
  family: 4 | 6;
}
/** Host name → addresses. Tests inject answers; the default asks the system resolver. */
export type Resolver = (host: string) => Promise<Resolved[]>;
/** Opens the socket to an already checked address (undici's connector signature). Tests record and never connect. */
export type SocketConnector = buildConnector.connector;

export interface OutgoingDeps {
  resolve?: Resolver;
  connect?: SocketConnector;
}

export type FailureKind = 'refused' | 'timeout' | 'size' | 'network';

export class OutgoingError extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
  ) {
    super(message);
  }
}

/** The refusal a connector raises; its message is what app owners see. */
export class RefusedByPolicy extends OutgoingError {
  constructor(readonly addressClass: string) {
    super('refused', 'refused by policy');
  }
}

export interface OutgoingRequest {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Whole exchange: connect, head and body. */
  timeoutMs: number;
  /** The answer body is read up to this many bytes; more fails with kind 'size'. */
  maxBytes: number;
}

export interface OutgoingResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export const INTERACTION_REPLY_BYTES = 4 * 1024 * 1024;
export const VERIFY_REPLY_BYTES = 64 * 1024;
export const PROVIDER_DOC_BYTES = 256 * 1024;

const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) => dns.lookup(host, { all: true, verbatim: true }, (err, list) => (err ? reject(err) : resolve(list as Resolved[]))));

const bare = (host: string) => host.replace(/^\[|\]$/g, '');

export class OutgoingClient {
  readonly agent: Agent;
  private resolve: Resolver;
  private connectSocket: SocketConnector;

  constructor(
    readonly allow: AllowList,
    deps: OutgoingDeps = {},
  ) {
    this.resolve = deps.resolve ?? systemResolver;
    this.connectSocket = deps.connect ?? buildConnector({ timeout: 10_000 });
    this.agent = new Agent({ connect: (opts, cb) => void this.guardedConnect(opts, cb), connections: 16, pipelining: 0 });
  }

  /** Swaps the resolver or the socket opener (tests). */
  setDeps(deps: OutgoingDeps): void {
    if (deps.resolve) this.resolve = deps.resolve;
    if (deps.connect) this.connectSocket = deps.connect;
  }

  /** The one address of `host` this client would connect to over `protocol`; throws RefusedByPolicy otherwise. */
  async pick(host: string, protocol: string): Promise<Resolved> {
    const h = bare(host);
    if (protocol !== 'http:' && protocol !== 'https:') throw new RefusedByPolicy('scheme');
    let answers: Resolved[];
    if (isIP(h)) answers = [{ address: h, family: isIP(h) as 4 | 6 }];
    else {
      try {
        answers = await this.resolve(h);
      } catch {
        throw new OutgoingError('network', 'host not found');
      }
    }
    if (!answers.length) throw new OutgoingError('network', 'host not found');
    // Plain http only to addresses the operator named; https to any public address too.
    const ok = answers.find((a) => (protocol === 'http:' ? this.allow.has(a.address) : addressAllowed(a.address, this.allow)));
    if (!ok) throw new RefusedByPolicy(addressClass(answers[0].address) ?? 'plain-http');
    return ok;
  }

  /** For a literal address (which node connects to without any lookup): the refusal, or null. */
  literalRefusal(host: string, protocol: string): RefusedByPolicy | null {
    const h = bare(host);
    if (!isIP(h)) return null;
    const ok = protocol === 'http:' ? this.allow.has(h) : addressAllowed(h, this.allow);
    return ok ? null : new RefusedByPolicy(addressClass(h) ?? 'plain-http');
  }

  /** Whether this host is a literal address (in any spelling the URL parser accepts) that https may not reach either. */
  addressRefused(host: string): boolean {
    let h: string;
    try {
      h = bare(new URL(`https://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}/`).hostname);
    } catch {
      return false;
    }
    return isIP(h) !== 0 && !addressAllowed(h, this.allow);
  }

  /** Whether plain http may go to this host as written (a literal address the operator allowed, or localhost). */
  httpAllowed(host: string): boolean {
    const h = bare(host);
    if (isIP(h)) return this.allow.has(h);
    return h === 'localhost' && this.allow.has('127.0.0.1');
  }

  private async guardedConnect(opts: buildConnector.Options, cb: buildConnector.Callback): Promise<void> {
    let target: Resolved;
    try {
      target = await this.pick(opts.hostname, opts.protocol);
    } catch (err) {
      return cb(err as Error, null);
    }
    const name = bare(opts.hostname);
    this.connectSocket({ ...opts, hostname: target.address, servername: opts.servername || (isIP(name) ? undefined : name) }, cb);
  }

  /**
   * A `lookup` for node's http/https `request`: the same resolution and checks. Literal addresses skip `lookup` in
   * node, so a caller must check them before the request exists (`literalRefusal`); better still, do as the Activity
   * proxy does (activities/upstream.ts): `pick` first, then open the request to exactly the picked address.
   */
  lookupFor(protocol: string): LookupFunction {
    return ((hostname: string, options: any, callback: any) => {
      const cb = typeof options === 'function' ? options : callback;
      const all = typeof options === 'object' && options?.all;
      this.pick(hostname, protocol).then(
        (r) => (all ? cb(null, [r]) : cb(null, r.address, r.family)),
        (err) => cb(err),
      );
    }) as LookupFunction;
  }

  /** One request: no redirects followed, deadline on the whole exchange, answer body capped. */
  async request(url: string, req: OutgoingRequest): Promise<OutgoingResponse> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new OutgoingError('refused', 'refused by policy');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new RefusedByPolicy('scheme');
    if (parsed.username || parsed.password) throw new RefusedByPolicy('credentials');
    const signal = AbortSignal.timeout(req.timeoutMs);
    try {
      const res = await request(parsed, {
        dispatcher: this.agent,
        method: req.method ?? 'GET',
        headers: req.headers,
        body: req.body,
        signal,
        maxRedirections: 0,
        headersTimeout: req.timeoutMs,
        bodyTimeout: req.timeoutMs,
      });
      res.body.on('error', () => {}); // destroying an unwanted body must not throw where nobody listens
      const declared = Number(res.headers['content-length'] ?? 0);
      if (declared > req.maxBytes) {
        res.body.destroy();
        throw new OutgoingError('size', `answer larger than ${req.maxBytes} bytes`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += chunk.length;
        if (size > req.maxBytes) {
          res.body.destroy();
          throw new OutgoingError('size', `answer larger than ${req.maxBytes} bytes`);
        }
        chunks.push(chunk);
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : String(v);
      return { status: res.statusCode, headers, body: Buffer.concat(chunks) };
    } catch (err) {
      throw describeFailure(err, req.timeoutMs, signal);
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/** A failure in the fixed words app owners may see: never the network's own error text. */
export function describeFailure(err: unknown, timeoutMs: number, signal?: AbortSignal): OutgoingError {
  const seen = new Set<unknown>();
  for (let e: any = err; e && !seen.has(e); e = e.cause) {
    seen.add(e);
    if (e instanceof OutgoingError) return e;
  }
  const e = err as any;
  const code = String(e?.code ?? e?.cause?.code ?? '');
  if (signal?.aborted || e?.name === 'TimeoutError' || e?.name === 'AbortError' || /TIMEOUT/.test(code))
    return new OutgoingError('timeout', `no answer within ${timeoutMs} ms`);
  if (code === 'ECONNREFUSED') return new OutgoingError('network', 'connection refused');
  if (/ECONNRESET|UND_ERR_SOCKET|EPIPE|UND_ERR_CLOSED/.test(code)) return new OutgoingError('network', 'connection closed');
  if (/CERT|TLS|SSL/i.test(code)) return new OutgoingError('network', 'TLS handshake failed');
  return new OutgoingError('network', 'connection failed');
}

// ---------------------------------------------------------------------------------------------------- per server

export interface OutgoingSettings {
  host: string;
  dev: boolean;
  outgoingAllow?: string;
}

/** The operator's allow list: `--outgoing-allow`, else loopback when the server itself listens on loopback or runs --dev. */
export function allowListOf(cfg: OutgoingSettings): AllowList {
  if (cfg.outgoingAllow !== undefined && cfg.outgoingAllow !== '') return AllowList.parse(cfg.outgoingAllow);
  const host = bare(cfg.host);
  const local = cfg.dev || host === 'localhost' || (isIP(host) !== 0 && addressClass(host) === 'loopback');
  return new AllowList(local ? LOOPBACK_CIDRS : []);
}

const clients = new WeakMap<object, OutgoingClient>();

/** The client of one server (keyed by its config object). */
export function outgoingFor(ctx: { config: OutgoingSettings }): OutgoingClient {
  let c = clients.get(ctx.config);
  if (!c) clients.set(ctx.config, (c = new OutgoingClient(allowListOf(ctx.config))));
  return c;
}

import crypto from 'node:crypto';
import type http from 'node:http';
import type { WebSocket } from 'ws';
import type { PlatformApi } from '../platform/api.js';
import type { ConsentPrompter, ConsentRequest } from '../consent.js';

/**
 * The link between the local client and an open Accord web client, so AUTHORIZE consent shows in the page the person
 * is looking at. It lives on the RPC WebSocket port, at its own path (`/accord-link`), apart from the RPC.
 *
 * Who may link: only a page of the Accord server the local client is logged into (its exact origin; browsers set
 * Origin and pages cannot forge it), signed in as the same account. The local client names its account first; the
 * page sends its token only when that is its own account too, and the local client checks the token with
 * `GET /users/@me`. The token is used for that one call and forgotten: never stored, logged or echoed.
 *
 * Messages (JSON text, small): local → page `hello {user_id}`, `ready`, `consent {id, request}`, `settled {id}`;
 * page → local `auth {token}`, `answer {id, approve}`. An unlinked page that does not authenticate within 10 s is
 * closed. With no linked page, consent falls back to the terminal (or whatever prompter is given).
 */
export const LINK_PATH = '/accord-link';
export const LINK_SERVICE = 'accord-desktop-link';
const AUTH_TIMEOUT_MS = 10_000;
/** A question nobody answers is a no. */
const ANSWER_TIMEOUT_MS = 5 * 60_000;
export const LINK_MAX_PAYLOAD = 8 * 1024;

export const LinkClose = { NOT_ALLOWED: 4001, AUTH_FAILED: 4003, AUTH_TIMEOUT: 4008, BAD_MESSAGE: 4000 } as const;

interface Pending {
  request: ConsentRequest;
  resolve: (approve: boolean) => void;
  timer: NodeJS.Timeout;
}

export class WebConsentLink implements ConsentPrompter {
  private readonly linked = new Set<WebSocket>();
  private readonly pending = new Map<string, Pending>();
  constructor(
    private readonly api: PlatformApi,
    private readonly userId: string,
    private readonly fallback: ConsentPrompter,
  ) {}

  /** The only origin allowed to link: the Accord server's own (scheme, host and port). */
  get origin(): string {
    return new URL(this.api.baseUrl).origin;
  }

  get linkedPages(): number {
    return this.linked.size;
  }

  /** Plain HTTP on the link path: a discovery answer for the allowed origin (CORS), so a page knows which port. */
  http(req: http.IncomingMessage, res: http.ServerResponse): void {
    const origin = req.headers.origin;
    if (origin !== this.origin) {
      // Other sites learn only that a local client is here, never whose (and cannot link: the upgrade is refused).
      const status = req.method === 'OPTIONS' ? 403 : 200;
      res
        .writeHead(status, { 'access-control-allow-origin': '*', 'content-type': 'application/json' })
        .end(status === 200 ? JSON.stringify({ service: LINK_SERVICE }) : '');
      return;
    }
    const cors = { 'access-control-allow-origin': origin, vary: 'Origin' };
    if (req.method === 'OPTIONS') {
      // Private Network Access: a page of a public server may reach this loopback service only if it says so.
      res
        .writeHead(204, { ...cors, 'access-control-allow-methods': 'GET', 'access-control-allow-private-network': 'true', 'access-control-max-age': '600' })
        .end();
      return;
    }
    res
      .writeHead(200, { ...cors, 'content-type': 'application/json', 'cache-control': 'no-store' })
      .end(JSON.stringify({ service: LINK_SERVICE, user_id: this.userId }));
  }

  /** Whether an upgrade to the link path may proceed (checked before the WebSocket handshake completes). */
  allows(req: http.IncomingMessage): boolean {
    return req.headers.origin === this.origin;
  }

  /** A page connected on the link path (origin already checked). */
  accept(ws: WebSocket): void {
    let authed = false;
    const send = (m: unknown) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(m));
    const timer = setTimeout(() => !authed && ws.close(LinkClose.AUTH_TIMEOUT, 'Not authenticated in time'), AUTH_TIMEOUT_MS);
    ws.on('error', () => {});
    ws.on('close', () => {
      clearTimeout(timer);
      if (this.linked.delete(ws)) this.orphaned();
    });
    ws.on('message', (data, binary) => {
      let m: any;
      try {
        m = binary ? null : JSON.parse(data.toString());
      } catch {
        m = null;
      }
      if (!m || typeof m !== 'object' || typeof m.op !== 'string') return ws.close(LinkClose.BAD_MESSAGE, 'Bad message');
      if (!authed) {
        if (m.op !== 'auth' || typeof m.token !== 'string' || m.token.length > 512) return ws.close(LinkClose.BAD_MESSAGE, 'Authenticate first');
        void this.sameAccount(m.token).then((ok) => {
          if (!ok) return ws.close(LinkClose.AUTH_FAILED, 'Not the account of this local client');
          if (ws.readyState !== ws.OPEN) return;
          authed = true;
          clearTimeout(timer);
          this.linked.add(ws);
          send({ op: 'ready' });
          for (const [id, p] of this.pending) send({ op: 'consent', id, request: p.request });
        });
        return;
      }
      if (m.op === 'answer' && typeof m.id === 'string' && typeof m.approve === 'boolean') this.settle(m.id, m.approve);
    });
    send({ op: 'hello', user_id: this.userId });
  }

  /** ConsentPrompter: asks every linked page (the first answer counts), or the fallback when none is linked. */
  ask(request: ConsentRequest): Promise<boolean> {
    if (!this.linked.size) return this.fallback.ask(request);
    const id = crypto.randomUUID();
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => this.settle(id, false), ANSWER_TIMEOUT_MS);
      timer.unref();
      this.pending.set(id, { request, resolve, timer });
      this.broadcast({ op: 'consent', id, request });
    });
  }

  close(): void {
    for (const id of [...this.pending.keys()]) this.settle(id, false);
    for (const ws of this.linked) ws.close(1001, 'Local client shutting down');
    this.linked.clear();
  }

  private settle(id: string, approve: boolean): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    clearTimeout(p.timer);
    p.resolve(approve);
    this.broadcast({ op: 'settled', id, approve });
  }

  /** The last linked page went away with questions open: they go to the fallback instead. */
  private orphaned(): void {
    if (this.linked.size) return;
    for (const [id, p] of [...this.pending]) {
      this.pending.delete(id);
      clearTimeout(p.timer);
      this.fallback.ask(p.request).then(p.resolve, () => p.resolve(false));
    }
  }

  private broadcast(m: unknown): void {
    const text = JSON.stringify(m);
    for (const ws of this.linked) if (ws.readyState === ws.OPEN) ws.send(text);
  }

  /** A person's own token (raw, as the web client holds it; never an app's Bearer or Bot token) for this account. */
  private async sameAccount(token: string): Promise<boolean> {
    if (!token || /\s/.test(token)) return false;
    try {
      const me = await this.api.request<{ id: string }>('/users/@me', { auth: token });
      return String(me?.id) === this.userId;
    } catch {
      return false;
    }
  }
}

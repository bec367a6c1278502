import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Ctx } from '../services/context.js';
import { getApplication } from '../services/identity/applications.js';
import { isEmbedded, urlMap } from '../services/activities/settings.js';
import { RESERVED_PREFIX, normalizeRequestPath, resolveMapping, stripProxyPrefix } from '../services/activities/url-map.js';
import { verifyProxyTicket } from '../services/activities/proxy-ticket.js';
import { clientOrigin, proxyOrigin } from '../services/activities/origins.js';
import { BRIDGE_PATH, TICKET_PATH, bridgePage } from './bridge-page.js';
import { TICKET_COOKIE, activityCsp, downstreamHeaders, ticketFromCookies, upstreamHeaders } from './headers.js';
import { outgoingFor } from '../core/outgoing.js';
import { DEFAULT_LIMITS, UpstreamError, upstreamRequest, upstreamUpgrade } from './upstream.js';

/**
 * The proxy host: `<scheme>://<application_id>.<proxy host>/…` serves that app's Activity. The bridge page and the
 * ticket endpoint live under RESERVED_PREFIX; every other path, with or without `/.proxy`, goes to the upstream its
 * URL mappings name, and nowhere else: an unmapped path is a 404, never a fetch of whatever the request names.
 * The path is normalised and checked before any of this matching (url-map.ts `normalizeRequestPath`): encoded
 * slashes and backslashes, dot segments and double encodings are a 400. The person's proxy ticket signs only requests
 * from the app's own origin, and only that origin may store one (SECURITY.md, Origin checks).
 */

const NOT_FOUND = JSON.stringify({ message: '404: Not Found', code: 0 });
const AMBIGUOUS_PATH = JSON.stringify({ message: '400: Bad Request: ambiguous path (encoded slash or backslash, or a dot segment)', code: 0 });

function plain(res: ServerResponse, status: number, body: string, type = 'application/json', extra: Record<string, string> = {}): void {
  if (res.headersSent) return void res.destroy();
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store', ...extra });
  res.end(body);
}

/** The app whose proxy origin this is, if it has an Activity. */
async function embeddedApp(ctx: Ctx, appId: string) {
  const app = await getApplication(ctx, appId);
  return app && isEmbedded(app) ? app : null;
}

export async function handleProxyRequest(ctx: Ctx, appId: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const raw = req.url ?? '/';
    // Origin-form only: an absolute-form target (`GET http://elsewhere/`) would make this an open proxy.
    if (!raw.startsWith('/')) return plain(res, 400, JSON.stringify({ message: '400: Bad Request', code: 0 }));
    // Normalised and checked before anything matches on it: reserved paths, /.proxy and the URL mappings.
    const normalized = normalizeRequestPath(raw);
    if (normalized === null) return plain(res, 400, AMBIGUOUS_PATH);
    const app = await embeddedApp(ctx, appId);
    if (!app) return plain(res, 404, NOT_FOUND);
    const path = stripProxyPrefix(normalized);
    const pathname = path.split('?')[0];

    if (pathname === RESERVED_PREFIX || pathname.startsWith(`${RESERVED_PREFIX}/`)) return reserved(ctx, appId, pathname, req, res);

    const mapped = resolveMapping(urlMap(app), path);
    if (!mapped) return plain(res, 404, NOT_FOUND);
    const ticket = fromOwnOrigin(ctx, appId, req) ? ticketFromCookies(req.headers.cookie) : null;
    const verified = ticket ? await verifyProxyTicket(ctx, appId, ticket) : null;
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    if (Number(req.headers['content-length'] ?? 0) > DEFAULT_LIMITS.maxRequestBytes) {
      return plain(res, 413, JSON.stringify({ message: 'Request entity too large', code: 40005 }), 'application/json', { connection: 'close' });
    }
    const up = await upstreamRequest(
      outgoingFor(ctx),
      mapped.url,
      req.method ?? 'GET',
      upstreamHeaders(ctx, appId, req.headers, mapped.url, verified?.headers ?? null),
      hasBody ? req : null,
    );
    res.statusCode = up.status;
    for (const [k, v] of downstreamHeaders(ctx, appId, up.rawHeaders)) res.appendHeader(k, v);
    up.body.on('error', () => res.destroy());
    up.body.pipe(res);
  } catch (err) {
    if (err instanceof UpstreamError) return plain(res, err.status, JSON.stringify({ message: err.message, code: 0 }));
    plain(res, 502, JSON.stringify({ message: 'The Activity cannot be reached.', code: 0 }));
  }
}

/** The bridge page and the ticket endpoint. */
async function reserved(ctx: Ctx, appId: string, pathname: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (pathname === BRIDGE_PATH && (req.method === 'GET' || req.method === 'HEAD')) {
    const { html, csp } = bridgePage(clientOrigin(ctx));
    // The client may pass the person's proxy ticket along; it becomes this origin's cookie before the Activity loads.
    // Only for a navigation (the client's frame or pop-out window): another page's fetch of this URL, which the
    // browser would let set a cookie too, plants nothing.
    const ticket = isNavigation(req) ? new URL(req.url ?? '/', 'http://x').searchParams.get('accord_ticket') : null;
    const cookie = ticket ? await ticketCookie(ctx, appId, ticket) : null;
    return plain(res, 200, req.method === 'HEAD' ? '' : html, 'text/html; charset=utf-8', {
      'content-security-policy': csp,
      'referrer-policy': 'same-origin',
      'x-content-type-options': 'nosniff',
      ...(cookie ? { 'set-cookie': cookie } : {}),
    });
  }
  if (pathname === TICKET_PATH && req.method === 'POST') {
    // The bridge page's own fetch, and nothing else: another origin (another app's Activity, any page, `null`) may
    // not plant a ticket for this app. Browsers always send Origin on a POST.
    if (req.headers.origin !== proxyOrigin(ctx, appId)) {
      req.resume();
      return plain(res, 403, JSON.stringify({ message: "This request must come from the Activity's own origin.", code: 0 }));
    }
    const body = await readSmall(req, 4096);
    const cookie = body ? await ticketCookie(ctx, appId, body.trim()) : null;
    if (!cookie) return plain(res, 401, JSON.stringify({ message: '401: Unauthorized', code: 0 }));
    return plain(res, 204, '', 'text/plain', { 'set-cookie': cookie });
  }
  return plain(res, 404, NOT_FOUND, 'application/json', { 'content-security-policy': activityCsp(ctx, appId) });
}

/**
 * Whether a request comes from the Activity's own origin, so that the person's ticket may sign it. The ticket cookie
 * is SameSite=None (the client frames the Activity), so a browser also sends it with requests from other origins: a
 * page elsewhere, or another app's Activity framed in the same client (same partition, often same site). Those reach
 * the upstream unsigned, as an anonymous visitor's would. Origin, when sent, must be the proxy origin; Fetch Metadata,
 * when sent, must say same-origin or none (a typed address). Neither header (not a browser, or an old one): signed.
 */
function fromOwnOrigin(ctx: Ctx, appId: string, req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== proxyOrigin(ctx, appId)) return false;
  const site = req.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin' || site === 'none';
}

/** Whether a browser sent this request as a navigation (Fetch Metadata): a frame or a window, not a fetch. */
function isNavigation(req: IncomingMessage): boolean {
  const mode = req.headers['sec-fetch-mode'];
  const dest = req.headers['sec-fetch-dest'];
  if (mode === undefined && dest === undefined) return true; // a browser without Fetch Metadata, or not a browser
  return mode === 'navigate' && (dest === 'iframe' || dest === 'document');
}

/** The Set-Cookie value for a valid ticket (null otherwise). Partitioned: it lives in the client's frames only. */
async function ticketCookie(ctx: Ctx, appId: string, ticket: string): Promise<string | null> {
  const verified = await verifyProxyTicket(ctx, appId, ticket);
  if (!verified) return null;
  const maxAge = Math.max(0, verified.payload.expires_at - Math.floor(ctx.clock.now() / 1000));
  return `${TICKET_COOKIE}=${encodeURIComponent(ticket)}; Path=/; Max-Age=${maxAge}; HttpOnly; Secure; SameSite=None; Partitioned`;
}

function readSmall(req: IncomingMessage, max: number): Promise<string | null> {
  return new Promise((resolve) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      text += c;
      if (text.length > max) {
        req.destroy();
        resolve(null);
      }
    });
    req.on('end', () => resolve(text));
    req.on('error', () => resolve(null));
  });
}

/** A WebSocket to the Activity: same mapping rules as requests, spliced through to the upstream. */
export async function handleProxyUpgrade(ctx: Ctx, appId: string, req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
  const refuse = (status: number, text: string) => void socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  try {
    const raw = req.url ?? '/';
    if (!raw.startsWith('/') || String(req.headers.upgrade ?? '').toLowerCase() !== 'websocket') return refuse(400, 'Bad Request');
    const normalized = normalizeRequestPath(raw);
    if (normalized === null) return refuse(400, 'Bad Request');
    const app = await embeddedApp(ctx, appId);
    const mapped = app ? resolveMapping(urlMap(app), stripProxyPrefix(normalized)) : null;
    if (!mapped) return refuse(404, 'Not Found');
    // A WebSocket handshake carries cookies from any origin: only the Activity's own is signed (no cross-site hijacking).
    const ticket = fromOwnOrigin(ctx, appId, req) ? ticketFromCookies(req.headers.cookie) : null;
    const verified = ticket ? await verifyProxyTicket(ctx, appId, ticket) : null;
    const target = new URL(mapped.url);
    upstreamUpgrade(outgoingFor(ctx), target, upstreamHeaders(ctx, appId, req.headers, target, verified?.headers ?? null, true), socket, head);
  } catch {
    refuse(502, 'Bad Gateway');
  }
}

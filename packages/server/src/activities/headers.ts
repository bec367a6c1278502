import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { Ctx } from '../services/context.js';
import { clientOrigin, proxyHost, proxyOrigin, proxyScheme } from '../services/activities/origins.js';

/**
 * Headers across the proxy. Towards the Activity: the client's request headers without hop-by-hop ones, without
 * anything that could impersonate the proxy's own authentication, and without the client's address (the proxy exists
 * to hide it); plus `X-Forwarded-Host`/`-Proto` and, with a valid ticket, the signed proxy headers. Towards the
 * browser: the Activity's headers without hop-by-hop ones and without its framing rules, cookies kept to the app's
 * own origin, and the sandbox CSP below.
 */

export const TICKET_COOKIE = 'accord_proxy_ticket';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'trailers',
  'transfer-encoding',
  'upgrade',
  'host',
]);
/** Request headers the proxy sets itself: never taken from the client. */
const PROXY_OWNED = /^(x-forwarded-|x-real-ip$|forwarded$|x-discord-proxy-payload$|x-signature-)/;
/** Response headers replaced by the proxy's own policy. */
const POLICY = new Set(['content-security-policy', 'content-security-policy-report-only', 'x-frame-options']);

/** The request headers sent upstream; `ticketHeaders` are the signed proxy headers when the ticket holds. */
export function upstreamHeaders(
  ctx: Ctx,
  appId: string,
  incoming: IncomingHttpHeaders,
  target: URL,
  ticketHeaders: Record<string, string> | null,
  upgrade = false,
): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(incoming)) {
    if (v === undefined || HOP_BY_HOP.has(k) || PROXY_OWNED.test(k)) continue;
    if (k === 'cookie') {
      const kept = String(v)
        .split(/;\s*/)
        .filter((c) => c && !c.startsWith(`${TICKET_COOKIE}=`))
        .join('; ');
      if (kept) out.cookie = kept;
      continue;
    }
    out[k] = v;
  }
  out.host = target.host;
  out['x-forwarded-host'] = `${appId}.${proxyHost(ctx)}`;
  out['x-forwarded-proto'] = proxyScheme(ctx);
  if (ticketHeaders) Object.assign(out, ticketHeaders);
  if (upgrade) {
    out.connection = 'Upgrade';
    out.upgrade = String(incoming.upgrade ?? 'websocket');
  }
  return out;
}

/** The ticket cookie of a request, if any. */
export function ticketFromCookies(cookie: string | undefined): string | null {
  for (const c of (cookie ?? '').split(/;\s*/)) if (c.startsWith(`${TICKET_COOKIE}=`)) return decodeURIComponent(c.slice(TICKET_COOKIE.length + 1));
  return null;
}

/**
 * The Activity's sandbox: it may load and connect only to its own origin (mapped paths), plus the platform's API and
 * CDN (same origin as the client here), and be framed only by itself (the bridge page) inside the client.
 */
export function activityCsp(ctx: Ctx, appId: string): string {
  const self = proxyOrigin(ctx, appId);
  const ws = self.replace(/^http/, 'ws');
  const platform = clientOrigin(ctx);
  return [
    "default-src 'self' 'unsafe-inline' 'unsafe-eval' data: blob:",
    `connect-src 'self' ${ws} ${platform}/api/ data: blob:`,
    `img-src 'self' data: blob: ${platform}`,
    `media-src 'self' data: blob: ${platform}`,
    `frame-ancestors 'self' ${platform}`,
    "base-uri 'self'",
    "object-src 'none'",
  ].join('; ');
}

/** The Activity's response headers, for the browser. */
export function downstreamHeaders(ctx: Ctx, appId: string, rawHeaders: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i];
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || POLICY.has(lower)) continue;
    // A cookie belongs to the app's proxy origin whatever domain the upstream named.
    const value = lower === 'set-cookie' ? rawHeaders[i + 1].replace(/;\s*domain=[^;]*/gi, '') : rawHeaders[i + 1];
    out.push([name, value]);
  }
  out.push(['Content-Security-Policy', activityCsp(ctx, appId)]);
  return out;
}

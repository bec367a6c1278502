import type { Ctx } from '../context.js';
import { isId } from '../../core/ids.js';

/**
 * Where Activities are served. Each app gets its own origin, `<scheme>://<application_id>.<proxy host>`, so apps are
 * isolated from each other and from the client by the browser's same-origin policy. The proxy host is an operator
 * setting (`--activity-proxy-host`, with wildcard DNS and a wildcard certificate in front); unset, it is
 * `localhost:<port>`: browsers resolve every `*.localhost` name to the loopback address, so a developer needs no DNS,
 * and the same port serves the API, the client and the proxy, told apart by the Host header.
 */

const base = (ctx: Ctx) => new URL(ctx.publicUrl || `http://127.0.0.1:${ctx.config.port}`);

/** The proxy host, lower case, with its port when it is not the scheme's default. */
export function proxyHost(ctx: Ctx): string {
  if (ctx.config.activityProxyHost) return ctx.config.activityProxyHost.toLowerCase().replace(/\/+$/, '');
  return `localhost${base(ctx).port ? `:${base(ctx).port}` : ''}`;
}

export const proxyScheme = (ctx: Ctx) => base(ctx).protocol.replace(':', '');

/** The origin of one app's Activity. */
export const proxyOrigin = (ctx: Ctx, applicationId: string) => `${proxyScheme(ctx)}://${applicationId}.${proxyHost(ctx)}`;

/** A CSP source matching every app's origin (the client frames them). */
export const proxyOriginPattern = (ctx: Ctx) => `${proxyScheme(ctx)}://*.${proxyHost(ctx)}`;

/** The web client's origin: the only parent a bridge page talks to. */
export const clientOrigin = (ctx: Ctx) => base(ctx).origin;

/** The app a request's Host header names on the proxy host, or null when it is not for the proxy. */
export function appIdFromHost(ctx: Ctx, host: string | undefined): string | null {
  if (!host) return null;
  const h = host.toLowerCase();
  const suffix = `.${proxyHost(ctx)}`;
  if (!h.endsWith(suffix)) return null;
  const label = h.slice(0, -suffix.length);
  // Canonical only: the decimal spelling of a snowflake, without leading zeros, that fits the id type. `0<id>` or
  // another spelling of the same number is not that app's origin (and not the proxy at all).
  return /^[1-9]\d{16,19}$/.test(label) && isId(label) ? label : null;
}

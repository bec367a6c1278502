import type { FastifyInstance } from 'fastify';

/**
 * CORS on the API (`/api/*`), as the platform answers browsers: any origin may call it (`*`), because a token only
 * ever travels in the Authorization header that the page's own code sets; a cookie never authenticates an API call,
 * so credentials are never allowed (no Access-Control-Allow-Credentials, and `*` makes browsers drop cookies).
 * A preflight is answered 204 before routing, authentication or rate limits, and may be cached by the browser.
 * The rate-limit headers are exposed so a browser client can pace itself.
 */

export const CORS_ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE';
/** The request headers the platform's clients send: auth and content, audit reasons, rate-limit precision, locale. */
export const CORS_ALLOW_HEADERS = [
  'Authorization',
  'Content-Type',
  'X-Audit-Log-Reason',
  'X-RateLimit-Precision',
  'X-Super-Properties',
  'X-Context-Properties',
  'X-Discord-Locale',
  'X-Discord-Timezone',
  'X-Debug-Options',
  'X-Track',
  'X-Social-SDK-Version',
  'If-None-Match',
].join(', ');
export const CORS_EXPOSE_HEADERS = [
  'Retry-After',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-RateLimit-Reset-After',
  'X-RateLimit-Bucket',
  'X-RateLimit-Global',
  'X-RateLimit-Scope',
  'Via',
].join(', ');
/** Seconds a browser may reuse a preflight (Chromium caps it at 7200). */
export const CORS_MAX_AGE = '86400';

const isApi = (url: string | undefined) => url === '/api' || (url ?? '').startsWith('/api/');

export function registerCors(app: FastifyInstance): void {
  // Before routing matters: a preflight has no token and no route of its own, and must never be rate limited.
  app.addHook('onRequest', async (req, reply) => {
    if (req.method !== 'OPTIONS' || !isApi(req.raw.url) || typeof req.headers['access-control-request-method'] !== 'string') return;
    reply
      .code(204)
      .header('access-control-allow-origin', '*')
      .header('access-control-allow-methods', CORS_ALLOW_METHODS)
      .header('access-control-allow-headers', CORS_ALLOW_HEADERS)
      .header('access-control-max-age', CORS_MAX_AGE)
      .send();
    return reply;
  });
  app.addHook('onSend', async (req, reply) => {
    if (!isApi(req.raw.url) || reply.getHeader('access-control-allow-origin') !== undefined) return;
    reply.header('access-control-allow-origin', '*');
    reply.header('access-control-expose-headers', CORS_EXPOSE_HEADERS);
  });
}

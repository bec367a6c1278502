import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Ctx } from '../services/context.js';
import { isLoopback } from '../config.js';
import { ApiError, Errors } from '../core/errors.js';
import { sendError } from '../http/app.js';

/** The header every dev route call carries: the dev token the server prints at start. */
export const DEV_TOKEN_HEADER = 'x-accord-dev-token';

/**
 * Whether a request comes from this machine: its socket is loopback and so is the client address Fastify derived
 * (with --trust-proxy, X-Forwarded-For's: a proxied request from elsewhere is not local even if the proxy is).
 */
export function isLocalRequest(req: FastifyRequest): boolean {
  return isLoopback(req.socket.remoteAddress ?? '') && isLoopback(req.ip ?? '');
}

/** Whether the Host a browser used names this machine (not a DNS name that was rebound to 127.0.0.1). */
export function isLoopbackHost(req: FastifyRequest): boolean {
  const host = String(req.headers.host ?? '').replace(/:\d+$/, '');
  return host === 'localhost' || isLoopback(host);
}

function tokenMatches(ctx: Ctx, given: unknown): boolean {
  const expected = ctx.config.devToken;
  if (!expected || typeof given !== 'string') return false;
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

/**
 * The onRequest hook of every dev scope: callers off this machine get 404 (the routes do not exist for them); local
 * callers without the dev token get 401. An async hook that answers must return the reply: otherwise Fastify goes on
 * to the route, which for a request without a body ran before the refusal was written.
 */
export function devGuard(ctx: Ctx) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    if (!isLocalRequest(req)) {
      sendError(reply, Errors.notFound());
      return reply;
    }
    if (!tokenMatches(ctx, req.headers[DEV_TOKEN_HEADER])) {
      sendError(reply, new ApiError(401, 0, `401: Unauthorized (dev routes need the dev token printed at start, in ${DEV_TOKEN_HEADER})`));
      return reply;
    }
  };
}

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { parseBody } from '../http/validation.js';
import { sendError } from '../http/app.js';
import { isLoopback } from '../config.js';
import { Errors } from '../core/errors.js';
import { registerConnectionDevRoutes } from './connections.js';

const ClockBody = z.object({
  advance_ms: z.number().int().min(0).max(10 * 365 * 86400_000).optional(),
  set: z.union([z.string().datetime(), z.number().int()]).optional(),
});

/** Dev-only control routes. Registered only with --dev, and refuse callers that are not on loopback. */
export function registerDevRoutes(app: FastifyInstance, ctx: Ctx): void {
  app.register(async (scope) => {
    scope.addHook('onRequest', async (req, reply) => {
      if (!isLoopback(req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '')) return sendError(reply, Errors.notFound());
    });
    scope.setErrorHandler((err, _req, reply) => sendError(reply, err));
    scope.get('/__dev/clock', async () => ({ now: ctx.clock.nowIso(), offset_ms: ctx.clock.offset }));
    scope.post('/__dev/clock', async (req) => {
      const body = parseBody(ClockBody, req.body ?? {});
      if (body.set !== undefined) ctx.clock.set(typeof body.set === 'number' ? body.set : Date.parse(body.set));
      if (body.advance_ms) ctx.clock.advance(body.advance_ms);
      ctx.bus.publish({ t: '__CLOCK_MOVED', d: { now: ctx.clock.now() } });
      return { now: ctx.clock.nowIso(), offset_ms: ctx.clock.offset };
    });
    registerConnectionDevRoutes(scope, ctx); // POST /__dev/users/{id}/connections
  });
}

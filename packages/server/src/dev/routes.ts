import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../services/context.js';
import { parseBody } from '../core/validation.js';
import { sendError } from '../http/app.js';
import { devGuard } from './guard.js';
import { registerConnectionDevRoutes } from './connections.js';
import { Inspector, registerInspectorRoutes } from './inspector.js';
import { registerUserDevRoutes } from './users.js';
import { registerSocialDevRoutes } from './social.js';
import { worldSnapshot } from './world-snapshot.js';
import type { FaultBook } from './faults/book.js';
import { registerFaultRoutes } from './faults/routes.js';

const ClockBody = z.object({
  advance_ms: z
    .number()
    .int()
    .min(0)
    .max(10 * 365 * 86400_000)
    .optional(),
  set: z.union([z.string().datetime(), z.number().int()]).optional(),
});

/**
 * Dev-only control routes. Registered only with --dev; callers must be on loopback and send the dev token (guard.ts). Returns the
 * inspector, which records the API requests of applications (an onResponse hook) and their Gateway dispatches (the
 * composition root attaches it to the Gateway).
 */
export function registerDevRoutes(app: FastifyInstance, ctx: Ctx, faults: FaultBook): { inspector: Inspector } {
  const inspector = new Inspector(ctx);
  app.addHook('onResponse', inspector.onResponse);
  app.register(async (scope) => {
    scope.addHook('onRequest', devGuard(ctx)); // loopback and the dev token
    scope.setErrorHandler((err, _req, reply) => sendError(reply, err));
    scope.get('/__dev/clock', async () => ({ now: ctx.clock.nowIso(), offset_ms: ctx.clock.offset }));
    scope.post('/__dev/clock', async (req) => {
      const body = parseBody(ClockBody, req.body ?? {});
      if (body.set !== undefined) ctx.clock.set(typeof body.set === 'number' ? body.set : Date.parse(body.set));
      if (body.advance_ms) ctx.clock.advance(body.advance_ms);
      ctx.bus.publish({ t: '__CLOCK_MOVED', d: { now: ctx.clock.now() } });
      return { now: ctx.clock.nowIso(), offset_ms: ctx.clock.offset };
    });
    scope.get('/__dev/snapshot', async () => worldSnapshot(ctx)); // the world as --export-on-exit writes it
    registerConnectionDevRoutes(scope, ctx); // POST /__dev/users/{id}/connections
    registerUserDevRoutes(scope, ctx); // GET /__dev/users, POST /__dev/users/{id}/token (act as user)
    registerInspectorRoutes(scope, ctx, inspector, app); // GET /__dev/inspector/applications, /__dev/inspector/stream
    registerSocialDevRoutes(scope, ctx); // bans, Social SDK approval, publisher (parent) apps
    registerFaultRoutes(scope, ctx, faults); // POST/GET/DELETE /__dev/faults: make one application's world misbehave
  });
  return { inspector };
}

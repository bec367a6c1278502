import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../../services/context.js';
import { Errors, fieldError } from '../../core/errors.js';
import { allRoutes } from '../../http/routes/index.js';
import type { FaultBook } from './book.js';
import { normalizeRoute } from './http.js';
import { isOneShot, parseFaultRequest, ruleView, type Rule, type RuleKind } from './rules.js';

/** Whether some declared route is the one a rule names (a typo would otherwise make a rule that never applies). */
function routeExists(route: string): boolean {
  const r = normalizeRoute(route);
  return allRoutes().some((d) => d.path === r.path && (!r.method || d.method === r.method));
}

const appQuery = (q: unknown): string | null => {
  const v = (q as Record<string, unknown> | undefined)?.application_id;
  return typeof v === 'string' && v ? v : null;
};

/**
 * The faults API (dev mode, behind the dev guard): POST /__dev/faults makes a fault for one application — a one-shot
 * action on its bot's Gateway sessions, or a rule kept until deleted, used up or expired; GET lists the active rules;
 * DELETE removes one, or every rule of an application (of all of them without `application_id`).
 */
export function registerFaultRoutes(scope: FastifyInstance, ctx: Ctx, book: FaultBook): void {
  scope.post('/__dev/faults', async (req, reply) => {
    const f = parseFaultRequest(req.body);
    const app = await ctx.repos.applications.byId(f.application_id);
    if (!app) throw Errors.unknownApplication();
    if (f.kind === 'http' && typeof f.params.route === 'string' && !routeExists(f.params.route)) {
      throw fieldError(['route'], 'ROUTE_UNKNOWN', 'No route has this method and path (e.g. "POST /channels/:channel_id/messages").');
    }
    if (isOneShot(f.kind)) {
      const sessions = book.act({ application_id: app.id, kind: f.kind, params: f.params });
      return reply.code(201).send({ id: ctx.ids.next(), application_id: app.id, kind: f.kind, ...f.params, remaining: null, expires_at: null, sessions });
    }
    const rule: Rule = {
      id: ctx.ids.next(),
      application_id: app.id,
      kind: f.kind as RuleKind,
      params: f.params,
      remaining: f.count,
      expires_at: f.ttl_ms === null ? null : ctx.clock.now() + f.ttl_ms,
      bot_user_id: app.bot_user_id ?? null,
    };
    book.add(rule);
    return reply.code(201).send(ruleView(rule));
  });
  scope.get('/__dev/faults', async (req) => book.list(appQuery(req.query)).map(ruleView));
  // Idempotent: a rule used up or expired is gone already, which is what the caller wanted.
  scope.delete('/__dev/faults/:id', async (req, reply) => {
    book.delete((req.params as { id: string }).id);
    return reply.code(204).send();
  });
  scope.delete('/__dev/faults', async (req, reply) => {
    book.clear(appQuery(req.query));
    return reply.code(204).send();
  });
}

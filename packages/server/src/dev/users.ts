import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../services/context.js';
import { Errors } from '../core/errors.js';
import { isId } from '../core/ids.js';
import { issueToken } from '../services/identity/tokens.js';

/** The seed world (dev/seed.ts) gives its people addresses on this domain. */
const SEED_DOMAIN = '@accord.local';

/**
 * "Act as user" for the web client's developer tools (dev scope: --dev and loopback only).
 * `GET /__dev/users`: the people on this server (no bots), the seeded ones first.
 * `POST /__dev/users/{user_id}/token`: a fresh user token for one of them, as if they had logged in.
 */
export function registerUserDevRoutes(scope: FastifyInstance, ctx: Ctx): void {
  scope.get('/__dev/users', async () => {
    const rows = await ctx.repos.users.devPeople(200);
    const users = rows.map((r) => ({
      id: r.id,
      username: r.username,
      global_name: r.global_name,
      avatar: r.avatar,
      seeded: typeof r.email === 'string' && r.email.endsWith(SEED_DOMAIN),
    }));
    return [...users.filter((u) => u.seeded), ...users.filter((u) => !u.seeded)];
  });

  scope.post('/__dev/users/:user_id/token', async (req) => {
    const { user_id } = req.params as { user_id: string };
    if (!isId(user_id)) throw Errors.unknownUser();
    const row = await ctx.repos.users.byId(user_id);
    if (!row || row.bot || row.system) throw Errors.unknownUser();
    return { user_id, token: await issueToken(ctx, user_id, 'user') };
  });
}

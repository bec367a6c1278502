import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../services/context.js';
import { Errors } from '../core/errors.js';
import { parseBody } from '../core/validation.js';
import { addConnection } from '../services/identity/connections.js';
import { isId } from '../core/ids.js';

const ConnectionBody = z.object({
  type: z.string().min(1).max(32),
  id: z.string().min(1).max(128),
  name: z.string().max(128).nullable().optional(),
  verified: z.boolean().optional(),
  visibility: z.literal([0, 1]).optional(),
  friend_sync: z.boolean().optional(),
  show_activity: z.boolean().optional(),
  two_way_link: z.boolean().optional(),
  revoked: z.boolean().optional(),
  /** When it was connected (ISO date or epoch ms); defaults to now on the server clock. */
  created_at: z.union([z.string().datetime(), z.number().int()]).optional(),
});

/** `POST /__dev/users/{user_id}/connections`: links a third-party account to a user (the provider's OAuth is out of scope). */
export function registerConnectionDevRoutes(scope: FastifyInstance, ctx: Ctx): void {
  scope.post('/__dev/users/:user_id/connections', async (req) => {
    const { user_id } = req.params as { user_id: string };
    if (!isId(user_id)) throw Errors.unknownUser();
    const b = parseBody(ConnectionBody, req.body ?? {});
    const createdAt = b.created_at === undefined ? undefined : typeof b.created_at === 'number' ? b.created_at : Date.parse(b.created_at);
    return addConnection(ctx, user_id, { ...b, created_at: createdAt });
  });
}

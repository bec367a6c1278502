import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../services/context.js';
import { Errors } from '../core/errors.js';
import { parseBody, snowflake } from '../core/validation.js';
import { isId } from '../core/ids.js';
import { banAccount, liftBan } from '../services/identity/bans.js';
import { getApplication, updateApplication } from '../services/identity/applications.js';
import { setApproval } from '../services/social/sdk/limits.js';

const BanBody = z.object({ reason: z.string().max(512).nullable().optional() });
const ApprovalBody = z.object({ approved: z.boolean() });
const ParentBody = z.object({ parent_application_id: snowflake.nullable() });

/**
 * The platform's own decisions around the Social SDK, for developers: ban and unban an account
 * (`/__dev/users/{id}/ban`), approve an app for communication features (`/__dev/applications/{id}/social-sdk-approval`),
 * and link a game to its publisher's app for child tokens (`/__dev/applications/{id}/parent`).
 */
export function registerSocialDevRoutes(scope: FastifyInstance, ctx: Ctx): void {
  scope.post('/__dev/users/:user_id/ban', async (req, reply) => {
    const { user_id } = req.params as { user_id: string };
    await banAccount(ctx, user_id, parseBody(BanBody, req.body ?? {}).reason ?? null);
    return reply.code(204).send();
  });
  scope.delete('/__dev/users/:user_id/ban', async (req, reply) => {
    await liftBan(ctx, (req.params as { user_id: string }).user_id);
    return reply.code(204).send();
  });
  scope.post('/__dev/applications/:application_id/social-sdk-approval', async (req) => {
    const { application_id } = req.params as { application_id: string };
    if (!isId(application_id) || !(await getApplication(ctx, application_id))) throw Errors.unknownApplication();
    const { approved } = parseBody(ApprovalBody, req.body ?? {});
    await setApproval(ctx, application_id, approved);
    return { application_id, approved };
  });
  scope.post('/__dev/applications/:application_id/parent', async (req) => {
    const { application_id } = req.params as { application_id: string };
    const app = isId(application_id) ? await getApplication(ctx, application_id) : null;
    if (!app) throw Errors.unknownApplication();
    const { parent_application_id } = parseBody(ParentBody, req.body ?? {});
    if (parent_application_id && !(await getApplication(ctx, parent_application_id))) throw Errors.unknownApplication();
    await updateApplication(ctx, app, { extra: { parent_application_id } });
    return { application_id, parent_application_id };
  });
}

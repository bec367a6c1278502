import { z } from 'zod';
import { Routes } from '../router.js';
import { parseBody } from '../validation.js';
import { createApplication, requireOwnedApplication, resetBotToken, updateApplication, applicationOfBot } from '../../services/applications.js';
import { application } from '../../wire/application.js';
import { getUser } from '../../services/users.js';
import { Errors } from '../../core/errors.js';
import type { Call } from '../router.js';

const CreateBody = z.object({ name: z.string().min(1).max(100), description: z.string().max(400).optional() });
const PatchBody = z.object({
  name: z.string().min(1).max(100).optional(),
  description: z.string().max(400).optional(),
  icon: z.string().nullable().optional(),
  flags: z.number().int().min(0).max(2 ** 31 - 1).optional(),
  bot_public: z.boolean().optional(),
  bot_require_code_grant: z.boolean().optional(),
  redirect_uris: z.array(z.string().url().max(2048)).max(10).optional(),
  interactions_endpoint_url: z.string().url().max(2048).nullable().optional(),
});

async function render(call: Call, app: Awaited<ReturnType<typeof requireOwnedApplication>>) {
  const [owner, bot] = await Promise.all([getUser(call.ctx, app.owner_id), app.bot_user_id ? getUser(call.ctx, app.bot_user_id) : null]);
  return application(app, { owner, bot });
}

/** The developer portal's application routes, and the bot's own view. */
export default new Routes()
  .post('/applications', 'user', async (call) => {
    const b = parseBody(CreateBody, call.body);
    return render(call, await createApplication(call.ctx, call.actor, b));
  })
  .get('/applications', 'user', async (call) => {
    const rows = await call.ctx.db.selectFrom('applications').select('id').where('owner_id', '=', call.actor.user.id).execute();
    return Promise.all(rows.map(async (r) => render(call, await requireOwnedApplication(call.ctx, call.actor, String(r.id)))));
  })
  .get('/applications/@me', 'bot', async (call) => {
    const app = await applicationOfBot(call.ctx, call.actor.user.id);
    if (!app) throw Errors.unknownApplication();
    return render(call, app);
  })
  .patch('/applications/@me', 'bot', async (call) => {
    const app = await applicationOfBot(call.ctx, call.actor.user.id);
    if (!app) throw Errors.unknownApplication();
    const b = parseBody(PatchBody, call.body);
    return render(call, await updateApplication(call.ctx, app, b));
  })
  .get('/applications/{application_id}', 'any', async (call) => render(call, await requireOwnedApplication(call.ctx, call.actor, call.params.application_id)))
  .patch('/applications/{application_id}', 'user', async (call) => {
    const app = await requireOwnedApplication(call.ctx, call.actor, call.params.application_id);
    const b = parseBody(PatchBody, call.body);
    return render(call, await updateApplication(call.ctx, app, b));
  })
  .post('/applications/{application_id}/bot/reset', 'user', async (call) => {
    const app = await requireOwnedApplication(call.ctx, call.actor, call.params.application_id);
    return { token: await resetBotToken(call.ctx, app) };
  })
  .post('/applications/{application_id}/bot', 'user', async (call) => {
    const app = await requireOwnedApplication(call.ctx, call.actor, call.params.application_id);
    return { token: await resetBotToken(call.ctx, app) };
  });

import { z } from 'zod';
import { Routes } from '../router.js';
import { MAX_URL_LENGTH, urlField } from '../../core/url-policy.js';
import { parseBody, permissionString } from '../../core/validation.js';
import { createApplication, requireOwnedApplication, resetBotToken, resetClientSecret, applicationOfBot } from '../../services/identity/applications.js';
import { EmbeddedConfigPatch, ProxyConfigPatch, updateApplicationWithActivities } from '../../services/activities/settings.js';
import { installCounts } from '../../services/identity/oauth2/grants.js';
import { application } from '../../wire/application.js';
import { verifyInteractionsEndpoint } from '../../services/apps/interactions/endpoint-verify.js';
import { verifyEventWebhooksUrl } from '../../events-out/verify.js';
import { getUser } from '../../services/identity/users.js';
import { Errors } from '../../core/errors.js';
import { uploadApplicationAttachment } from '../../services/apps/attachments.js';
import type { Call } from '../router.js';

const CreateBody = z.object({ name: z.string().min(1).max(100), description: z.string().max(400).optional() });
/** URL fields by kind (core/url-policy.ts); fetched URLs are checked again against the operator's rules on save. */
const redirectUrl = urlField('redirect').max(MAX_URL_LENGTH);
const linkUrl = urlField('link').max(MAX_URL_LENGTH);
const installParams = z.object({
  scopes: z.array(z.string().max(64)).min(1).max(50),
  permissions: permissionString,
});
/** Every application webhook event type the outgoing-events worker knows. */
const EVENT_TYPES = [
  'APPLICATION_AUTHORIZED',
  'APPLICATION_DEAUTHORIZED',
  'ENTITLEMENT_CREATE',
  'ENTITLEMENT_UPDATE',
  'ENTITLEMENT_DELETE',
  'QUEST_USER_ENROLLMENT',
  'LOBBY_MESSAGE_CREATE',
  'LOBBY_MESSAGE_UPDATE',
  'LOBBY_MESSAGE_DELETE',
  'GAME_DIRECT_MESSAGE_CREATE',
  'GAME_DIRECT_MESSAGE_UPDATE',
  'GAME_DIRECT_MESSAGE_DELETE',
] as const;
const integrationTypeConfig = z.object({ oauth2_install_params: installParams.nullable().optional() }).nullable();
const PatchBody = z
  .object({
    name: z.string().min(1).max(100).optional(),
    description: z.string().max(400).optional(),
    icon: z.string().max(10_000_000).nullable().optional(),
    flags: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .optional(),
    bot_public: z.boolean().optional(),
    bot_require_code_grant: z.boolean().optional(),
    redirect_uris: z.array(redirectUrl).max(10).optional(),
    interactions_endpoint_url: linkUrl.nullable().optional(),
    tags: z.array(z.string().min(1).max(20)).max(5).optional(),
    install_params: installParams.nullable().optional(),
    // Only the two installation contexts exist: "0" (guild) and "1" (user); any other key is refused.
    integration_types_config: z.strictObject({ '0': integrationTypeConfig.optional(), '1': integrationTypeConfig.optional() }).optional(),
    role_connections_verification_url: linkUrl.nullable().optional(),
    custom_install_url: linkUrl.nullable().optional(),
    event_webhooks_url: linkUrl.nullable().optional(),
    event_webhooks_status: z.literal([1, 2]).optional(),
    event_webhooks_types: z.array(z.enum(EVENT_TYPES)).max(EVENT_TYPES.length).optional(),
    /** The portal's "Private Channel Obfuscation" toggle (bot tab): the Gateway obfuscates channels the bot cannot view. */
    private_channel_obfuscation: z.boolean().optional(),
    /** Origins allowed to open the local client's RPC WebSocket for this app (kept in `extra`). */
    rpc_origins: z.array(urlField('link').max(256)).max(10).optional(),
    /** Activities (flag EMBEDDED turns them on): platforms, orientation, age gate; and the proxy's URL mappings. */
    embedded_activity_config: EmbeddedConfigPatch.optional(),
    proxy_config: ProxyConfigPatch.optional(),
  })
  .transform(({ rpc_origins, ...rest }) => (rpc_origins === undefined ? rest : { ...rest, extra: { rpc_origins } }));

async function render(call: Call, app: Awaited<ReturnType<typeof requireOwnedApplication>>) {
  const [owner, bot, counts] = await Promise.all([
    getUser(call.ctx, app.owner_id),
    app.bot_user_id ? getUser(call.ctx, app.bot_user_id) : null,
    installCounts(call.ctx, app),
  ]);
  return application(app, { owner, bot, counts });
}

/** The developer portal's application routes, and the bot's own view. */
export default new Routes()
  .post('/applications', 'user', async (call) => {
    const b = parseBody(CreateBody, call.body);
    return render(call, await createApplication(call.ctx, call.actor, b));
  })
  .get('/applications', 'user', async (call) => {
    const ids = await call.ctx.repos.applications.idsOwnedBy(call.actor.user.id);
    return Promise.all(ids.map(async (id) => render(call, await requireOwnedApplication(call.ctx, call.actor, id))));
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
    if (typeof b.interactions_endpoint_url === 'string') await verifyInteractionsEndpoint(call.ctx, app, b.interactions_endpoint_url);
    if (typeof b.event_webhooks_url === 'string') await verifyEventWebhooksUrl(call.ctx, app, b.event_webhooks_url);
    return render(call, await updateApplicationWithActivities(call.ctx, app, b));
  })
  .get('/applications/{application_id}', 'any', async (call) => render(call, await requireOwnedApplication(call.ctx, call.actor, call.params.application_id)))
  .patch('/applications/{application_id}', 'any', async (call) => {
    const app = await requireOwnedApplication(call.ctx, call.actor, call.params.application_id);
    const b = parseBody(PatchBody, call.body);
    if (typeof b.interactions_endpoint_url === 'string') await verifyInteractionsEndpoint(call.ctx, app, b.interactions_endpoint_url);
    if (typeof b.event_webhooks_url === 'string') await verifyEventWebhooksUrl(call.ctx, app, b.event_webhooks_url);
    return render(call, await updateApplicationWithActivities(call.ctx, app, b));
  })
  .post('/applications/{application_id}/bot/reset', 'user', async (call) => {
    const app = await requireOwnedApplication(call.ctx, call.actor, call.params.application_id);
    return { token: await resetBotToken(call.ctx, app) };
  })
  .post('/applications/{application_id}/reset', 'user', async (call) => {
    const app = await requireOwnedApplication(call.ctx, call.actor, call.params.application_id);
    return { secret: await resetClientSecret(call.ctx, app) };
  })
  .post('/applications/{application_id}/bot', 'user', async (call) => {
    const app = await requireOwnedApplication(call.ctx, call.actor, call.params.application_id);
    return { token: await resetBotToken(call.ctx, app) };
  })
  .post('/applications/{application_id}/attachment', 'any', async ({ ctx, actor, params, files }) =>
    uploadApplicationAttachment(ctx, actor, params.application_id, files),
  );

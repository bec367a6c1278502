import { Routes, created, noContent } from '../router.js';
import { parseBody } from '../../core/validation.js';
import { Errors } from '../../core/errors.js';
import { applicationOfBot } from '../../services/identity/applications.js';
import { BotTokenBody, BotUnmergeBody, ExternalAuthBody, botPartnerToken, partnerCaller, partnerToken } from '../../services/identity/provisional/exchange.js';
import { unmergeByExternalAuth, unmergeIdentity } from '../../services/identity/provisional/merge.js';
import { findIdentity } from '../../services/identity/provisional/accounts.js';
import { BOT_ISSUED } from '../../services/identity/provisional/identity.js';
import { DisplayNameBody, updateProvisionalDisplayName } from '../../services/identity/provisional/display-name.js';
import { ChildTokenBody, exchangeChildToken } from '../../services/identity/provisional/child-token.js';
import { ProviderInput, ProviderPatch, createProvider, deleteProvider, editProvider, listProviders } from '../../services/identity/provisional/providers.js';
import { setDmModerationMetadata } from '../../services/social/game-dms/dms.js';
import { ModerationMetadata } from '../../services/social/lobbies/model.js';

/**
 * The Social SDK's account routes (discord-api-spec `partner_sdk_*`): provisional tokens from external auth or from
 * the game backend, unmerge, child tokens for publisher-level linking, DM moderation metadata; and the app's external
 * auth providers (the portal's "External Auth" settings).
 */
export default new Routes()
  .post('/partner-sdk/token', 'optional', async ({ ctx, actor, body }) => partnerToken(ctx, actor, parseBody(ExternalAuthBody, body)))
  .post('/partner-sdk/token/bot', 'bot', async ({ ctx, actor, body }) => botPartnerToken(ctx, actor, parseBody(BotTokenBody, body)))
  .post('/partner-sdk/provisional-accounts/unmerge', 'optional', async ({ ctx, actor, body }) => {
    const b = parseBody(ExternalAuthBody, body);
    const { app } = await partnerCaller(ctx, actor, b.client_id, b.client_secret);
    await unmergeByExternalAuth(ctx, app, b.external_auth_type, b.external_auth_token);
    return noContent();
  })
  .post('/partner-sdk/provisional-accounts/unmerge/bot', 'bot', async ({ ctx, actor, body }) => {
    const b = parseBody(BotUnmergeBody, body);
    const app = await applicationOfBot(ctx, actor.user.id);
    if (!app) throw Errors.unknownApplication();
    await unmergeIdentity(ctx, app, await findIdentity(ctx, app.id, BOT_ISSUED, b.external_user_id));
    return noContent();
  })
  .patch('/partner-sdk/provisional-accounts/@me', 'any', async ({ ctx, actor, body }) =>
    updateProvisionalDisplayName(ctx, actor, parseBody(DisplayNameBody, body).display_name),
  )
  .post('/partner-sdk/child-token', 'none', async ({ ctx, body }) => exchangeChildToken(ctx, parseBody(ChildTokenBody, body)))
  .put('/partner-sdk/dms/{user_id_1}/{user_id_2}/messages/{message_id}/moderation-metadata', 'bot', async ({ ctx, actor, params, body }) => {
    const app = await applicationOfBot(ctx, actor.user.id);
    if (!app) throw Errors.unknownApplication();
    await setDmModerationMetadata(ctx, app.id, params.user_id_1, params.user_id_2, params.message_id, parseBody(ModerationMetadata, body ?? {}));
    return noContent();
  })
  .get('/applications/{application_id}/external-auth-providers', 'user', async ({ ctx, actor, params }) => listProviders(ctx, actor, params.application_id))
  .post('/applications/{application_id}/external-auth-providers', 'user', async ({ ctx, actor, params, body }) =>
    created(await createProvider(ctx, actor, params.application_id, parseBody(ProviderInput, body))),
  )
  .patch('/applications/{application_id}/external-auth-providers/{provider_id}', 'user', async ({ ctx, actor, params, body }) =>
    editProvider(ctx, actor, params.application_id, params.provider_id, parseBody(ProviderPatch, body ?? {})),
  )
  .delete('/applications/{application_id}/external-auth-providers/{provider_id}', 'user', async ({ ctx, actor, params }) => {
    await deleteProvider(ctx, actor, params.application_id, params.provider_id);
    return noContent();
  });

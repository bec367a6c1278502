import { z } from 'zod';
import { Routes, noContent, Reply } from '../router.js';
import { parseBody, qBool } from '../../core/validation.js';
import { setWebhookTokenDelegate } from './webhooks.js';
import { invokeInteraction } from '../../services/apps/interactions/invoke.js';
import { respondByToken } from '../../services/apps/interactions/respond.js';
import {
  deleteInteractionMessage,
  editInteractionMessage,
  executeFollowup,
  getInteractionMessage,
  interactionWebhook,
  ownsInteractionWebhook,
} from '../../services/apps/interactions/followups.js';
import { createRule, deleteRule, getRule, listRules } from '../../services/moderation/automod.js';
import { Errors } from '../../core/errors.js';

const CallbackQuery = z.object({ with_response: qBool });

// `/webhooks/{application_id}/{interaction_token}…` is served by the webhooks module, which hands interaction tokens
// to this delegate.
setWebhookTokenDelegate({
  owns: (call, id, token) => ownsInteractionWebhook(call.ctx, id, token),
  async handle(op, call) {
    const { ctx, params, body, files } = call;
    const { webhook_id: appId, webhook_token: token } = params;
    switch (op) {
      case 'get':
        return interactionWebhook(ctx, appId, token);
      case 'execute':
        return executeFollowup(ctx, appId, token, body, files);
      case 'getMessage':
        return getInteractionMessage(ctx, appId, token, params.message_id);
      case 'editMessage':
        return editInteractionMessage(ctx, appId, token, params.message_id, body, files);
      case 'deleteMessage':
        await deleteInteractionMessage(ctx, appId, token, params.message_id);
        return noContent();
      default:
        throw Errors.methodNotAllowed();
    }
  },
});

/** Interactions: the user-side trigger, the app's callback, and the minimal AutoMod rules the responses consult. */
export default new Routes()
  .post('/interactions', 'user', async ({ ctx, actor, body, files }) => {
    await invokeInteraction(ctx, actor, body, files);
    return noContent();
  })
  .post('/interactions/{interaction_id}/{interaction_token}/callback', 'none', async ({ ctx, params, query, body, files }) => {
    const q = parseBody(CallbackQuery, query);
    const out = await respondByToken(ctx, params.interaction_id, params.interaction_token, body, files);
    return q.with_response ? new Reply(200, out) : noContent();
  })
  .get('/guilds/{guild_id}/auto-moderation/rules', 'any', async ({ ctx, actor, params }) => listRules(ctx, actor, params.guild_id))
  .post('/guilds/{guild_id}/auto-moderation/rules', 'any', async ({ ctx, actor, params, body }) => createRule(ctx, actor, params.guild_id, body))
  .get('/guilds/{guild_id}/auto-moderation/rules/{rule_id}', 'any', async ({ ctx, actor, params }) => getRule(ctx, actor, params.guild_id, params.rule_id))
  .delete('/guilds/{guild_id}/auto-moderation/rules/{rule_id}', 'any', async ({ ctx, actor, params }) => {
    await deleteRule(ctx, actor, params.guild_id, params.rule_id);
    return noContent();
  });

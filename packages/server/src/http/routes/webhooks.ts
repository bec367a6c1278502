import type { Actor } from '../../services/context.js';
import { Reply, Routes, noContent, type Call } from '../router.js';
import { executeGithubWebhook, executeSlackWebhook } from '../../services/channels/webhooks/compat/execute.js';
import {
  createWebhook,
  deleteWebhook,
  deleteWebhookByToken,
  deleteWebhookMessage,
  editWebhookMessage,
  executeWebhook,
  getWebhook,
  getWebhookByToken,
  getWebhookMessage,
  listChannelWebhooks,
  listGuildWebhooks,
  loadWebhook,
  updateWebhook,
  updateWebhookByToken,
} from '../../services/channels/webhooks/webhooks.js';

/**
 * The token routes `/webhooks/{id}/{token}…` are shared with interaction followups (`/webhooks/{application_id}/
 * {interaction_token}…`): one path can only have one handler, so the interactions module registers a delegate that
 * serves the ids that are not incoming webhooks.
 */
export type WebhookTokenOp = 'get' | 'execute' | 'patch' | 'delete' | 'getMessage' | 'editMessage' | 'deleteMessage';
export interface WebhookTokenDelegate {
  /** Whether this delegate serves `/webhooks/{id}/{token}` (e.g. an application id with a live interaction token). */
  owns(call: Call<Actor | null>, id: string, token: string): Promise<boolean>;
  handle(op: WebhookTokenOp, call: Call<Actor | null>): Promise<unknown>;
}
let delegate: WebhookTokenDelegate | null = null;
export function setWebhookTokenDelegate(d: WebhookTokenDelegate | null): void {
  delegate = d;
}

/** Runs a token route: our incoming webhooks first, then the delegate, else our own 10015. */
const tokenRoute = (op: WebhookTokenOp, run: (call: Call<Actor | null>) => Promise<unknown>) => async (call: Call<Actor | null>) => {
  const { webhook_id: id, webhook_token: token } = call.params;
  if (delegate && !(await loadWebhook(call.ctx, id)) && (await delegate.owns(call, id, token))) return delegate.handle(op, call);
  return run(call);
};

export default new Routes()
  .post('/channels/{channel_id}/webhooks', 'any', async ({ ctx, actor, params, body }) => createWebhook(ctx, actor, params.channel_id, body))
  .get('/channels/{channel_id}/webhooks', 'any', async ({ ctx, actor, params }) => listChannelWebhooks(ctx, actor, params.channel_id))
  .get('/guilds/{guild_id}/webhooks', 'any', async ({ ctx, actor, params }) => listGuildWebhooks(ctx, actor, params.guild_id))
  .get('/webhooks/{webhook_id}', 'any', async ({ ctx, actor, params }) => getWebhook(ctx, actor, params.webhook_id))
  .patch('/webhooks/{webhook_id}', 'any', async ({ ctx, actor, params, body }) => updateWebhook(ctx, actor, params.webhook_id, body))
  .delete('/webhooks/{webhook_id}', 'any', async ({ ctx, actor, params }) => {
    await deleteWebhook(ctx, actor, params.webhook_id);
    return noContent();
  })
  .get(
    '/webhooks/{webhook_id}/{webhook_token}',
    'none',
    tokenRoute('get', async ({ ctx, params }) => getWebhookByToken(ctx, params.webhook_id, params.webhook_token)),
  )
  .patch(
    '/webhooks/{webhook_id}/{webhook_token}',
    'none',
    tokenRoute('patch', async ({ ctx, params, body }) => updateWebhookByToken(ctx, params.webhook_id, params.webhook_token, body)),
  )
  .delete(
    '/webhooks/{webhook_id}/{webhook_token}',
    'none',
    tokenRoute('delete', async ({ ctx, params }) => {
      await deleteWebhookByToken(ctx, params.webhook_id, params.webhook_token);
      return noContent();
    }),
  )
  .post(
    '/webhooks/{webhook_id}/{webhook_token}',
    'none',
    tokenRoute('execute', async ({ ctx, params, query, body, files }) => {
      const out = await executeWebhook(ctx, params.webhook_id, params.webhook_token, query, body, files);
      return out ?? noContent();
    }),
  )
  // Slack- and GitHub-compatible payloads (incoming webhooks only: interaction tokens have no such routes).
  .post(
    '/webhooks/{webhook_id}/{webhook_token}/slack',
    'none',
    async ({ ctx, params, query, body }) =>
      new Reply(200, await executeSlackWebhook(ctx, params.webhook_id, params.webhook_token, query, body), 'text/html; charset=utf-8'),
  )
  .post('/webhooks/{webhook_id}/{webhook_token}/github', 'none', async ({ ctx, params, query, body, req }) => {
    const event = req.headers['x-github-event'];
    await executeGithubWebhook(ctx, params.webhook_id, params.webhook_token, query, typeof event === 'string' ? event : undefined, body);
    return noContent();
  })
  .get(
    '/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}',
    'none',
    tokenRoute('getMessage', async ({ ctx, params, query }) => getWebhookMessage(ctx, params.webhook_id, params.webhook_token, params.message_id, query)),
  )
  .patch(
    '/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}',
    'none',
    tokenRoute('editMessage', async ({ ctx, params, query, body, files }) =>
      editWebhookMessage(ctx, params.webhook_id, params.webhook_token, params.message_id, query, body, files),
    ),
  )
  .delete(
    '/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}',
    'none',
    tokenRoute('deleteMessage', async ({ ctx, params, query }) => {
      await deleteWebhookMessage(ctx, params.webhook_id, params.webhook_token, params.message_id, query);
      return noContent();
    }),
  );

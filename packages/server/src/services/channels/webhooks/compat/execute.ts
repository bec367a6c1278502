import { z } from 'zod';
import type { Ctx } from '../../../context.js';
import { ApiError } from '../../../../core/errors.js';
import { parseBody, qBool, snowflake } from '../../../../core/validation.js';
import { executeWebhook } from '../execute.js';
import { requireWebhookByToken } from '../lookup.js';
import { githubToExecute } from './github.js';
import { slackToExecute } from './slack.js';

/**
 * The Slack- and GitHub-compatible execute routes. Both take `thread_id` and `wait`, which defaults to true here
 * (docs); with `wait=false` a message that could not be saved is not an error. A bad webhook id or token always is.
 */
const CompatQuery = z.object({ wait: qBool, thread_id: snowflake.optional() });

async function post(ctx: Ctx, webhookId: string, token: string, query: unknown, body: Record<string, unknown>): Promise<void> {
  const q = parseBody(CompatQuery, query ?? {});
  const wait = q.wait ?? true;
  try {
    await executeWebhook(ctx, webhookId, token, q.thread_id ? { thread_id: q.thread_id } : {}, body, []);
  } catch (err) {
    if (wait || !(err instanceof ApiError)) throw err;
  }
}

/** POST /webhooks/{id}/{token}/slack: answers `ok` (200, text) once the message is posted. */
export async function executeSlackWebhook(ctx: Ctx, webhookId: string, token: string, query: unknown, body: unknown): Promise<string> {
  await requireWebhookByToken(ctx, webhookId, token);
  await post(ctx, webhookId, token, query, slackToExecute(body));
  return 'ok';
}

/** POST /webhooks/{id}/{token}/github: 204; events the platform does not render post nothing. */
export async function executeGithubWebhook(
  ctx: Ctx,
  webhookId: string,
  token: string,
  query: unknown,
  event: string | undefined,
  body: unknown,
): Promise<void> {
  await requireWebhookByToken(ctx, webhookId, token);
  const out = event ? githubToExecute(event, body) : null;
  if (out) await post(ctx, webhookId, token, query, out);
}

import type { Ctx } from '../../context.js';
import { Errors } from '../../../core/errors.js';
import { isSnowflake } from '@accord/protocol';
import { getUser } from '../../identity/users.js';
import { publicUser } from '../../../wire/user.js';
import { enqueueWebhookEvent } from './outbox.js';
import { eventTimestamp } from './outbox.js';

/**
 * Webhook events that have no Gateway twin. OAuth2 announces (de)authorizations on the bus (`__APPLICATION_*`); they
 * become APPLICATION_AUTHORIZED `{integration_type, user, scopes, guild?}` and APPLICATION_DEAUTHORIZED `{user}`.
 * With a distributed bus every process would see the announcement: only the process that published it should
 * enqueue (the in-process bus has one).
 */
export function subscribeProducers(ctx: Ctx): () => void {
  return ctx.bus.subscribe((e) => {
    if (e.t === '__APPLICATION_AUTHORIZED') {
      const { application_id, ...data } = e.d ?? {};
      if (typeof application_id === 'string') void enqueueWebhookEvent(ctx, application_id, 'APPLICATION_AUTHORIZED', data).catch(report);
    } else if (e.t === '__APPLICATION_DEAUTHORIZED') {
      const { application_id, user } = e.d ?? {};
      if (typeof application_id === 'string') void enqueueWebhookEvent(ctx, application_id, 'APPLICATION_DEAUTHORIZED', { user }).catch(report);
    }
  });
}

const report = (err: unknown) => console.error('[events-out] enqueue failed', err);

/**
 * A user enrolls in a quest of an app (dev route; the platform documents the event without a payload). Data:
 * `{user_id, user, quest_id, application_id, enrolled_at}`. Returns the event id, or null when the app does not take
 * the event.
 */
export async function enrollInQuest(
  ctx: Ctx,
  input: { application_id: string; user_id: string; quest_id?: string },
): Promise<{ event_id: string | null; quest_id: string }> {
  if (!isSnowflake(input.application_id)) throw Errors.unknownApplication();
  const app = await ctx.repos.applications.byId(input.application_id);
  if (!app) throw Errors.unknownApplication();
  const user = isSnowflake(input.user_id) ? await getUser(ctx, input.user_id) : null;
  if (!user) throw Errors.unknownUser();
  const questId = input.quest_id ?? ctx.ids.next();
  const data = {
    user_id: user.id,
    user: publicUser(user),
    quest_id: questId,
    application_id: input.application_id,
    enrolled_at: eventTimestamp(ctx.clock.now()),
  };
  return { event_id: await enqueueWebhookEvent(ctx, input.application_id, 'QUEST_USER_ENROLLMENT', data), quest_id: questId };
}

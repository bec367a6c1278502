import { Routes, created, noContent } from '../router.js';
import { parseBody } from '../../core/validation.js';
import {
  GameDmBody,
  GameDmEdit,
  HistoryQuery,
  deleteGameDm,
  editGameDm,
  gameDmHistory,
  gameDmSummaries,
  sendGameDm,
} from '../../services/social/game-dms/dms.js';
import { InviteBody, acceptActivityInvite, sendActivityInvite } from '../../services/social/presence/invites.js';

/**
 * The Social SDK's player-to-player routes (Bearer tokens of the game): game DMs with their history and summaries,
 * and activity invites. Scopes: scope-guard.ts.
 */
export default new Routes()
  .get('/users/@me/dms', 'any', async ({ ctx, actor }) => gameDmSummaries(ctx, actor))
  .get('/users/@me/dms/{user_id}/messages', 'any', async ({ ctx, actor, params, query }) =>
    gameDmHistory(ctx, actor, params.user_id, parseBody(HistoryQuery, query).limit),
  )
  .post('/users/@me/dms/{user_id}/messages', 'any', async ({ ctx, actor, params, body }) =>
    created(await sendGameDm(ctx, actor, params.user_id, parseBody(GameDmBody, body))),
  )
  .patch('/users/@me/dms/{user_id}/messages/{message_id}', 'any', async ({ ctx, actor, params, body }) =>
    editGameDm(ctx, actor, params.user_id, params.message_id, parseBody(GameDmEdit, body).content),
  )
  .delete('/users/@me/dms/{user_id}/messages/{message_id}', 'any', async ({ ctx, actor, params }) => {
    await deleteGameDm(ctx, actor, params.user_id, params.message_id);
    return noContent();
  })
  .post('/users/@me/activity-invites', 'any', async ({ ctx, actor, body }) => created(await sendActivityInvite(ctx, actor, parseBody(InviteBody, body))))
  .post('/users/@me/activity-invites/{message_id}/accept', 'any', async ({ ctx, actor, params }) => acceptActivityInvite(ctx, actor, params.message_id));

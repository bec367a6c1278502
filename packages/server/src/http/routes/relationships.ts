import { z } from 'zod';
import { Routes, noContent } from '../router.js';
import { parseBody } from '../../core/validation.js';
import { putRelationship, relationshipList, removeRelationship, requestFriendByName, setNickname } from '../../services/social/relationships/friends.js';
import { gameAppOf, removeGameRelationship, requestGameFriend, requestGameFriendByName } from '../../services/social/relationships/game.js';
import { gameRelationshipList } from '../../services/social/relationships/model.js';

const PutBody = z.object({ type: z.number().int().nullable().optional() });
const ByName = z.object({ username: z.string().min(1).max(32), discriminator: z.string().max(4).nullable().optional() });
const NicknameBody = z.object({ nickname: z.string().max(32).nullable().optional() });
const GameByName = z.object({ username: z.string().min(1).max(32) });

/**
 * Relationships: the official client's routes (friends, requests, blocks, nicknames) and the Social SDK's game
 * friends of the calling app (Bearer tokens; relationships.read / relationships.write, see scope-guard.ts).
 */
export default new Routes()
  .get('/users/@me/relationships', 'any', async ({ ctx, actor }) => relationshipList(ctx, actor.user.id))
  .post('/users/@me/relationships', 'user', async ({ ctx, actor, body }) => {
    const b = parseBody(ByName, body);
    await requestFriendByName(ctx, actor, b.username, b.discriminator ?? null);
    return noContent();
  })
  .put('/users/@me/relationships/{user_id}', 'user', async ({ ctx, actor, params, body }) => {
    await putRelationship(ctx, actor, params.user_id, parseBody(PutBody, body ?? {}).type);
    return noContent();
  })
  .patch('/users/@me/relationships/{user_id}', 'user', async ({ ctx, actor, params, body }) => {
    await setNickname(ctx, actor, params.user_id, parseBody(NicknameBody, body ?? {}).nickname ?? null);
    return noContent();
  })
  .delete('/users/@me/relationships/{user_id}', 'user', async ({ ctx, actor, params }) => {
    await removeRelationship(ctx, actor, params.user_id);
    return noContent();
  })
  .get('/users/@me/game-relationships', 'any', async ({ ctx, actor }) => gameRelationshipList(ctx, actor.user.id, gameAppOf(actor)))
  .post('/users/@me/game-relationships', 'any', async ({ ctx, actor, body }) => {
    await requestGameFriendByName(ctx, actor, parseBody(GameByName, body).username);
    return noContent();
  })
  .put('/users/@me/game-relationships/{user_id}', 'any', async ({ ctx, actor, params }) => {
    await requestGameFriend(ctx, actor, params.user_id);
    return noContent();
  })
  .delete('/users/@me/game-relationships/{user_id}', 'any', async ({ ctx, actor, params }) => {
    await removeGameRelationship(ctx, actor, params.user_id);
    return noContent();
  });

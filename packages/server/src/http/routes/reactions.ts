import { z } from 'zod';
import { Routes, noContent } from '../router.js';
import { parseBody, qInt, snowflake } from '../../core/validation.js';
import { Errors } from '../../core/errors.js';
import { isSnowflake } from '@accord/protocol';
import { channelFor, channelForSend } from '../../services/messages/channel.js';
import {
  addReaction,
  listReactionUsers,
  removeAllReactions,
  removeEmojiReactions,
  removeOwnReaction,
  removeUserReaction,
} from '../../services/messages/reactions.js';
import { publicUser } from '../../wire/user.js';

const TypeQuery = z.object({ type: qInt(0, 1) });
const UsersQuery = z.object({ after: snowflake.optional(), limit: qInt(1, 100), type: qInt(0, 1) });
const asType = (t: number | undefined) => (t === undefined ? undefined : (t as 0 | 1));

const BASE = '/channels/{channel_id}/messages/{message_id}/reactions';

export default new Routes()
  .put(
    `${BASE}/{emoji}/@me`,
    'any',
    async ({ ctx, actor, params, query }) => {
      const ch = await channelForSend(ctx, actor, params.channel_id); // kept in memory: a reaction needs its kind and route
      const q = parseBody(TypeQuery, query);
      await addReaction(ctx, ch, actor.user, params.message_id, params.emoji, q.type === 1);
      return noContent();
    },
    { count: 4, windowMs: 1000 },
  )
  .delete(`${BASE}/{emoji}/@me`, 'any', async ({ ctx, actor, params, query }) => {
    const ch = await channelFor(ctx, actor, params.channel_id, true);
    const q = parseBody(TypeQuery, query);
    await removeOwnReaction(ctx, ch, actor.user.id, params.message_id, params.emoji, asType(q.type));
    return noContent();
  })
  .delete(`${BASE}/{emoji}/{user_id}`, 'any', async ({ ctx, actor, params, query }) => {
    const ch = await channelFor(ctx, actor, params.channel_id, true);
    if (!isSnowflake(params.user_id)) throw Errors.unknownUser();
    const q = parseBody(TypeQuery, query);
    await removeUserReaction(ctx, ch, actor.user.id, params.message_id, params.emoji, params.user_id, asType(q.type));
    return noContent();
  })
  .get(`${BASE}/{emoji}`, 'any', async ({ ctx, actor, params, query }) => {
    const ch = await channelFor(ctx, actor, params.channel_id, false);
    const q = parseBody(UsersQuery, query);
    const users = await listReactionUsers(ctx, ch, actor.user.id, params.message_id, params.emoji, { after: q.after, limit: q.limit, type: asType(q.type) });
    return users.map(publicUser);
  })
  .delete(BASE, 'any', async ({ ctx, actor, params }) => {
    const ch = await channelFor(ctx, actor, params.channel_id, true);
    await removeAllReactions(ctx, ch, actor.user.id, params.message_id);
    return noContent();
  })
  .delete(`${BASE}/{emoji}`, 'any', async ({ ctx, actor, params }) => {
    const ch = await channelFor(ctx, actor, params.channel_id, true);
    await removeEmojiReactions(ctx, ch, actor.user.id, params.message_id, params.emoji);
    return noContent();
  });

import { Routes, created, noContent } from '../router.js';
import { channel as channelWire } from '../../wire/channel.js';
import {
  addThreadMember,
  createThread,
  createThreadFromMessage,
  getThreadMemberView,
  joinThread,
  leaveThread,
  listActiveThreads,
  listArchivedThreads,
  listJoinedPrivateArchivedThreads,
  listThreadMembers,
  removeThreadMember,
} from '../../services/channels/threads/threads.js';

/**
 * Threads: creation, membership and listings. Creation answers are the channel object: `newly_created` is a field of
 * the THREAD_CREATE event only (userdoccers gateway-events; DiscordPHP#1246 "event only attribute"), as on the real
 * platform. Thread edits go through PATCH /channels/{id} (services/threads updateThread). */
export default new Routes()
  .post('/channels/{channel_id}/messages/{message_id}/threads', 'any', async ({ ctx, actor, params, body }) =>
    created(channelWire(await createThreadFromMessage(ctx, actor, params.channel_id, params.message_id, body))),
  )
  .post('/channels/{channel_id}/threads', 'any', async ({ ctx, actor, params, body, files }) => {
    const { thread, message } = await createThread(ctx, actor, params.channel_id, body, files);
    return created({ ...channelWire(thread), ...(message ? { message } : {}) });
  })
  .get('/channels/{channel_id}/threads/archived/public', 'any', async ({ ctx, actor, params, query }) =>
    listArchivedThreads(ctx, actor, params.channel_id, 'public', query),
  )
  .get('/channels/{channel_id}/threads/archived/private', 'any', async ({ ctx, actor, params, query }) =>
    listArchivedThreads(ctx, actor, params.channel_id, 'private', query),
  )
  .get('/channels/{channel_id}/users/@me/threads/archived/private', 'any', async ({ ctx, actor, params, query }) =>
    listJoinedPrivateArchivedThreads(ctx, actor, params.channel_id, query),
  )
  .get('/guilds/{guild_id}/threads/active', 'any', async ({ ctx, actor, params }) => listActiveThreads(ctx, actor, params.guild_id))
  .get('/channels/{channel_id}/thread-members', 'any', async ({ ctx, actor, params, query }) => listThreadMembers(ctx, actor, params.channel_id, query))
  .get('/channels/{channel_id}/thread-members/{user_id}', 'any', async ({ ctx, actor, params, query }) =>
    getThreadMemberView(ctx, actor, params.channel_id, params.user_id, query),
  )
  .put('/channels/{channel_id}/thread-members/{user_id}', 'any', async ({ ctx, actor, params }) => {
    if (params.user_id === '@me') await joinThread(ctx, actor, params.channel_id);
    else await addThreadMember(ctx, actor, params.channel_id, params.user_id);
    return noContent();
  })
  .delete('/channels/{channel_id}/thread-members/{user_id}', 'any', async ({ ctx, actor, params }) => {
    if (params.user_id === '@me') await leaveThread(ctx, actor, params.channel_id);
    else await removeThreadMember(ctx, actor, params.channel_id, params.user_id);
    return noContent();
  });

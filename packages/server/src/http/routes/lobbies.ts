import { Routes, created, noContent } from '../router.js';
import { parseBody } from '../../core/validation.js';
import {
  BulkMembers,
  CreateLobby,
  CreateOrJoinLobby,
  EditLobby,
  LinkChannel,
  LobbyMessagesQuery,
  MemberFields,
  ModerationMetadata,
  SendLobbyMessage,
  lobbyCaller,
} from '../../services/social/lobbies/model.js';
import {
  bulkLobbyMembers,
  createLobby,
  createOrJoinLobby,
  deleteLobby,
  deleteLobbyMember,
  editLobby,
  getLobby,
  leaveLobby,
  linkLobbyChannel,
  lobbyChannelInvite,
  putLobbyMember,
} from '../../services/social/lobbies/lobbies.js';
import { listLobbyMessages, sendLobbyMessage, setLobbyModerationMetadata } from '../../services/social/lobbies/messages.js';

/**
 * Social SDK lobbies (the spec's 15 lobby operations). `bot` routes are the game backend's (Bot token); `any` routes
 * also take the players' Bearer tokens (lobbies.write / sdk.social_layer, see scope-guard.ts) and refuse user tokens.
 */
export default new Routes()
  .post('/lobbies', 'bot', async ({ ctx, actor, body }) => created(await createLobby(ctx, await lobbyCaller(ctx, actor), parseBody(CreateLobby, body ?? {}))))
  .put('/lobbies', 'any', async ({ ctx, actor, body }) => createOrJoinLobby(ctx, await lobbyCaller(ctx, actor), parseBody(CreateOrJoinLobby, body ?? {})))
  .get('/lobbies/{lobby_id}', 'any', async ({ ctx, actor, params }) => getLobby(ctx, await lobbyCaller(ctx, actor), params.lobby_id))
  .patch('/lobbies/{lobby_id}', 'bot', async ({ ctx, actor, params, body }) =>
    editLobby(ctx, await lobbyCaller(ctx, actor), params.lobby_id, parseBody(EditLobby, body ?? {})),
  )
  .delete('/lobbies/{lobby_id}', 'bot', async ({ ctx, actor, params }) => {
    await deleteLobby(ctx, await lobbyCaller(ctx, actor), params.lobby_id);
    return noContent();
  })
  .patch('/lobbies/{lobby_id}/channel-linking', 'any', async ({ ctx, actor, params, body }) =>
    linkLobbyChannel(ctx, await lobbyCaller(ctx, actor), params.lobby_id, parseBody(LinkChannel, body ?? {}).channel_id),
  )
  .delete('/lobbies/{lobby_id}/members/@me', 'any', async ({ ctx, actor, params }) => {
    await leaveLobby(ctx, await lobbyCaller(ctx, actor), params.lobby_id);
    return noContent();
  })
  .post('/lobbies/{lobby_id}/members/@me/invites', 'any', async ({ ctx, actor, params }) =>
    lobbyChannelInvite(ctx, await lobbyCaller(ctx, actor), params.lobby_id, null),
  )
  .post('/lobbies/{lobby_id}/members/bulk', 'bot', async ({ ctx, actor, params, body }) =>
    bulkLobbyMembers(ctx, await lobbyCaller(ctx, actor), params.lobby_id, parseBody(BulkMembers, body)),
  )
  .put('/lobbies/{lobby_id}/members/{user_id}', 'bot', async ({ ctx, actor, params, body }) =>
    putLobbyMember(ctx, await lobbyCaller(ctx, actor), params.lobby_id, params.user_id, parseBody(MemberFields, body ?? {})),
  )
  .delete('/lobbies/{lobby_id}/members/{user_id}', 'bot', async ({ ctx, actor, params }) => {
    await deleteLobbyMember(ctx, await lobbyCaller(ctx, actor), params.lobby_id, params.user_id);
    return noContent();
  })
  .post('/lobbies/{lobby_id}/members/{user_id}/invites', 'bot', async ({ ctx, actor, params }) =>
    lobbyChannelInvite(ctx, await lobbyCaller(ctx, actor), params.lobby_id, params.user_id),
  )
  .get('/lobbies/{lobby_id}/messages', 'any', async ({ ctx, actor, params, query }) =>
    listLobbyMessages(ctx, await lobbyCaller(ctx, actor), params.lobby_id, parseBody(LobbyMessagesQuery, query).limit),
  )
  .post('/lobbies/{lobby_id}/messages', 'any', async ({ ctx, actor, params, body, files }) =>
    created(await sendLobbyMessage(ctx, await lobbyCaller(ctx, actor), params.lobby_id, parseBody(SendLobbyMessage, body ?? {}), files)),
  )
  .put('/lobbies/{lobby_id}/messages/{message_id}/moderation-metadata', 'bot', async ({ ctx, actor, params, body }) => {
    await setLobbyModerationMetadata(ctx, await lobbyCaller(ctx, actor), params.lobby_id, params.message_id, parseBody(ModerationMetadata, body ?? {}));
    return noContent();
  });

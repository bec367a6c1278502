import { LoggingSeverity } from './enums.js';
import { CallsClient } from './client/calls.js';

export { sortGuildChannels } from './client/lobbies.js';
export type { ClientCreateOptions, ClientEvents } from './client/core.js';
export type { TokenResult } from './client/auth.js';

/**
 * The Social SDK client (the spec's `Client`): account linking and provisional accounts, the Gateway session with its
 * statuses and auto-reconnect, users and relationships, rich presence and activity invites, game DMs, lobbies with
 * their messages and linked channels, and lobby calls (Node). Results are promises that reject with ClientResult;
 * events are typed (`client.on('messageCreated', …)`), with the C++ `set…Callback` names kept as shims.
 */
export class Client extends CallsClient {
  protected onDispatch(t: string, d: any): void {
    const handler = HANDLERS[t];
    if (handler) {
      try {
        handler.call(this, d);
      } catch (err) {
        this.log(`dispatch ${t} failed: ${(err as Error).message}`, LoggingSeverity.Error);
      }
    }
  }
}

const HANDLERS: Record<string, (this: Client, d: any) => void> = {
  PRESENCE_UPDATE(d) {
    this.handlePresence(d);
  },
  RELATIONSHIP_ADD(d) {
    this.handleRelationship(d, false, false);
  },
  RELATIONSHIP_UPDATE(d) {
    this.handleRelationship(d, false, false);
  },
  RELATIONSHIP_REMOVE(d) {
    this.handleRelationship(d, false, true);
  },
  GAME_RELATIONSHIP_ADD(d) {
    this.handleRelationship(d, true, false);
  },
  GAME_RELATIONSHIP_REMOVE(d) {
    this.handleRelationship(d, true, true);
  },
  MESSAGE_CREATE(d) {
    this.handleMessage(d, 'create');
  },
  MESSAGE_UPDATE(d) {
    this.handleMessage(d, 'update');
  },
  MESSAGE_DELETE(d) {
    this.handleMessageDelete(d);
  },
  LOBBY_MESSAGE_CREATE(d) {
    this.handleLobbyMessage(d, 'create');
  },
  LOBBY_MESSAGE_UPDATE(d) {
    this.handleLobbyMessage(d, 'update');
  },
  LOBBY_MESSAGE_DELETE(d) {
    this.handleMessageDelete({ id: d.id, channel_id: d.lobby_id });
  },
  LOBBY_CREATE(d) {
    this.handleLobby('LOBBY_CREATE', d);
  },
  LOBBY_UPDATE(d) {
    this.handleLobby('LOBBY_UPDATE', d);
  },
  LOBBY_DELETE(d) {
    this.handleLobby('LOBBY_DELETE', d);
  },
  LOBBY_MEMBER_ADD(d) {
    this.handleLobby('LOBBY_MEMBER_ADD', d);
  },
  LOBBY_MEMBER_UPDATE(d) {
    this.handleLobby('LOBBY_MEMBER_UPDATE', d);
  },
  LOBBY_MEMBER_REMOVE(d) {
    this.handleLobby('LOBBY_MEMBER_REMOVE', d);
  },
  LOBBY_MEMBER_CONNECT(d) {
    this.handleLobby('LOBBY_MEMBER_CONNECT', d);
  },
  LOBBY_MEMBER_DISCONNECT(d) {
    this.handleLobby('LOBBY_MEMBER_DISCONNECT', d);
  },
  LOBBY_VOICE_STATE_UPDATE(d) {
    this.handleLobbyVoiceState(d);
  },
  LOBBY_VOICE_SERVER_UPDATE(d) {
    this.handleLobbyVoiceServer(d);
  },
  ACTIVITY_INVITE_CREATE(d) {
    this.handleInviteAcceptedElsewhere(d);
  },
  USER_MERGE_OPERATION_COMPLETED(d) {
    this.handleMerge(d);
  },
  AUTHORIZE_REQUEST(d) {
    this.handleAuthorizeRequest(d);
  },
  CHANNEL_CREATE(d) {
    this.handleChannelCreate(d);
  },
  USER_UPDATE() {
    void this.handleUserUpdate();
  },
};

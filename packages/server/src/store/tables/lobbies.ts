/** Tables of migration 008_lobbies: Social SDK lobbies, their members and messages. */
type Id = string;
type Ms = number;
type Bool = number;
type Json = string;

export interface LobbiesTable {
  id: Id;
  application_id: Id;
  secret: string | null;
  secret_expires_at: Ms | null;
  by_secret: Bool;
  metadata: Json | null;
  flags: number;
  idle_timeout_seconds: number;
  idle_deadline: Ms;
  override_event_webhooks_url: string | null;
  linked_channel_id: Id | null;
  linked_guild_id: Id | null;
  linked_by: Id | null;
  created_at: Ms;
}

export interface LobbyMembersTable {
  lobby_id: Id;
  user_id: Id;
  metadata: Json | null;
  /** CAN_LINK_LOBBY 1. */
  flags: number;
  additional_name: string | null;
  joined_at: Ms;
}

export interface LobbyMessagesTable {
  id: Id;
  lobby_id: Id;
  /** The lobby id, or the linked channel's id for messages bridged with it. */
  channel_id: Id;
  author_id: Id;
  /** Set when sent through the lobby API (by the app or one of its SDK sessions). */
  application_id: Id | null;
  type: number;
  content: string;
  metadata: Json | null;
  /** Application-scoped moderation metadata (PUT …/moderation-metadata). */
  moderation_metadata: Json | null;
  flags: number;
  edited_at: Ms | null;
  created_at: Ms;
}

declare module '../schema.js' {
  interface DB {
    lobbies: LobbiesTable;
    lobby_members: LobbyMembersTable;
    lobby_messages: LobbyMessagesTable;
  }
}

/** Tables of migration 005 (guild extras and the HTTP rules of issue 4), as Kysely sees them. */
type Id = string;
type Json = string;
type Ms = number;
type Bool = number;

export interface GuildSettingsTable {
  guild_id: Id;
  /** Welcome screen, onboarding, widget, guild tag, search index state: see services/guild-settings.ts. */
  data: Json;
}

export interface GuildVanityTable {
  code: string;
  guild_id: Id;
  uses: number;
}

export interface GuildTemplatesTable {
  code: string;
  guild_id: Id;
  name: string;
  description: string | null;
  creator_id: Id;
  usage_count: number;
  /** The serialized source guild. */
  snapshot: Json;
  dirty: Bool;
  created_at: Ms;
  updated_at: Ms;
}

export interface PollVotesTable {
  message_id: Id;
  answer_id: number;
  user_id: Id;
  created_at: Ms;
}

export interface UserConnectionsTable {
  user_id: Id;
  type: string;
  account_id: string;
  name: string | null;
  verified: Bool;
  revoked: Bool;
  visibility: number;
  friend_sync: Bool;
  show_activity: Bool;
  two_way_link: Bool;
  created_at: Ms;
}

export interface InviteTargetsTable {
  code: string;
  user_id: Id;
}

export interface InviteMetaTable {
  code: string;
  role_ids: Json;
  /** Only listed users may accept (the invite was created with a target users file). */
  targeted: Bool;
  /** The last target-users job: {created_at, completed_at, total}. */
  job: Json | null;
}

export interface ChannelFollowersTable {
  webhook_id: Id;
  source_channel_id: Id;
  source_guild_id: Id;
  channel_id: Id;
  guild_id: Id;
}

declare module '../schema.js' {
  interface DB {
    guild_settings: GuildSettingsTable;
    guild_vanity: GuildVanityTable;
    guild_templates: GuildTemplatesTable;
    poll_votes: PollVotesTable;
    user_connections: UserConnectionsTable;
    invite_targets: InviteTargetsTable;
    invite_meta: InviteMetaTable;
    channel_followers: ChannelFollowersTable;
  }
}

/** Tables of migration 016_social_sdk: external auth, provisional accounts, bans, relationships, SDK extras. */
type Id = string;
type Ms = number;
type Bool = number;
type Json = string;

export interface ExternalAuthProvidersTable {
  id: Id;
  application_id: Id;
  type: string;
  issuer: string | null;
  audience: string | null;
  jwks_uri: string | null;
  /** JSON array of the signing algorithms the provider announced (and Accord supports). */
  algorithms: Json | null;
  strict: Bool;
  created_at: Ms;
  updated_at: Ms;
}

export interface ExternalIdentitiesTable {
  application_id: Id;
  provider_type: string;
  external_id: string;
  user_id: Id;
  username: string | null;
  created_at: Ms;
}

export interface ProvisionalAccountsTable {
  user_id: Id;
  application_id: Id;
  banned_user_id: Id | null;
  created_at: Ms;
}

export interface AccountBansTable {
  user_id: Id;
  reason: string | null;
  created_at: Ms;
}

export interface RelationshipsTable {
  user_id: Id;
  other_id: Id;
  type: number;
  nickname: string | null;
  since: Ms;
}

export interface GameRelationshipsTable {
  application_id: Id;
  user_id: Id;
  other_id: Id;
  type: number;
  since: Ms;
}

export interface SocialSdkApprovalsTable {
  application_id: Id;
  approved_at: Ms;
}

export interface MessageModerationMetadataTable {
  message_id: Id;
  application_id: Id;
  metadata: Json;
}

export interface ActivityInvitesTable {
  message_id: Id;
  application_id: Id;
  channel_id: Id;
  sender_id: Id;
  recipient_id: Id;
  type: number;
  party_id: string;
  session_id: string | null;
  join_secret: string | null;
  accepted_at: Ms | null;
  created_at: Ms;
}

declare module '../schema.js' {
  interface DB {
    external_auth_providers: ExternalAuthProvidersTable;
    external_identities: ExternalIdentitiesTable;
    provisional_accounts: ProvisionalAccountsTable;
    account_bans: AccountBansTable;
    relationships: RelationshipsTable;
    game_relationships: GameRelationshipsTable;
    social_sdk_approvals: SocialSdkApprovalsTable;
    message_moderation_metadata: MessageModerationMetadataTable;
    activity_invites: ActivityInvitesTable;
  }
}

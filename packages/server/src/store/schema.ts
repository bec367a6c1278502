/**
 * Table shapes as Kysely sees them. Snowflakes are BIGINT columns, passed in as decimal strings and read back
 * through `id()` (never a JS number). JSON columns are TEXT, parsed by repositories. Booleans are 0/1 integers.
 */
type Id = string;
type IdOut = string | number;
type Json = string;
type Ms = number;
type Bool = number;

export interface UsersTable {
  id: Id;
  username: string;
  discriminator: string;
  global_name: string | null;
  avatar: string | null;
  banner: string | null;
  accent_color: number | null;
  bio: string;
  email: string | null;
  verified: Bool;
  password_hash: string | null;
  date_of_birth: string | null;
  bot: Bool;
  system: Bool;
  flags: number;
  premium_type: number;
  primary_guild: Json | null;
  created_at: Ms;
}

export interface TokensTable {
  hash: string;
  user_id: Id;
  kind: 'user' | 'bot' | 'bearer';
  application_id: Id | null;
  scopes: string | null;
  expires_at: Ms | null;
  created_at: Ms;
}

export interface ApplicationsTable {
  id: Id;
  owner_id: Id;
  bot_user_id: Id | null;
  name: string;
  description: string;
  icon: string | null;
  flags: string;
  bot_public: Bool;
  bot_require_code_grant: Bool;
  verify_key: string;
  signing_key: string;
  client_secret_hash: string;
  redirect_uris: Json;
  interactions_endpoint_url: string | null;
  extra: Json;
  created_at: Ms;
}

export interface GuildsTable {
  id: Id;
  name: string;
  icon: string | null;
  splash: string | null;
  banner: string | null;
  description: string | null;
  owner_id: Id;
  afk_channel_id: Id | null;
  afk_timeout: number;
  verification_level: number;
  default_message_notifications: number;
  explicit_content_filter: number;
  mfa_level: number;
  nsfw_level: number;
  premium_tier: number;
  system_channel_id: Id | null;
  system_channel_flags: number;
  rules_channel_id: Id | null;
  public_updates_channel_id: Id | null;
  safety_alerts_channel_id: Id | null;
  preferred_locale: string;
  features: Json;
  premium_progress_bar_enabled: Bool;
  created_at: Ms;
}

export interface RolesTable {
  id: Id;
  guild_id: Id;
  name: string;
  permissions: string;
  position: number;
  color: number;
  secondary_color: number | null;
  tertiary_color: number | null;
  hoist: Bool;
  mentionable: Bool;
  managed: Bool;
  icon: string | null;
  unicode_emoji: string | null;
  flags: number;
  bot_id: Id | null;
}

export interface MembersTable {
  guild_id: Id;
  user_id: Id;
  nick: string | null;
  avatar: string | null;
  banner: string | null;
  bio: string | null;
  roles: Json;
  joined_at: Ms;
  premium_since: Ms | null;
  deaf: Bool;
  mute: Bool;
  pending: Bool;
  flags: number;
  communication_disabled_until: Ms | null;
}

export interface ChannelsTable {
  id: Id;
  type: number;
  guild_id: Id | null;
  position: number;
  name: string | null;
  topic: string | null;
  nsfw: Bool;
  parent_id: Id | null;
  owner_id: Id | null;
  last_message_id: Id | null;
  last_pin_timestamp: Ms | null;
  bitrate: number | null;
  user_limit: number | null;
  rate_limit_per_user: number;
  rtc_region: string | null;
  flags: number;
  permission_overwrites: Json;
  recipients: Json | null;
  dm_key: string | null;
  thread_metadata: Json | null;
  message_count: number;
  member_count: number;
  total_message_sent: number;
  extra: Json;
  created_at: Ms;
}

export interface ThreadMembersTable {
  channel_id: Id;
  user_id: Id;
  join_timestamp: Ms;
  flags: number;
}

export interface MessagesTable {
  id: Id;
  channel_id: Id;
  guild_id: Id | null;
  author_id: Id;
  webhook_id: Id | null;
  application_id: Id | null;
  type: number;
  content: string;
  tts: Bool;
  mention_everyone: Bool;
  mentions: Json;
  mention_roles: Json;
  attachments: Json;
  embeds: Json;
  components: Json;
  sticker_items: Json | null;
  flags: number;
  nonce: string | null;
  pinned_at: Ms | null;
  edited_at: Ms | null;
  message_reference: Json | null;
  extra: Json;
  created_at: Ms;
}

export interface ReactionsTable {
  message_id: Id;
  channel_id: Id;
  emoji_key: string;
  user_id: Id;
  burst: Bool;
  created_at: Ms;
}

export interface InvitesTable {
  code: string;
  guild_id: Id | null;
  channel_id: Id;
  inviter_id: Id | null;
  max_age: number;
  max_uses: number;
  uses: number;
  temporary: Bool;
  target_type: number | null;
  target_user_id: Id | null;
  flags: number;
  created_at: Ms;
}

export interface BansTable {
  guild_id: Id;
  user_id: Id;
  reason: string | null;
  created_at: Ms;
}

export interface WebhooksTable {
  id: Id;
  type: number;
  guild_id: Id | null;
  channel_id: Id;
  creator_id: Id | null;
  application_id: Id | null;
  name: string;
  avatar: string | null;
  token: string | null;
  created_at: Ms;
}

export interface FilesTable {
  id: Id;
  channel_id: Id;
  filename: string;
  content_type: string | null;
  size: number;
  data: Buffer;
  created_at: Ms;
}

export interface ApplicationCommandsTable {
  id: Id;
  application_id: Id;
  guild_id: Id | null;
  type: number;
  name: string;
  version: Id;
  /** The full command (description, options, localizations, contexts, …) as JSON. */
  data: Json;
  created_at: Ms;
}

export interface CommandPermissionsTable {
  application_id: Id;
  guild_id: Id;
  command_id: Id;
  permissions: Json;
}

export interface InteractionsTable {
  id: Id;
  application_id: Id;
  token_hash: string;
  type: number;
  user_id: Id;
  guild_id: Id | null;
  channel_id: Id | null;
  /** pending | acknowledged | deferred | failed */
  state: string;
  original_message_id: Id | null;
  followups: number;
  /** The delivered payload plus what responses need (nonce, session, user install). */
  data: Json;
  created_at: Ms;
}

export interface OAuthGrantsTable {
  application_id: Id;
  user_id: Id;
  scopes: string;
  integration_type: number | null;
  created_at: Ms;
}

export interface OAuthCodesTable {
  hash: string;
  /** authorization_code | refresh_token | device_code */
  kind: string;
  application_id: Id;
  user_id: Id | null;
  data: Json;
  expires_at: Ms;
}

export interface OAuthKeysTable {
  kid: string;
  alg: string;
  /** PKCS#8 PEM. */
  private_key: string;
  /** The public JWK, JSON. */
  public_jwk: Json;
  created_at: Ms;
}

export interface ApplicationGuildInstallsTable {
  application_id: Id;
  guild_id: Id;
  /** Who installed it. */
  user_id: Id;
  scopes: string;
  created_at: Ms;
}

export interface AutomodRulesTable {
  id: Id;
  guild_id: Id;
  creator_id: Id;
  data: Json;
  enabled: Bool;
}

/**
 * The database as Kysely sees it. Tables added by later migrations declare themselves in `store/tables/<area>.ts`
 * by augmenting this interface (`declare module '../schema.js' { interface DB { x: XTable } }`), so areas don't
 * edit one shared list.
 */
export interface DB {
  users: UsersTable;
  tokens: TokensTable;
  applications: ApplicationsTable;
  guilds: GuildsTable;
  roles: RolesTable;
  members: MembersTable;
  channels: ChannelsTable;
  thread_members: ThreadMembersTable;
  messages: MessagesTable;
  reactions: ReactionsTable;
  invites: InvitesTable;
  bans: BansTable;
  webhooks: WebhooksTable;
  files: FilesTable;
  application_commands: ApplicationCommandsTable;
  command_permissions: CommandPermissionsTable;
  interactions: InteractionsTable;
  oauth_grants: OAuthGrantsTable;
  oauth_codes: OAuthCodesTable;
  oauth_keys: OAuthKeysTable;
  application_guild_installs: ApplicationGuildInstallsTable;
  automod_rules: AutomodRulesTable;
}

/** Reads a snowflake column back as an exact decimal string. */
export const id = (v: IdOut): string => String(v);
export const idOrNull = (v: IdOut | null | undefined): string | null => (v == null ? null : String(v));

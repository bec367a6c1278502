import type { Overwrite } from '@accord/protocol';
import type {
  APIApplication,
  APIApplicationInstallParams,
  APIApplicationIntegrationTypesConfigMap,
  ApplicationWebhookEventStatus,
  ApplicationWebhookEventType,
  APIEmbed,
  APIMessageActivity,
  APIMessageCall,
  APIMessageInteraction,
  APIMessageInteractionMetadata,
  APIMessageReference,
  APIMessageSnapshot,
  APIPoll,
  APIGuildForumDefaultReactionEmoji,
  APIGuildForumTag,
  APIStickerItem,
  APIThreadMetadata,
  ForumLayoutType,
  SortOrderType,
  ThreadAutoArchiveDuration,
  VideoQualityMode,
} from 'discord-api-types/v10';

/** Parsed rows: ids as strings, JSON decoded, booleans as booleans, times as ms. */
export interface UserRecord {
  id: string;
  username: string;
  discriminator: string;
  global_name: string | null;
  avatar: string | null;
  banner: string | null;
  accent_color: number | null;
  bio: string;
  email: string | null;
  verified: boolean;
  bot: boolean;
  system: boolean;
  flags: number;
  premium_type: number;
  primary_guild: { identity_guild_id: string | null; identity_enabled: boolean | null; tag: string | null; badge: string | null } | null;
  created_at: number;
}

/** An application's rarely set fields (JSON), typed as the wire carries them. */
export interface ApplicationExtra {
  rpc_origins?: string[];
  tags?: string[];
  install_params?: APIApplicationInstallParams;
  integration_types_config?: APIApplicationIntegrationTypesConfigMap;
  custom_install_url?: string;
  role_connections_verification_url?: string | null;
  approximate_guild_count?: number;
  approximate_user_install_count?: number;
  event_webhooks_url?: string | null;
  event_webhooks_status?: ApplicationWebhookEventStatus;
  event_webhooks_types?: ApplicationWebhookEventType[];
  explicit_content_filter?: number;
  eligible_oauth2_scopes?: string[];
  // Shapes owned by services/activities/settings.ts (StoredEmbeddedConfig, UrlMapping[]), which store/ cannot import.
  embedded_activity_config?: any;
  proxy_config?: any;
  [key: string]: unknown;
}

export interface ApplicationRecord {
  id: string;
  owner_id: string;
  bot_user_id: string | null;
  name: string;
  description: string;
  icon: string | null;
  flags: bigint;
  bot_public: boolean;
  bot_require_code_grant: boolean;
  verify_key: string;
  redirect_uris: string[];
  interactions_endpoint_url: string | null;
  extra: ApplicationExtra;
  created_at: number;
}

export interface GuildRecord {
  id: string;
  name: string;
  icon: string | null;
  splash: string | null;
  banner: string | null;
  description: string | null;
  owner_id: string;
  afk_channel_id: string | null;
  afk_timeout: number;
  verification_level: number;
  default_message_notifications: number;
  explicit_content_filter: number;
  mfa_level: number;
  nsfw_level: number;
  premium_tier: number;
  system_channel_id: string | null;
  system_channel_flags: number;
  rules_channel_id: string | null;
  public_updates_channel_id: string | null;
  safety_alerts_channel_id: string | null;
  preferred_locale: string;
  features: string[];
  premium_progress_bar_enabled: boolean;
  created_at: number;
}

export interface RoleRecord {
  id: string;
  guild_id: string;
  name: string;
  permissions: bigint;
  position: number;
  color: number;
  secondary_color: number | null;
  tertiary_color: number | null;
  hoist: boolean;
  mentionable: boolean;
  managed: boolean;
  icon: string | null;
  unicode_emoji: string | null;
  flags: number;
  bot_id: string | null;
}

export interface MemberRecord {
  guild_id: string;
  user_id: string;
  nick: string | null;
  avatar: string | null;
  banner: string | null;
  bio: string | null;
  roles: string[];
  joined_at: number;
  premium_since: number | null;
  deaf: boolean;
  mute: boolean;
  pending: boolean;
  flags: number;
  communication_disabled_until: number | null;
}

export type ThreadMetadata = APIThreadMetadata;

/** A channel's rarely set fields (JSON), typed as the wire carries them. */
export interface ChannelExtra {
  default_auto_archive_duration?: ThreadAutoArchiveDuration;
  default_thread_rate_limit_per_user?: number;
  available_tags?: APIGuildForumTag[];
  default_reaction_emoji?: APIGuildForumDefaultReactionEmoji | null;
  default_sort_order?: SortOrderType | null;
  default_forum_layout?: ForumLayoutType;
  applied_tags?: string[];
  video_quality_mode?: VideoQualityMode;
  /** Group DMs an app created (managed). */
  application_id?: string;
  managed?: boolean;
  nicks?: Record<string, string>;
  [key: string]: unknown;
}

export interface ChannelRecord {
  id: string;
  type: number;
  guild_id: string | null;
  position: number;
  name: string | null;
  topic: string | null;
  nsfw: boolean;
  parent_id: string | null;
  owner_id: string | null;
  last_message_id: string | null;
  last_pin_timestamp: number | null;
  bitrate: number | null;
  user_limit: number | null;
  rate_limit_per_user: number;
  rtc_region: string | null;
  flags: number;
  permission_overwrites: Overwrite[];
  recipients: string[] | null;
  thread_metadata: ThreadMetadata | null;
  message_count: number;
  member_count: number;
  total_message_sent: number;
  extra: ChannelExtra;
  created_at: number;
}

export interface AttachmentRecord {
  id: string;
  filename: string;
  description?: string;
  title?: string;
  content_type?: string;
  size: number;
  url: string;
  proxy_url: string;
  width?: number | null;
  height?: number | null;
  flags?: number;
  duration_secs?: number;
  waveform?: string;
}

/** A message's rarely set fields (JSON): webhook author overrides, thread id, interaction metadata, poll, … */
export interface MessageExtra {
  username?: string;
  avatar?: string | null;
  thread_id?: string;
  message_snapshots?: APIMessageSnapshot[];
  interaction_metadata?: APIMessageInteractionMetadata;
  interaction?: APIMessageInteraction;
  poll?: APIPoll;
  call?: APIMessageCall;
  position?: number;
  /** Social SDK: activity invites and game DM metadata. */
  activity?: APIMessageActivity;
  application?: Partial<APIApplication>;
  metadata?: Record<string, string>;
  lobby_id?: string;
  [key: string]: unknown;
}

export interface MessageRecord {
  id: string;
  channel_id: string;
  guild_id: string | null;
  author_id: string;
  webhook_id: string | null;
  application_id: string | null;
  type: number;
  content: string;
  tts: boolean;
  mention_everyone: boolean;
  mentions: string[];
  mention_roles: string[];
  attachments: AttachmentRecord[];
  embeds: APIEmbed[];
  /** Validated request JSON (services/apps/components/), not narrowed to discord-api-types' component union. */
  components: any[];
  sticker_items: APIStickerItem[] | null;
  flags: number;
  nonce: string | null;
  pinned_at: number | null;
  edited_at: number | null;
  /** Every writer sets `channel_id` (services/messages/reference.ts, announcements, polls). */
  message_reference: APIMessageReference | null;
  extra: MessageExtra;
  created_at: number;
}

export interface InviteRecord {
  code: string;
  guild_id: string | null;
  channel_id: string;
  inviter_id: string | null;
  max_age: number;
  max_uses: number;
  uses: number;
  temporary: boolean;
  target_type: number | null;
  target_user_id: string | null;
  flags: number;
  created_at: number;
}

export interface WebhookRecord {
  id: string;
  type: number;
  guild_id: string | null;
  channel_id: string;
  creator_id: string | null;
  application_id: string | null;
  name: string;
  avatar: string | null;
  token: string | null;
  created_at: number;
}

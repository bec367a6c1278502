/**
 * Wire types. The v10 shapes come from discord-api-types (types only, nothing reaches the bundle); the few
 * shapes of the official client's own routes (command index, store listing) are declared here.
 */
import type {
  APIApplicationCommand,
  APIChannel,
  APIEmbed,
  APIGuild,
  APIGuildMember,
  APIMessage,
  APIRole,
  APIUser,
  APIAttachment,
  APIInvite,
  APIReaction,
  GatewayPresenceUpdate,
  GatewayVoiceState,
  APIThreadChannel,
  APIApplicationCommandOption,
} from 'discord-api-types/v10';

export type {
  APIApplicationCommand,
  APIChannel,
  APIEmbed,
  APIGuild,
  APIGuildMember,
  APIMessage,
  APIRole,
  APIUser,
  APIAttachment,
  APIInvite,
  APIReaction,
  GatewayPresenceUpdate,
  GatewayVoiceState,
  APIThreadChannel,
  APIApplicationCommandOption,
};

export type Snowflake = string;

/** A channel as the client keeps it: every channel kind shares these fields, the rest is optional. */
export interface Channel {
  id: Snowflake;
  type: number;
  guild_id?: Snowflake;
  name?: string | null;
  topic?: string | null;
  position?: number;
  parent_id?: Snowflake | null;
  nsfw?: boolean;
  last_message_id?: Snowflake | null;
  recipients?: APIUser[];
  owner_id?: Snowflake;
  icon?: string | null;
  rate_limit_per_user?: number;
  permission_overwrites?: { id: Snowflake; type: number; allow: string; deny: string }[];
  thread_metadata?: { archived: boolean; locked?: boolean; archive_timestamp?: string; auto_archive_duration?: number };
  message_count?: number;
  member_count?: number;
  applied_tags?: Snowflake[];
  available_tags?: { id: Snowflake; name: string; emoji_name?: string | null; emoji_id?: Snowflake | null }[];
  flags?: number;
  total_message_sent?: number;
}

/** The guild as GUILD_CREATE sends it to a person's session. */
export interface GuildCreate extends APIGuild {
  joined_at?: string;
  member_count?: number;
  members?: APIGuildMember[];
  channels?: Channel[];
  threads?: Channel[];
  presences?: Presence[];
  voice_states?: GatewayVoiceState[];
  unavailable?: boolean;
}

export interface Presence {
  user: { id: Snowflake } & Partial<APIUser>;
  guild_id?: Snowflake;
  status: 'online' | 'idle' | 'dnd' | 'offline' | 'invisible';
  activities?: { name: string; type: number; state?: string | null; details?: string | null; application_id?: string }[];
  client_status?: Record<string, string>;
}

export type Message = APIMessage & { guild_id?: Snowflake; member?: APIGuildMember };

/** GET /guilds/{id}/application-command-index and /users/@me/application-command-index. */
export interface CommandIndex {
  applications: { id: Snowflake; name: string; icon: string | null; description: string; bot_id?: Snowflake }[];
  application_commands: APIApplicationCommand[];
  version: string;
}

/** An entry of GET /store/applications/{id}/skus. */
export interface StoreSku {
  id: Snowflake;
  type: number;
  application_id: Snowflake;
  name: string;
  slug: string;
  flags: number;
  price: { amount: number; currency: string };
  subscription_group_id?: Snowflake;
  discount_percent?: number;
}

export interface Entitlement {
  id: Snowflake;
  sku_id: Snowflake;
  application_id: Snowflake;
  user_id?: Snowflake;
  type: number;
  deleted: boolean;
  consumed?: boolean;
  starts_at: string | null;
  ends_at: string | null;
  subscription_id?: Snowflake;
}

export interface Subscription {
  id: Snowflake;
  user_id: Snowflake;
  sku_ids: Snowflake[];
  entitlement_ids: Snowflake[];
  renewal_sku_ids: Snowflake[] | null;
  current_period_start: string;
  current_period_end: string;
  status: number;
  canceled_at: string | null;
}

export interface PurchaseResult {
  entitlements: Entitlement[];
  subscription?: Subscription;
  payment: { id: Snowflake; amount: number; currency: string; list_price: number; discount_percent: number };
}

/** Channel types the client shows (discord-api-types ChannelType, as plain numbers to keep enums out of the bundle). */
export const ChannelKind = {
  GUILD_TEXT: 0,
  DM: 1,
  GUILD_VOICE: 2,
  GROUP_DM: 3,
  GUILD_CATEGORY: 4,
  GUILD_ANNOUNCEMENT: 5,
  ANNOUNCEMENT_THREAD: 10,
  PUBLIC_THREAD: 11,
  PRIVATE_THREAD: 12,
  GUILD_STAGE_VOICE: 13,
  GUILD_DIRECTORY: 14,
  GUILD_FORUM: 15,
  GUILD_MEDIA: 16,
} as const;

export const isThread = (type: number) => type === 10 || type === 11 || type === 12;
export const isVoice = (type: number) => type === 2 || type === 13;
export const isPrivate = (type: number) => type === 1 || type === 3;
export const MessageFlag = { EPHEMERAL: 1 << 6, LOADING: 1 << 7, IS_COMPONENTS_V2: 1 << 15, SUPPRESS_EMBEDS: 1 << 2 } as const;

import type {
  APIApplication,
  APIApplicationCommand,
  APIApplicationCommandChannelOption,
  APIApplicationCommandNumberOptionBase,
  APIApplicationCommandOptionBase,
  APIApplicationCommandOptionChoice,
  APIApplicationCommandStringOptionBase,
  APIChannel,
  APIDMChannel,
  APIEntitlement,
  APIExtendedInvite,
  APIGroupDMChannel,
  APIGuild,
  APIGuildChannel,
  APIGuildMediaChannel,
  APIGuildMember,
  APIGuildScheduledEventBase,
  APIGuildTextChannel,
  APIInvite,
  APIInviteGuild,
  APIMessage,
  APIOverwrite,
  APIReaction,
  APIRole,
  APISKU,
  APISortableChannel,
  APIThreadChannel,
  APIUser,
  ApplicationCommandOptionType,
  ChannelType,
  ForumLayoutType,
  GatewayGuildCreateDispatchData,
  GatewayReadyDispatchData,
  GuildScheduledEventEntityType,
} from 'discord-api-types/v10';
import type { PurchaseRecord } from '../store/repos/commerce-records.js';

/**
 * The fields Accord's wire objects carry that discord-api-types does not declare (newer or client-only fields the
 * platform sends), in one place. Every serializer in wire/ returns a discord-api-types type or one of these.
 */

/** Fields the platform's user objects carry besides the documented ones. */
export interface AccordUser extends APIUser {
  display_name_styles?: null;
  clan?: null;
}

/** The user's own object: `bio` besides the private fields. */
export interface AccordSelfUser extends AccordUser {
  bio: string;
}

/** A member; `user` is omitted in MESSAGE_CREATE's author member, so it is optional here. */
export type AccordGuildMember = Omit<APIGuildMember, 'user'> & {
  user?: AccordUser;
  /** Resolved permissions, in interaction payloads. */
  permissions?: string;
};

export interface AccordRole extends APIRole {
  description: string | null;
  permissions_new: string;
}

/** `hub_type` is in discord-api-types but not in the public OpenAPI spec (the conformance check flags it): left out. */
export interface AccordGuild extends Omit<APIGuild, 'hub_type'> {
  roles: AccordRole[];
  home_header: null;
  nsfw: boolean;
}

/**
 * Channels. DMs carry no `name`; a group DM's `owner_id` is null once it has none; media channels carry the forum
 * layout too; guild channel types APIChannel leaves out (directories, …) are plain sortable guild channels. Permission
 * overwrites also carry `allow_new` / `deny_new`.
 */
export type AccordDMChannel = Omit<APIDMChannel, 'name'>;
export interface AccordGroupDMChannel extends Omit<APIGroupDMChannel, 'owner_id'> {
  owner_id: string | null;
}
export interface AccordGuildMediaChannel extends APIGuildMediaChannel {
  default_forum_layout: ForumLayoutType;
}
export type AccordGuildTextChannel = APIGuildTextChannel<ChannelType.GuildText | ChannelType.GuildAnnouncement>;
export type AccordGuildOtherChannel = Omit<APIGuildChannel, 'type'> & APISortableChannel & { type: number };
export type AccordChannel =
  | Exclude<APIChannel, APIDMChannel | APIGroupDMChannel | APIGuildMediaChannel>
  | APIThreadChannel
  | AccordDMChannel
  | AccordGroupDMChannel
  | AccordGuildMediaChannel
  | AccordGuildOtherChannel;
export interface AccordOverwrite extends APIOverwrite {
  allow_new: string;
  deny_new: string;
}

/** Invites carry `guild_id`, and their partial guild `nsfw`. */
export interface AccordInviteGuild extends APIInviteGuild {
  nsfw: boolean;
}
export interface AccordInvite extends Omit<APIInvite, 'guild'> {
  guild_id: string | null;
  guild?: AccordInviteGuild;
}
export type AccordExtendedInvite = AccordInvite & Pick<APIExtendedInvite, 'uses' | 'max_uses' | 'max_age' | 'temporary' | 'created_at'>;

/** Reactions also carry the older name of `me_burst`. */
export interface AccordReaction extends APIReaction {
  burst_me: boolean;
}

/** A mentioned user; MESSAGE_CREATE / MESSAGE_UPDATE add its member in guilds. */
export type AccordMentionedUser = AccordUser & { member?: AccordGuildMember };

/**
 * The message object, with the gateway's `guild_id` and author `member`, and the Social SDK's game DM `metadata`.
 * A type alias, not an interface, so that it still fits the `Record<string, unknown>` parameters of the bus and the
 * HTTP layer.
 */
export type AccordMessage = Omit<APIMessage, 'reactions' | 'author' | 'mentions' | 'referenced_message' | 'thread'> & {
  author: AccordUser;
  mentions: AccordMentionedUser[];
  reactions?: AccordReaction[];
  referenced_message?: AccordMessage | null;
  thread?: AccordChannel;
  guild_id?: string;
  member?: AccordGuildMember;
  metadata?: Record<string, string>;
};

/** Client-visible application fields the platform sends besides the documented ones. */
export interface AccordPublicApplication extends Omit<APIApplication, 'team' | 'owner' | 'bot' | 'tags'> {
  type: null;
  hook: boolean;
  tags: string[];
  bot?: AccordUser;
  embedded_activity_config?: Record<string, unknown>;
}

export interface AccordApplication extends AccordPublicApplication {
  team: null;
  owner?: AccordUser;
  is_monetized: boolean;
  is_verified: boolean;
  is_discoverable: boolean;
  storefront_available: boolean;
  rpc_origins: string[];
  explicit_content_filter: number;
  eligible_oauth2_scopes: string[];
  proxy_config?: Record<string, unknown>;
}

/** Fields of real SKU responses besides the documented six. */
export interface AccordSku extends APISKU {
  dependent_sku_id: null;
  manifest_labels: null;
  access_type: number;
  features: string[];
  release_date: null;
  premium: boolean;
  show_age_gate: boolean;
}

/** A store listing entry: the SKU with its price (and group, discount). */
export interface AccordStoreSku extends AccordSku {
  subscription_group_id?: string;
  price: { amount: number; currency: string };
  discount_percent?: number;
}

export interface AccordEntitlement extends APIEntitlement {
  promotion_id: string | null;
  gift_code_flags: number;
  subscription_id?: string;
}

/** Accord's payment record (simplified; the platform has no public equivalent): the record without its buyer. */
export type AccordPurchase = Omit<PurchaseRecord, 'user_id' | 'created_at'> & { created_at: string };

/** A recurring event's exception (not in discord-api-types). */
export interface AccordScheduledEventException {
  event_id: string;
  event_exception_id: string;
  scheduled_start_time: string | null;
  scheduled_end_time: string | null;
  is_canceled: boolean;
}

/** A scheduled event, as the base all entity types share, with its recurrence exceptions. */
export interface AccordScheduledEvent extends APIGuildScheduledEventBase<GuildScheduledEventEntityType> {
  guild_scheduled_event_exceptions: AccordScheduledEventException[];
}

/** Where an Activity instance runs: a guild channel (`gc`) or a private channel (`pc`). */
export interface AccordActivityLocation {
  id: string;
  kind: 'gc' | 'pc';
  channel_id: string;
  guild_id?: string;
}

/** EMBEDDED_ACTIVITY_UPDATE_V2 (client-only, absent from discord-api-types). */
export interface AccordActivityInstanceUpdate {
  application_id: string;
  instance_id: string;
  composite_instance_id: string;
  launch_id: string;
  location: AccordActivityLocation;
  guild_id?: string;
  participants: { user_id: string; session_id: string; nonce?: string }[];
}

/** Command options: one interface for every option type (the records hold them generically). */
export interface AccordCommandOption
  extends
    APIApplicationCommandOptionBase<ApplicationCommandOptionType>,
    Pick<APIApplicationCommandStringOptionBase, 'min_length' | 'max_length'>,
    Pick<APIApplicationCommandNumberOptionBase, 'min_value' | 'max_value'>,
    Pick<APIApplicationCommandChannelOption, 'channel_types'> {
  autocomplete?: boolean;
  choices?: APIApplicationCommandOptionChoice[];
  options?: AccordCommandOption[];
  /** Attachment options' accepted file types (not in discord-api-types). */
  file_types?: string[];
}

export interface AccordCommand extends Omit<APIApplicationCommand, 'options'> {
  options?: AccordCommandOption[];
}

/**
 * GUILD_CREATE, built in two parts (gateway/payloads.ts): a per-session head and a body shared by sessions with the
 * same view. Channels may be obfuscated copies; `activity_instances` are EMBEDDED_ACTIVITY_UPDATE_V2 shapes.
 */
export type AccordGuildCreateHead = Pick<GatewayGuildCreateDispatchData, 'large' | 'member_count'> & {
  joined_at: string | null;
  members?: AccordGuildMember[];
  presences?: unknown[];
};
export interface AccordGuildCreateBody extends AccordGuild {
  unavailable: false;
  voice_states: unknown[];
  members?: AccordGuildMember[];
  presences?: unknown[];
  channels: unknown[];
  threads: unknown[];
  stage_instances: unknown[];
  guild_scheduled_events: unknown[];
  soundboard_sounds: unknown[];
  embedded_activities: unknown[];
  activity_instances: AccordActivityInstanceUpdate[];
  application_command_counts: Record<string, number>;
  lazy: boolean;
}

/** READY: `application` only for bots, and the fields the official client reads. */
export interface AccordReady extends Omit<GatewayReadyDispatchData, 'application' | 'user'> {
  user: AccordSelfUser;
  application?: GatewayReadyDispatchData['application'];
  user_settings: Record<string, never>;
  session_type: string;
  relationships: unknown[];
  private_channels: AccordChannel[];
  /** People only: their read states (services/messages/read-states.ts). */
  read_state?: { version: number; partial: boolean; entries: unknown[] };
  presences: unknown[];
  guild_join_requests: unknown[];
  geo_ordered_rtc_regions: string[];
  auth: Record<string, never>;
  _trace: string[];
}

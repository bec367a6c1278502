import { id, idOrNull } from '../schema.js';
import { bool, num, numOrNull, parseJson } from '../json.js';
import type {
  ApplicationRecord, ChannelRecord, GuildRecord, InviteRecord, MemberRecord, MessageRecord, RoleRecord, UserRecord, WebhookRecord,
} from '../records.js';

/** Row -> record mappers, one per table. Each names its fields so a new column never leaks by accident. */
export const toUser = (r: any): UserRecord => ({
  id: id(r.id), username: r.username, discriminator: r.discriminator, global_name: r.global_name ?? null,
  avatar: r.avatar ?? null, banner: r.banner ?? null, accent_color: numOrNull(r.accent_color), bio: r.bio ?? '',
  email: r.email ?? null, verified: bool(r.verified), bot: bool(r.bot), system: bool(r.system), flags: num(r.flags),
  premium_type: num(r.premium_type), primary_guild: parseJson(r.primary_guild, null), created_at: num(r.created_at),
});

export const toApplication = (r: any): ApplicationRecord => ({
  id: id(r.id), owner_id: id(r.owner_id), bot_user_id: idOrNull(r.bot_user_id), name: r.name, description: r.description ?? '',
  icon: r.icon ?? null, flags: BigInt(r.flags ?? '0'), bot_public: bool(r.bot_public), bot_require_code_grant: bool(r.bot_require_code_grant),
  verify_key: r.verify_key, redirect_uris: parseJson(r.redirect_uris, []), interactions_endpoint_url: r.interactions_endpoint_url ?? null,
  extra: parseJson(r.extra, {}), created_at: num(r.created_at),
});

export const toGuild = (r: any): GuildRecord => ({
  id: id(r.id), name: r.name, icon: r.icon ?? null, splash: r.splash ?? null, banner: r.banner ?? null,
  description: r.description ?? null, owner_id: id(r.owner_id), afk_channel_id: idOrNull(r.afk_channel_id),
  afk_timeout: num(r.afk_timeout), verification_level: num(r.verification_level),
  default_message_notifications: num(r.default_message_notifications), explicit_content_filter: num(r.explicit_content_filter),
  mfa_level: num(r.mfa_level), nsfw_level: num(r.nsfw_level), premium_tier: num(r.premium_tier),
  system_channel_id: idOrNull(r.system_channel_id), system_channel_flags: num(r.system_channel_flags),
  rules_channel_id: idOrNull(r.rules_channel_id), public_updates_channel_id: idOrNull(r.public_updates_channel_id),
  safety_alerts_channel_id: idOrNull(r.safety_alerts_channel_id), preferred_locale: r.preferred_locale,
  features: parseJson(r.features, []), premium_progress_bar_enabled: bool(r.premium_progress_bar_enabled), created_at: num(r.created_at),
});

export const toRole = (r: any): RoleRecord => ({
  id: id(r.id), guild_id: id(r.guild_id), name: r.name, permissions: BigInt(r.permissions), position: num(r.position),
  color: num(r.color), secondary_color: numOrNull(r.secondary_color), tertiary_color: numOrNull(r.tertiary_color),
  hoist: bool(r.hoist), mentionable: bool(r.mentionable), managed: bool(r.managed), icon: r.icon ?? null,
  unicode_emoji: r.unicode_emoji ?? null, flags: num(r.flags), bot_id: idOrNull(r.bot_id),
});

export const toMember = (r: any): MemberRecord => ({
  guild_id: id(r.guild_id), user_id: id(r.user_id), nick: r.nick ?? null, avatar: r.avatar ?? null, banner: r.banner ?? null,
  bio: r.bio ?? null, roles: parseJson<string[]>(r.roles, []), joined_at: num(r.joined_at), premium_since: numOrNull(r.premium_since),
  deaf: bool(r.deaf), mute: bool(r.mute), pending: bool(r.pending), flags: num(r.flags),
  communication_disabled_until: numOrNull(r.communication_disabled_until),
});

export const toChannel = (r: any): ChannelRecord => ({
  id: id(r.id), type: num(r.type), guild_id: idOrNull(r.guild_id), position: num(r.position), name: r.name ?? null,
  topic: r.topic ?? null, nsfw: bool(r.nsfw), parent_id: idOrNull(r.parent_id), owner_id: idOrNull(r.owner_id),
  last_message_id: idOrNull(r.last_message_id), last_pin_timestamp: numOrNull(r.last_pin_timestamp),
  bitrate: numOrNull(r.bitrate), user_limit: numOrNull(r.user_limit), rate_limit_per_user: num(r.rate_limit_per_user),
  rtc_region: r.rtc_region ?? null, flags: num(r.flags), permission_overwrites: parseJson(r.permission_overwrites, []),
  recipients: parseJson(r.recipients, null), thread_metadata: parseJson(r.thread_metadata, null),
  message_count: num(r.message_count), member_count: num(r.member_count), total_message_sent: num(r.total_message_sent),
  extra: parseJson(r.extra, {}), created_at: num(r.created_at),
});

export const toMessage = (r: any): MessageRecord => ({
  id: id(r.id), channel_id: id(r.channel_id), guild_id: idOrNull(r.guild_id), author_id: id(r.author_id),
  webhook_id: idOrNull(r.webhook_id), application_id: idOrNull(r.application_id), type: num(r.type), content: r.content ?? '',
  tts: bool(r.tts), mention_everyone: bool(r.mention_everyone), mentions: parseJson(r.mentions, []),
  mention_roles: parseJson(r.mention_roles, []), attachments: parseJson(r.attachments, []), embeds: parseJson(r.embeds, []),
  components: parseJson(r.components, []), sticker_items: parseJson(r.sticker_items, null), flags: num(r.flags),
  nonce: r.nonce ?? null, pinned_at: numOrNull(r.pinned_at), edited_at: numOrNull(r.edited_at),
  message_reference: parseJson(r.message_reference, null), extra: parseJson(r.extra, {}), created_at: num(r.created_at),
});

export const toInvite = (r: any): InviteRecord => ({
  code: r.code, guild_id: idOrNull(r.guild_id), channel_id: id(r.channel_id), inviter_id: idOrNull(r.inviter_id),
  max_age: num(r.max_age), max_uses: num(r.max_uses), uses: num(r.uses), temporary: bool(r.temporary),
  target_type: numOrNull(r.target_type), target_user_id: idOrNull(r.target_user_id), flags: num(r.flags), created_at: num(r.created_at),
});

export const toWebhook = (r: any): WebhookRecord => ({
  id: id(r.id), type: num(r.type), guild_id: idOrNull(r.guild_id), channel_id: id(r.channel_id), creator_id: idOrNull(r.creator_id),
  application_id: idOrNull(r.application_id), name: r.name, avatar: r.avatar ?? null, token: r.token ?? null, created_at: num(r.created_at),
});

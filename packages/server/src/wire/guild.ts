import type { GuildRecord, RoleRecord } from '../store/records.js';
import type { APIEmoji, APIGuild, APISticker, GuildFeature, Locale } from 'discord-api-types/v10';
import { role } from './role.js';
import { dropUndefined } from './drop-undefined.js';
import type { AccordGuild } from './extensions.js';

/** Stored feature names, as discord-api-types' string enum. */
export const guildFeatures = (g: GuildRecord) => g.features as GuildFeature[];

/** The guild object (GET /guilds/{id}, GUILD_UPDATE, and the base of GUILD_CREATE). */
export function guild(
  g: GuildRecord,
  roles: RoleRecord[],
  counts?: { members: number; presences: number },
  expressions?: { emojis: APIEmoji[]; stickers: APISticker[] },
): AccordGuild {
  return dropUndefined<AccordGuild>({
    id: g.id,
    name: g.name,
    icon: g.icon,
    icon_hash: g.icon,
    splash: g.splash,
    discovery_splash: null,
    banner: g.banner,
    description: g.description,
    home_header: null,
    owner_id: g.owner_id,
    application_id: null,
    region: 'deprecated',
    afk_channel_id: g.afk_channel_id,
    afk_timeout: g.afk_timeout as APIGuild['afk_timeout'],
    widget_enabled: false,
    widget_channel_id: null,
    verification_level: g.verification_level,
    default_message_notifications: g.default_message_notifications,
    explicit_content_filter: g.explicit_content_filter,
    roles: roles.sort((a, b) => a.position - b.position).map(role),
    emojis: expressions?.emojis ?? [],
    stickers: expressions?.stickers ?? [],
    features: guildFeatures(g),
    mfa_level: g.mfa_level,
    system_channel_id: g.system_channel_id,
    system_channel_flags: g.system_channel_flags,
    rules_channel_id: g.rules_channel_id,
    public_updates_channel_id: g.public_updates_channel_id,
    safety_alerts_channel_id: g.safety_alerts_channel_id,
    max_presences: null,
    max_members: 500000,
    max_video_channel_users: 25,
    max_stage_video_channel_users: 50,
    vanity_url_code: null,
    premium_tier: g.premium_tier,
    premium_subscription_count: 0,
    preferred_locale: g.preferred_locale as Locale,
    nsfw_level: g.nsfw_level,
    nsfw: false,
    premium_progress_bar_enabled: g.premium_progress_bar_enabled,
    incidents_data: null,
    approximate_member_count: counts?.members,
    approximate_presence_count: counts?.presences,
  });
}

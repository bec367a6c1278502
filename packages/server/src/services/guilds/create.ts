import type { Ctx } from '../context.js';
import { DEFAULT_EVERYONE } from '@accord/protocol';
import { Errors } from '../../core/errors.js';
import type { UserRecord } from '../../store/records.js';
import { setGuildImage } from './guild-images.js';

export interface GuildCreateInput {
  name: string;
  /** A data URI: the image is stored and the guild gets its hash. */
  icon?: string | null;
  verification_level?: number;
  default_message_notifications?: number;
  explicit_content_filter?: number;
  preferred_locale?: string;
  afk_timeout?: number;
  system_channel_flags?: number;
  /** Template channels; omitted means the default text and voice categories. */
  channels?: { id?: string | number; name: string; type?: number; parent_id?: string | number | null; topic?: string | null }[];
  roles?: { id?: string | number; name?: string; permissions?: string; color?: number; hoist?: boolean; mentionable?: boolean }[];
}

/**
 * Creates a guild as the official client does: @everyone, the owner as member, and a Text Channels / Voice Channels
 * layout with #general and General. Users only: since 2025-07-15 apps cannot create guilds.
 */
export async function createGuild(ctx: Ctx, owner: UserRecord, input: GuildCreateInput): Promise<string> {
  if (owner.bot) throw Errors.botsCannotUse();
  if ((await ctx.repos.members.countGuildsOf(owner.id)) >= 100) throw Errors.maxGuilds();
  const now = ctx.clock.now();
  const guildId = ctx.ids.next();
  const icon = input.icon ? await setGuildImage(ctx, guildId, 'icon', input.icon) : null;

  // Placeholder ids of the template map to real snowflakes.
  const idMap = new Map<string, string>();
  const everyone = input.roles?.[0];
  const roles = [
    {
      id: guildId,
      guild_id: guildId,
      name: '@everyone',
      permissions: everyone?.permissions ?? DEFAULT_EVERYONE.toString(),
      position: 0,
      color: 0,
      secondary_color: null,
      tertiary_color: null,
      hoist: 0,
      mentionable: 0,
      managed: 0,
      icon: null,
      unicode_emoji: null,
      flags: 0,
      bot_id: null,
    },
  ];
  if (everyone?.id !== undefined) idMap.set(String(everyone.id), guildId);
  (input.roles ?? []).slice(1).forEach((r, i) => {
    const id = ctx.ids.next();
    if (r.id !== undefined) idMap.set(String(r.id), id);
    roles.push({
      ...roles[0],
      id,
      name: r.name ?? 'new role',
      permissions: r.permissions ?? '0',
      position: i + 1,
      color: r.color ?? 0,
      hoist: r.hoist ? 1 : 0,
      mentionable: r.mentionable ? 1 : 0,
    });
  });

  const template = input.channels?.length
    ? input.channels
    : [
        { id: 1, name: 'Text Channels', type: 4 },
        { id: 2, name: 'Voice Channels', type: 4 },
        { id: 3, name: 'general', type: 0, parent_id: 1 },
        { id: 4, name: 'General', type: 2, parent_id: 2 },
      ];
  for (const c of template) idMap.set(String(c.id ?? ctx.ids.next()), ctx.ids.next());
  const channels = template.map((c, i) => ({
    id: idMap.get(String(c.id))!,
    type: c.type ?? 0,
    guild_id: guildId,
    position: i,
    name: c.name,
    topic: c.topic ?? null,
    nsfw: 0,
    parent_id: c.parent_id != null ? (idMap.get(String(c.parent_id)) ?? null) : null,
    owner_id: null,
    last_message_id: null,
    last_pin_timestamp: null,
    bitrate: c.type === 2 ? 64000 : null,
    user_limit: c.type === 2 ? 0 : null,
    rate_limit_per_user: 0,
    rtc_region: null,
    flags: 0,
    permission_overwrites: '[]',
    recipients: null,
    dm_key: null,
    thread_metadata: null,
    message_count: 0,
    member_count: 0,
    total_message_sent: 0,
    extra: '{}',
    created_at: now,
  }));
  const systemChannel = channels.find((c) => c.type === 0)?.id ?? null;

  await ctx.repos.transaction(async (tx) => {
    await tx.guilds.insert({
      id: guildId,
      name: input.name,
      icon,
      splash: null,
      banner: null,
      description: null,
      owner_id: owner.id,
      afk_channel_id: null,
      afk_timeout: input.afk_timeout ?? 300,
      verification_level: input.verification_level ?? 0,
      default_message_notifications: input.default_message_notifications ?? 0,
      explicit_content_filter: input.explicit_content_filter ?? 0,
      mfa_level: 0,
      nsfw_level: 0,
      premium_tier: 0,
      system_channel_id: systemChannel,
      system_channel_flags: input.system_channel_flags ?? 0,
      rules_channel_id: null,
      public_updates_channel_id: null,
      safety_alerts_channel_id: null,
      preferred_locale: input.preferred_locale ?? 'en-US',
      features: '[]',
      premium_progress_bar_enabled: 0,
      created_at: now,
    });
    await tx.roles.insertMany(roles);
    if (channels.length) await tx.channels.insertGuildChannels(channels);
    await tx.members.insert({
      guild_id: guildId,
      user_id: owner.id,
      nick: null,
      avatar: null,
      banner: null,
      bio: null,
      roles: '[]',
      joined_at: now,
      premium_since: null,
      deaf: 0,
      mute: 0,
      pending: 0,
      flags: 0,
      communication_disabled_until: null,
    });
  });
  ctx.access.invalidate(guildId);
  ctx.bus.publish({ t: 'GUILD_CREATE', d: { id: guildId }, guild_id: guildId, user_ids: [owner.id] });
  return guildId;
}

import type { APIGuildCategoryChannel, APIGuildForumChannel, APIThreadChannel, APIThreadMember, APIVoiceChannelBase, ChannelType } from 'discord-api-types/v10';
import type { ChannelRecord, UserRecord } from '../store/records.js';
import { publicUser } from './user.js';
import type {
  AccordChannel,
  AccordDMChannel,
  AccordGroupDMChannel,
  AccordGuildMediaChannel,
  AccordGuildOtherChannel,
  AccordGuildTextChannel,
  AccordOverwrite,
} from './extensions.js';

const iso = (ms: number | null) => (ms == null ? null : new Date(ms).toISOString());
export const THREAD_TYPES = new Set([10, 11, 12]);

type ThreadType = ChannelType.AnnouncementThread | ChannelType.PublicThread | ChannelType.PrivateThread;
type VoiceType = ChannelType.GuildVoice | ChannelType.GuildStageVoice;

/**
 * A channel as the API returns it. DMs need their recipients' user records. Fields are set per type, and optional
 * fields are omitted rather than null (discord.js reads null and absent differently).
 */
export function channel(c: ChannelRecord, recipients: UserRecord[] = []): AccordChannel {
  switch (c.type) {
    case 1:
      return dmChannel(c, recipients);
    case 3:
      return groupDmChannel(c, recipients);
    case 10:
    case 11:
    case 12:
      return thread(c);
    case 0:
    case 5:
      return textChannel(c, c.type as ChannelType.GuildText | ChannelType.GuildAnnouncement);
    case 15:
      return forumChannel(c);
    case 16:
      return mediaChannel(c);
    case 2:
    case 13:
      return voiceChannel(c, c.type as VoiceType);
    case 4:
      return categoryChannel(c);
    default:
      return otherGuildChannel(c);
  }
}

function dmChannel(c: ChannelRecord, recipients: UserRecord[]): AccordDMChannel {
  return {
    id: c.id,
    type: 1,
    last_message_id: c.last_message_id,
    flags: c.flags,
    recipients: recipients.map(publicUser),
    last_pin_timestamp: iso(c.last_pin_timestamp),
  };
}

function groupDmChannel(c: ChannelRecord, recipients: UserRecord[]): AccordGroupDMChannel {
  const appId = c.extra.application_id;
  return {
    id: c.id,
    type: 3,
    last_message_id: c.last_message_id,
    flags: c.flags,
    recipients: recipients.map(publicUser),
    name: c.name,
    icon: null,
    owner_id: c.owner_id,
    // Key presence matters here (gateway/obfuscation.ts and audit logs test `in`): spread only when set.
    ...(appId ? ({ managed: true, application_id: appId } satisfies Partial<AccordGroupDMChannel>) : {}),
    last_pin_timestamp: iso(c.last_pin_timestamp),
  };
}

/** The fields every guild channel starts with, in the platform's order. */
function guildHead(c: ChannelRecord): Pick<AccordGuildOtherChannel, 'id' | 'guild_id' | 'name' | 'flags'> {
  return { id: c.id, guild_id: c.guild_id ?? undefined, name: c.name ?? '', flags: c.flags };
}

/** A thread (the caller knows the record is one). */
export function thread(c: ChannelRecord): APIThreadChannel {
  return threadChannel(c, c.type as ThreadType);
}

function threadChannel(c: ChannelRecord, type: ThreadType): APIThreadChannel {
  const { id, guild_id, name, flags } = guildHead(c);
  return {
    id,
    type,
    guild_id,
    name,
    flags,
    parent_id: c.parent_id ?? undefined,
    owner_id: c.owner_id ?? undefined,
    last_message_id: c.last_message_id,
    rate_limit_per_user: c.rate_limit_per_user,
    message_count: c.message_count,
    member_count: c.member_count,
    total_message_sent: c.total_message_sent,
    thread_metadata: c.thread_metadata ?? undefined,
    applied_tags: c.extra.applied_tags ?? [],
    last_pin_timestamp: iso(c.last_pin_timestamp),
  };
}

type TextFields<K extends keyof AccordGuildTextChannel> = Pick<AccordGuildTextChannel, K>;

/** What every non-thread guild channel carries after the head. */
function placed(c: ChannelRecord): TextFields<'parent_id' | 'position' | 'permission_overwrites' | 'nsfw'> & { permission_overwrites: AccordOverwrite[] } {
  return {
    parent_id: c.parent_id,
    position: c.position,
    permission_overwrites: c.permission_overwrites.map((o): AccordOverwrite => ({ ...o, allow_new: o.allow, deny_new: o.deny })),
    nsfw: c.nsfw,
  };
}

/** Messages can be posted in it: text, announcement, forum, media, voice and stage channels. */
function messageable(c: ChannelRecord): TextFields<'last_message_id' | 'rate_limit_per_user' | 'last_pin_timestamp'> {
  return { last_message_id: c.last_message_id, rate_limit_per_user: c.rate_limit_per_user, last_pin_timestamp: iso(c.last_pin_timestamp) };
}

/** Text-like channels (text, announcement, forum, media): topic and thread defaults. */
function threadDefaults(c: ChannelRecord): TextFields<'topic' | 'default_auto_archive_duration' | 'default_thread_rate_limit_per_user'> {
  return {
    topic: c.topic,
    default_auto_archive_duration: c.extra.default_auto_archive_duration ?? 4320,
    default_thread_rate_limit_per_user: c.extra.default_thread_rate_limit_per_user ?? 0,
  };
}

function textChannel(c: ChannelRecord, type: ChannelType.GuildText | ChannelType.GuildAnnouncement): AccordGuildTextChannel {
  const { id, guild_id, name, flags } = guildHead(c);
  return { id, type, guild_id, name, flags, ...placed(c), ...messageable(c), ...threadDefaults(c) };
}

function forumFields(
  c: ChannelRecord,
): Pick<APIGuildForumChannel, 'available_tags' | 'default_reaction_emoji' | 'default_sort_order' | 'default_forum_layout'> {
  return {
    available_tags: c.extra.available_tags ?? [],
    default_reaction_emoji: c.extra.default_reaction_emoji ?? null,
    default_sort_order: c.extra.default_sort_order ?? null,
    default_forum_layout: c.extra.default_forum_layout ?? 0,
  };
}

function forumChannel(c: ChannelRecord): APIGuildForumChannel {
  const { id, guild_id, name, flags } = guildHead(c);
  return { id, type: 15, guild_id, name, flags, ...placed(c), ...messageable(c), ...threadDefaults(c), ...forumFields(c) };
}

function mediaChannel(c: ChannelRecord): AccordGuildMediaChannel {
  const { id, guild_id, name, flags } = guildHead(c);
  return { id, type: 16, guild_id, name, flags, ...placed(c), ...messageable(c), ...threadDefaults(c), ...forumFields(c) };
}

function voiceChannel(c: ChannelRecord, type: VoiceType): APIVoiceChannelBase<VoiceType> {
  const { id, guild_id, name, flags } = guildHead(c);
  return {
    id,
    type,
    guild_id,
    name,
    flags,
    ...placed(c),
    ...messageable(c),
    bitrate: c.bitrate ?? 64000,
    user_limit: c.user_limit ?? 0,
    rtc_region: c.rtc_region,
    video_quality_mode: c.extra.video_quality_mode ?? 1,
  };
}

function categoryChannel(c: ChannelRecord): APIGuildCategoryChannel {
  const { id, guild_id, name, flags } = guildHead(c);
  const { position, permission_overwrites, nsfw } = placed(c);
  return { id, type: 4, guild_id, name, flags, parent_id: null, position, permission_overwrites, nsfw };
}

/** Guild channel types discord-api-types' union leaves out (directories, …): the fields all guild channels have. */
function otherGuildChannel(c: ChannelRecord): AccordGuildOtherChannel {
  const { id, guild_id, name, flags } = guildHead(c);
  return { id, type: c.type, guild_id, name, flags, ...placed(c) };
}

/** A thread member object. */
export function threadMember(tm: { channel_id: string; user_id: string; join_timestamp: number; flags: number }): APIThreadMember {
  return { id: tm.channel_id, user_id: tm.user_id, join_timestamp: new Date(tm.join_timestamp).toISOString(), flags: tm.flags };
}

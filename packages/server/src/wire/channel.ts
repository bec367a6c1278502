import type { ChannelRecord, UserRecord } from '../store/records.js';
import { publicUser } from './user.js';

const iso = (ms: number | null) => (ms == null ? null : new Date(ms).toISOString());
const TEXTLIKE = new Set([0, 5, 15, 16]);
const VOICELIKE = new Set([2, 13]);
export const THREAD_TYPES = new Set([10, 11, 12]);

/**
 * A channel as the API returns it. DMs need their recipients' user records. Fields are set per type, and optional
 * fields are omitted rather than null (discord.js reads null and absent differently).
 */
export function channel(c: ChannelRecord, recipients: UserRecord[] = []) {
  if (c.type === 1 || c.type === 3) {
    return {
      id: c.id,
      type: c.type,
      last_message_id: c.last_message_id,
      flags: c.flags,
      recipients: recipients.map(publicUser),
      ...(c.type === 3 ? { name: c.name, icon: null, owner_id: c.owner_id, ...(c.extra.application_id ? { managed: true, application_id: c.extra.application_id } : {}) } : {}),
      last_pin_timestamp: iso(c.last_pin_timestamp),
    };
  }
  const base: Record<string, unknown> = {
    id: c.id,
    type: c.type,
    guild_id: c.guild_id,
    name: c.name,
    flags: c.flags,
    parent_id: c.parent_id,
  };
  if (THREAD_TYPES.has(c.type)) {
    return {
      ...base,
      owner_id: c.owner_id,
      last_message_id: c.last_message_id,
      rate_limit_per_user: c.rate_limit_per_user,
      message_count: c.message_count,
      member_count: c.member_count,
      total_message_sent: c.total_message_sent,
      thread_metadata: c.thread_metadata,
      applied_tags: c.extra.applied_tags ?? [],
      last_pin_timestamp: iso(c.last_pin_timestamp),
    };
  }
  base.position = c.position;
  base.permission_overwrites = c.permission_overwrites.map((o) => ({ ...o, allow_new: o.allow, deny_new: o.deny }));
  base.nsfw = c.nsfw;
  if (TEXTLIKE.has(c.type) || VOICELIKE.has(c.type)) {
    base.last_message_id = c.last_message_id;
    base.rate_limit_per_user = c.rate_limit_per_user;
    base.last_pin_timestamp = iso(c.last_pin_timestamp);
  }
  if (TEXTLIKE.has(c.type)) {
    base.topic = c.topic;
    base.default_auto_archive_duration = c.extra.default_auto_archive_duration ?? 4320;
    base.default_thread_rate_limit_per_user = c.extra.default_thread_rate_limit_per_user ?? 0;
  }
  if (c.type === 15 || c.type === 16) {
    base.available_tags = c.extra.available_tags ?? [];
    base.default_reaction_emoji = c.extra.default_reaction_emoji ?? null;
    base.default_sort_order = c.extra.default_sort_order ?? null;
    base.default_forum_layout = c.extra.default_forum_layout ?? 0;
  }
  if (VOICELIKE.has(c.type)) {
    base.bitrate = c.bitrate ?? 64000;
    base.user_limit = c.user_limit ?? 0;
    base.rtc_region = c.rtc_region;
    base.video_quality_mode = c.extra.video_quality_mode ?? 1;
  }
  return base;
}

/** A thread member object. */
export function threadMember(tm: { channel_id: string; user_id: string; join_timestamp: number; flags: number }) {
  return { id: tm.channel_id, user_id: tm.user_id, join_timestamp: new Date(tm.join_timestamp).toISOString(), flags: tm.flags };
}

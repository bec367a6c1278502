/**
 * Tables of migration 004: expressions (emoji, stickers, soundboard sounds and their bytes), guild scheduled events,
 * stage instances and the audit log. Snowflakes are BIGINT columns written as decimal strings; booleans are 0/1.
 */
type Id = string;
type Json = string;
type Ms = number;
type Bool = number;

export interface EmojisTable {
  id: Id;
  /** Guild emoji: the guild; application emoji: null. */
  guild_id: Id | null;
  /** Application emoji: the owning app; guild emoji: null. */
  application_id: Id | null;
  name: string;
  /** Who uploaded it. */
  user_id: Id | null;
  /** Role ids allowed to use it (JSON array). */
  roles: Json;
  animated: Bool;
  available: Bool;
  created_at: Ms;
}

export interface StickersTable {
  id: Id;
  guild_id: Id;
  name: string;
  description: string | null;
  tags: string;
  /** 1 PNG, 2 APNG, 3 LOTTIE, 4 GIF. */
  format_type: number;
  available: Bool;
  user_id: Id | null;
  created_at: Ms;
}

export interface SoundboardSoundsTable {
  id: Id;
  guild_id: Id;
  name: string;
  volume: number;
  emoji_id: Id | null;
  emoji_name: string | null;
  user_id: Id | null;
  available: Bool;
  created_at: Ms;
}

/** The bytes behind an emoji, a sticker, a sound or an event cover, keyed by the owner's id. */
export interface ExpressionAssetsTable {
  id: Id;
  /** emoji | sticker | sound | event-cover */
  kind: string;
  content_type: string;
  /** For event covers: the hash in the CDN path. */
  hash: string | null;
  data: Buffer;
  created_at: Ms;
}

export interface ScheduledEventsTable {
  id: Id;
  guild_id: Id;
  channel_id: Id | null;
  creator_id: Id | null;
  name: string;
  description: string | null;
  scheduled_start_time: Ms;
  scheduled_end_time: Ms | null;
  privacy_level: number;
  status: number;
  entity_type: number;
  entity_id: Id | null;
  /** JSON object or null. */
  entity_metadata: Json | null;
  image: string | null;
  /** JSON recurrence rule or null. */
  recurrence_rule: Json | null;
  created_at: Ms;
}

export interface ScheduledEventUsersTable {
  event_id: Id;
  user_id: Id;
  /** 0 when subscribed to the whole event, else the exception id. */
  exception_id: Id;
  created_at: Ms;
}

export interface ScheduledEventExceptionsTable {
  event_id: Id;
  /** A snowflake of the original start time of the occurrence. */
  exception_id: Id;
  scheduled_start_time: Ms | null;
  scheduled_end_time: Ms | null;
  is_canceled: Bool;
}

export interface StageInstancesTable {
  id: Id;
  guild_id: Id;
  channel_id: Id;
  topic: string;
  privacy_level: number;
  discoverable_disabled: Bool;
  guild_scheduled_event_id: Id | null;
  created_at: Ms;
}

export interface AuditLogEntriesTable {
  id: Id;
  guild_id: Id;
  user_id: Id | null;
  target_id: string | null;
  action_type: number;
  /** JSON array of {key, old_value?, new_value?} or null. */
  changes: Json | null;
  /** JSON object of string values or null. */
  options: Json | null;
  reason: string | null;
  created_at: Ms;
}

declare module '../schema.js' {
  interface DB {
    emojis: EmojisTable;
    stickers: StickersTable;
    soundboard_sounds: SoundboardSoundsTable;
    expression_assets: ExpressionAssetsTable;
    scheduled_events: ScheduledEventsTable;
    scheduled_event_users: ScheduledEventUsersTable;
    scheduled_event_exceptions: ScheduledEventExceptionsTable;
    stage_instances: StageInstancesTable;
    audit_log_entries: AuditLogEntriesTable;
  }
}

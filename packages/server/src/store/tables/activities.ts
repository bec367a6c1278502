/** Tables of migration 016_activity_instances: Activity instances and their participants. */
type Id = string;
type Ms = number;

export interface ActivityInstancesTable {
  /** `i-<launch_id>-gc-<guild_id>-<channel_id>` or `i-<launch_id>-pc-<channel_id>`. */
  instance_id: string;
  application_id: Id;
  launch_id: Id;
  channel_id: Id;
  guild_id: Id | null;
  /** `<application_id>:<channel_id>` while running, NULL once ended (unique: one running instance per app and channel). */
  live_key: string | null;
  created_at: Ms;
  ended_at: Ms | null;
}

export interface ActivityParticipantsTable {
  instance_id: string;
  user_id: Id;
  /** The participant's Gateway session. */
  session_id: string;
  nonce: string | null;
  joined_at: Ms;
}

declare module '../schema.js' {
  interface DB {
    activity_instances: ActivityInstancesTable;
    activity_participants: ActivityParticipantsTable;
  }
}

/** Tables of migration 020_read_states: how far each person has read in each channel. */
type Id = string;
type Ms = number;

export interface ReadStatesTable {
  user_id: Id;
  channel_id: Id;
  last_message_id: Id | null;
  /** A count set by a manual ack ("mark unread"), kept until the next ack; null when computed from messages. */
  manual_mention_count: number | null;
  last_pin_timestamp: Ms | null;
  flags: number;
  version: number;
}

declare module '../schema.js' {
  interface DB {
    read_states: ReadStatesTable;
  }
}

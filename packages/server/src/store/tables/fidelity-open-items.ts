/** Tables of migration 018_fidelity_open_items (the outbox's per-event `url` is declared with the outbox table). */
export interface ApplicationCommandCreatesTable {
  id: string;
  application_id: string;
  /** `global`, or the guild id of a guild command. */
  scope: string;
  created_at: number;
}

declare module '../schema.js' {
  interface DB {
    application_command_creates: ApplicationCommandCreatesTable;
  }
}

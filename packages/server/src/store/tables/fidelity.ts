/** Tables of migration 015_fidelity: member-verification join requests. */
export interface GuildJoinRequestsTable {
  id: string;
  guild_id: string;
  user_id: string;
  /** SUBMITTED, APPROVED or REJECTED. */
  status: string;
  /** The applicant's form responses, as sent (JSON list). */
  form_responses: string;
  rejection_reason: string | null;
  actioned_by: string | null;
  created_at: number;
  reviewed_at: number | null;
}

declare module '../schema.js' {
  interface DB {
    guild_join_requests: GuildJoinRequestsTable;
  }
}

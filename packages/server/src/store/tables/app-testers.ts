/** Table of migration 023_app_testers. */
export interface AppTestersTable {
  application_id: string;
  user_id: string;
  /** 1 invited, 2 accepted (the team membership states). */
  state: number;
  created_at: number;
}

declare module '../schema.js' {
  interface DB {
    app_testers: AppTestersTable;
  }
}

/** Tables of migration 009_role_connections: linked-roles metadata records and user role connections. */
type Id = string;
type Ms = number;
type Json = string;

export interface RoleConnectionMetadataTable {
  application_id: Id;
  /** The app's records, as sent (at most 5). */
  records: Json;
  updated_at: Ms;
}

export interface UserRoleConnectionsTable {
  user_id: Id;
  application_id: Id;
  platform_name: string | null;
  platform_username: string | null;
  /** Values by record key, as strings. */
  metadata: Json;
  updated_at: Ms;
}

declare module '../schema.js' {
  interface DB {
    role_connection_metadata: RoleConnectionMetadataTable;
    user_role_connections: UserRoleConnectionsTable;
  }
}

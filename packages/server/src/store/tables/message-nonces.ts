/** Tables of migration 019_message_nonces: the enforced nonces of message creates (exactly once per author). */
type Id = string;
type Ms = number;

export interface MessageNoncesTable {
  author_id: Id;
  nonce: string;
  message_id: Id;
  created_at: Ms;
}

declare module '../schema.js' {
  interface DB {
    message_nonces: MessageNoncesTable;
  }
}

import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../schema.js';

/** Runs `fn` in a transaction of its own, or in the open one when `db` already is a transaction (nesting is flat). */
export function atomically<T>(db: Kysely<DB>, fn: (trx: Kysely<DB> | Transaction<DB>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db);
  return db.transaction().execute(fn);
}

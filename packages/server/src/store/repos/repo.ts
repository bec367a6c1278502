import type { Kysely } from 'kysely';
import type { Store } from '../db.js';
import type { DB } from '../schema.js';

/**
 * What every repository is built on: the query handle (the pool, or the open transaction of a unit of work) and the
 * store (its dialect, and on SQLite the connection and the group commit for engine-specific paths).
 */
export abstract class Repo {
  protected readonly db: Kysely<DB>;
  protected readonly store: Store;

  constructor(db: Kysely<DB>, store: Store) {
    this.db = db;
    this.store = store;
  }
}

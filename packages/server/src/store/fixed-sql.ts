import { CompiledQuery, type Kysely } from 'kysely';
import type { Dialect, Store } from './db.js';

/**
 * A statement written once, with `?` placeholders, for the few queries too hot to build with Kysely on every call
 * (building and compiling cost more than SQLite running them). PostgreSQL gets the placeholders numbered.
 */
export interface FixedSql {
  sqlite: string;
  postgres: string;
}

/** The text must hold no `?` but its placeholders (no string literals, no JSON operators). */
export function fixedSql(text: string): FixedSql {
  let n = 0;
  return { sqlite: text, postgres: text.replace(/\?/g, () => `$${++n}`) };
}

/** The statement as Kysely runs it (on any connection or transaction), with its parameters. */
export function compiledFor(dialect: Dialect, q: FixedSql, params: readonly unknown[]): CompiledQuery {
  return CompiledQuery.raw(dialect === 'sqlite' ? q.sqlite : q.postgres, [...params]);
}

/**
 * Rows of a read. On SQLite it runs on the connection at once when no transaction holds it (what Kysely's
 * connection lock would wait for); inside someone's open transaction it waits for the connection like any query.
 */
export async function readRows(store: Store, q: FixedSql, params: readonly unknown[]): Promise<Record<string, any>[]> {
  const exec = store.sqlite;
  if (exec && !exec.raw.inTransaction) return exec.all(q.sqlite, params);
  return (await (store.db as Kysely<any>).executeQuery<Record<string, any>>(compiledFor(store.dialect, q, params))).rows;
}

import Database from 'better-sqlite3';
import { SqliteDialect } from 'kysely';

/** Reads 64-bit integers exactly: values past 2^53 come back as decimal strings, the rest as numbers. */
function normalize(v: unknown): unknown {
  if (typeof v === 'bigint') return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v.toString();
  return v;
}

function normalizeRow(row: Record<string, unknown>): Record<string, unknown> {
  for (const k in row) {
    const v = row[k];
    if (typeof v === 'bigint') row[k] = normalize(v);
  }
  return row;
}

const bindable = (params: readonly unknown[]) => params.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p));

/** Statements run on the connection itself, synchronously, with the same conversions Kysely's queries get. */
export interface SqliteExec {
  raw: Database.Database;
  all(sqlText: string, params: readonly unknown[]): Record<string, unknown>[];
  run(sqlText: string, params: readonly unknown[]): void;
}

/**
 * better-sqlite3 behind the interface Kysely's SqliteDialect expects, with safe integers on every statement and a
 * prepared-statement cache (preparing is the most expensive part of a small query). `exec` shares that cache.
 */
export function createSqliteDialect(file: string): { dialect: SqliteDialect; raw: Database.Database; exec: SqliteExec } {
  const raw = new Database(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = NORMAL');
  // Checkpoints (the only fsyncs in WAL + NORMAL) every ~40 MB of WAL instead of ~4 MB: commits cost a third.
  raw.pragma('wal_autocheckpoint = 10000');
  raw.pragma('busy_timeout = 5000');
  raw.pragma('foreign_keys = OFF');
  const cache = new Map<string, Database.Statement>();
  const prepare = (sqlText: string) => {
    let stmt = cache.get(sqlText);
    if (!stmt) {
      stmt = raw.prepare(sqlText);
      if (stmt.reader) stmt.safeIntegers(true);
      if (cache.size > 2000) cache.clear();
      cache.set(sqlText, stmt);
    }
    return stmt;
  };
  const exec: SqliteExec = {
    raw,
    all: (sqlText, params) => (prepare(sqlText).all(...bindable(params)) as Record<string, unknown>[]).map(normalizeRow),
    run: (sqlText, params) => void prepare(sqlText).run(...bindable(params)),
  };
  const wrapped = {
    close: () => raw.close(),
    prepare(sqlText: string) {
      const stmt = prepare(sqlText);
      return {
        reader: stmt.reader,
        all: (params: unknown[]) => (stmt.all(...bindable(params)) as Record<string, unknown>[]).map(normalizeRow),
        run: (params: unknown[]) => stmt.run(...bindable(params)),
        *iterate(params: unknown[]) {
          for (const row of stmt.iterate(...bindable(params))) yield normalizeRow(row as Record<string, unknown>);
        },
      };
    },
  };
  return { dialect: new SqliteDialect({ database: wrapped as any }), raw, exec };
}

import { Kysely, sql } from 'kysely';
import fs from 'node:fs';
import path from 'node:path';
import type { DB } from './schema.js';
import { createSqliteDialect, type SqliteExec } from './sqlite.js';
import { GroupCommit } from './group-commit.js';
import { MIGRATIONS } from './migrations/index.js';
import { DependencyHealth } from './health.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Store {
  db: Kysely<DB>;
  dialect: Dialect;
  close(): Promise<void>;
  /** SQLite only: the connection itself, for fixed statements (store/fixed-sql.ts). */
  sqlite?: SqliteExec;
  /** SQLite only: atomic writes of one event-loop turn share a transaction (store/group-commit.ts). */
  groupCommit?: GroupCommit;
  /** What this process knows of its dependencies being away (store/health.ts); shared with Redis in distributed mode. */
  health: DependencyHealth;
}

export interface StoreOptions {
  dataDir: string;
  databaseUrl?: string;
  /** PostgreSQL schema to use (created if missing); lets tests run isolated on one database. */
  databaseSchema?: string;
  /** Where outages are noted; a new one when omitted. */
  health?: DependencyHealth;
}

export async function openStore(opts: StoreOptions): Promise<Store> {
  let db: Kysely<DB>;
  let dialect: Dialect;
  let sqlite: SqliteExec | undefined;
  const health = opts.health ?? new DependencyHealth();
  if (opts.databaseUrl) {
    dialect = 'postgres';
    // Loaded only when used: SQLite deployments never pay for the PostgreSQL driver at start.
    const { createPostgresDialect, ensureSchema } = await import('./postgres.js');
    if (opts.databaseSchema) await ensureSchema(opts.databaseUrl, opts.databaseSchema);
    db = new Kysely<DB>({ dialect: createPostgresDialect(opts.databaseUrl, opts.databaseSchema, health).dialect });
  } else {
    dialect = 'sqlite';
    fs.mkdirSync(opts.dataDir, { recursive: true });
    const created = createSqliteDialect(path.join(opts.dataDir, 'accord.db'));
    sqlite = created.exec;
    db = new Kysely<DB>({ dialect: created.dialect });
  }
  await migrate(db, dialect);
  const groupCommit = sqlite && new GroupCommit(sqlite, db);
  return {
    db,
    dialect,
    sqlite,
    groupCommit,
    health,
    close: () => {
      health.close();
      return db.destroy();
    },
  };
}

async function migrate(db: Kysely<DB>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') return migrateNow(db, dialect);
  // Nodes of one deployment may start together: one migrates while the others wait on a lock of the schema.
  await db.connection().execute(async (conn) => {
    await sql`SELECT pg_advisory_lock(hashtext(current_schema()))`.execute(conn);
    try {
      await migrateNow(conn, dialect);
    } finally {
      await sql`SELECT pg_advisory_unlock(hashtext(current_schema()))`.execute(conn);
    }
  });
}

async function migrateNow(db: Kysely<DB>, dialect: Dialect): Promise<void> {
  await sql`CREATE TABLE IF NOT EXISTS accord_migrations (name TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)`.execute(db);
  const done = new Set((await sql<{ name: string }>`SELECT name FROM accord_migrations`.execute(db)).rows.map((r) => r.name));
  for (const [name, mod] of MIGRATIONS) {
    if (done.has(name)) continue;
    await db.transaction().execute(async (trx) => {
      await mod.up(trx as Kysely<any>, dialect);
      await sql`INSERT INTO accord_migrations (name, applied_at) VALUES (${name}, ${Date.now()})`.execute(trx);
    });
  }
}

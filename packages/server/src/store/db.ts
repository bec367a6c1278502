import { Kysely, sql } from 'kysely';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { DB } from './schema.js';
import { createSqliteDialect } from './sqlite.js';
import { createPostgresDialect } from './postgres.js';
import { fileURLToPath, pathToFileURL } from 'node:url';

export type Dialect = 'sqlite' | 'postgres';

export interface Store {
  db: Kysely<DB>;
  dialect: Dialect;
  close(): Promise<void>;
}

type Migration = { up: (db: Kysely<any>, d: Dialect) => Promise<void> };

/** Every `NNN_name` module in migrations/, in name order: adding a migration is adding a file. */
async function loadMigrations(): Promise<[string, Migration][]> {
  const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
  const names = fs.readdirSync(dir).filter((f) => /^\d{3}_\w+\.(ts|js)$/.test(f) && !f.endsWith('.d.ts')).sort();
  return Promise.all(names.map(async (f) => [f.replace(/\.(ts|js)$/, ''), (await import(pathToFileURL(path.join(dir, f)).href)) as Migration] as [string, Migration]));
}

export interface StoreOptions {
  dataDir: string;
  databaseUrl?: string;
  /** PostgreSQL schema to use (created if missing); lets tests run isolated on one database. */
  databaseSchema?: string;
}

export async function openStore(opts: StoreOptions): Promise<Store> {
  let db: Kysely<DB>;
  let dialect: Dialect;
  if (opts.databaseUrl) {
    dialect = 'postgres';
    if (opts.databaseSchema) {
      const client = new pg.Client({ connectionString: opts.databaseUrl });
      await client.connect();
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${opts.databaseSchema.replace(/"/g, '')}"`);
      await client.end();
    }
    db = new Kysely<DB>({ dialect: createPostgresDialect(opts.databaseUrl, opts.databaseSchema).dialect });
  } else {
    dialect = 'sqlite';
    fs.mkdirSync(opts.dataDir, { recursive: true });
    db = new Kysely<DB>({ dialect: createSqliteDialect(path.join(opts.dataDir, 'accord.db')).dialect });
  }
  await migrate(db, dialect);
  return { db, dialect, close: () => db.destroy() };
}

async function migrate(db: Kysely<DB>, dialect: Dialect): Promise<void> {
  await sql`CREATE TABLE IF NOT EXISTS accord_migrations (name TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)`.execute(db);
  const done = new Set((await sql<{ name: string }>`SELECT name FROM accord_migrations`.execute(db)).rows.map((r) => r.name));
  for (const [name, mod] of await loadMigrations()) {
    if (done.has(name)) continue;
    await db.transaction().execute(async (trx) => {
      await mod.up(trx as Kysely<any>, dialect);
      await sql`INSERT INTO accord_migrations (name, applied_at) VALUES (${name}, ${Date.now()})`.execute(trx);
    });
  }
}

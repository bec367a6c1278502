import fs from 'node:fs';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { Dialect } from './db.js';
import type { DB } from './schema.js';

/**
 * A world as one JSON file: every table's rows (the migrations' own bookkeeping left out), tables and rows in a stable
 * order so two snapshots of the same world are the same text, bytes as `{ "$base64": … }`. Exported at exit with
 * `--export-on-exit` and read at start with `--import`, on the same engine.
 */
export interface Snapshot {
  format: 'accord-world';
  version: 1;
  /** The server clock when exported, and the newest id it had issued: a later run continues after both. */
  clock: number;
  last_id: string | null;
  tables: Record<string, Record<string, unknown>[]>;
}

/** The migrations' own bookkeeping: a snapshot is a world, and it imports into a store of this version. */
const SKIP = /^(kysely_|accord_migrations$)/;
const db = (k: Kysely<DB>) => k as unknown as Kysely<Record<string, Record<string, unknown>>>;

const encode = (v: unknown) => (Buffer.isBuffer(v) || v instanceof Uint8Array ? { $base64: Buffer.from(v).toString('base64') } : v);
const decode = (v: unknown) => (v && typeof v === 'object' && '$base64' in v ? Buffer.from(String((v as { $base64: string }).$base64), 'base64') : v);

/**
 * Every table of the store (SQLite's internal ones aside). On PostgreSQL only those of its schema: other deployments
 * (and parallel test runs) keep theirs in other schemas of the same database, and a catalog walk over all of them
 * races their migrations.
 */
export async function storeTables(k: Kysely<any>, dialect: Dialect): Promise<string[]> {
  const query =
    dialect === 'postgres'
      ? sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`
      : sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`;
  return (await query.execute(k)).rows.map((t) => t.name).sort();
}

/** The tables a snapshot holds: the world, not the migrations' bookkeeping. */
const tableNames = async (k: Kysely<DB>, dialect: Dialect) => (await storeTables(k, dialect)).filter((n) => !SKIP.test(n));

export async function exportSnapshot(k: Kysely<DB>, dialect: Dialect, clock: number, lastId: string | null): Promise<Snapshot> {
  const tables: Snapshot['tables'] = {};
  for (const name of await tableNames(k, dialect)) {
    const rows = (await db(k).selectFrom(name).selectAll().execute()).map((r) =>
      Object.fromEntries(
        Object.entries(r)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([c, v]) => [c, encode(v)]),
      ),
    );
    tables[name] = rows
      .map((r) => [JSON.stringify(r), r] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, r]) => r);
  }
  return { format: 'accord-world', version: 1, clock, last_id: lastId, tables };
}

/** Replaces every table's rows with the snapshot's, in one transaction: a failed import leaves the store as it was. */
export async function importSnapshot(k: Kysely<DB>, dialect: Dialect, snapshot: Snapshot): Promise<void> {
  if (snapshot?.format !== 'accord-world' || snapshot.version !== 1 || typeof snapshot.tables !== 'object')
    throw new Error('not an Accord world snapshot (format accord-world, version 1)');
  const known = new Set(await tableNames(k, dialect));
  const unknown = Object.keys(snapshot.tables).filter((t) => !known.has(t));
  if (unknown.length) throw new Error(`the snapshot has tables this version does not: ${unknown.join(', ')}`);
  await k.transaction().execute(async (tx) => {
    for (const name of known) {
      await db(tx).deleteFrom(name).execute();
      const rows = (snapshot.tables[name] ?? []).map((r) => Object.fromEntries(Object.entries(r).map(([c, v]) => [c, decode(v)])));
      const width = Math.max(1, Object.keys(rows[0] ?? {}).length);
      const chunk = Math.max(1, Math.floor(5000 / width)); // well under both engines' bound-parameter limits
      for (let i = 0; i < rows.length; i += chunk)
        await db(tx)
          .insertInto(name)
          .values(rows.slice(i, i + chunk))
          .execute();
    }
  });
}

export function readSnapshotFile(file: string): Snapshot {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`--import: cannot read ${file}: ${(err as Error).message}`, { cause: err });
  }
  try {
    return JSON.parse(text) as Snapshot;
  } catch (err) {
    throw new Error(`--import: ${file} is not JSON`, { cause: err });
  }
}

/** Written beside, then renamed: a crash mid-write never leaves half a snapshot under the name. */
export function writeSnapshotFile(file: string, snapshot: Snapshot): void {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(snapshot, null, 1)}\n`);
  fs.renameSync(tmp, file);
}

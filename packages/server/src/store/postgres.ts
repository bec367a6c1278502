import pg from 'pg';
import { PostgresDialect } from 'kysely';

// int8 columns: exact strings past 2^53, numbers below (the same contract as the SQLite driver).
pg.types.setTypeParser(20, (v: string) => {
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : v;
});

export function createPostgresDialect(url: string, schema?: string): { dialect: PostgresDialect; pool: pg.Pool } {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    options: schema ? `-c search_path=${schema}` : undefined,
  });
  return { dialect: new PostgresDialect({ pool }), pool };
}

export async function ensureSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Nodes starting together: the lock keeps two CREATE SCHEMA IF NOT EXISTS from racing on the catalog.
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [`accord-schema:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema.replace(/"/g, '')}"`);
  } finally {
    await client.end();
  }
}

/** Drops a schema and everything in it (isolated test and harness runs clean up with this). */
export async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema.replace(/"/g, '')}" CASCADE`);
  } finally {
    await client.end();
  }
}

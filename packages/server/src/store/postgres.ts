import pg from 'pg';
import { CompiledQuery, PostgresDialect, type DatabaseConnection, type Driver, type QueryResult, type TransactionSettings } from 'kysely';
import type { DependencyHealth } from './health.js';

// int8 columns: exact strings past 2^53, numbers below (the same contract as the SQLite driver).
pg.types.setTypeParser(20, (v: string) => {
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : v;
});

/**
 * A new connection not up within this time fails its request with a 503 and makes the health check the database
 * (a black-holed host); generous, since a loaded machine is slow to connect too.
 */
const CONNECT_TIMEOUT_MS = 5000;

/** Statement texts each connection runs as a named prepared statement, by name: parsed and planned once per connection. */
const prepared = new Map<string, string>();

/**
 * Runs `text` as a prepared statement from now on, on every connection (a hot statement whose text never changes:
 * PostgreSQL then skips parsing and planning it on each call). Kysely has no way to name a query, so the pool's
 * client does it by the text.
 */
export function prepareEverywhere(text: string): void {
  if (!prepared.has(text)) prepared.set(text, `accord_${prepared.size + 1}`);
}

/**
 * The pool and Kysely dialect. With `health`: no client error ever goes unheard (a cut connection emits 'error' on
 * its client, idle or checked out, which would otherwise end the process); queries fail at once with a 503 while the
 * database is known to be away, and errors that say it is away mark it so (store/health.ts).
 */
export function createPostgresDialect(url: string, schema?: string, health?: DependencyHealth): { dialect: PostgresDialect; pool: pg.Pool } {
  const options = {
    connectionString: url,
    options: schema ? `-c search_path=${schema}` : undefined,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  };
  // The connect timeout is the client's own, not the pool's: a request waiting for a busy pool's free connection
  // under load is not a database that is away.
  class Client extends pg.Client {
    constructor(o?: pg.ClientConfig) {
      super({ ...o, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    }

    /** A text registered with `prepareEverywhere` runs as its named prepared statement. */
    override query(text: any, ...rest: any[]): any {
      const name = typeof text === 'string' ? prepared.get(text) : undefined;
      const query = super.query.bind(this) as (...args: any[]) => any;
      return name ? query({ name, text, values: rest[0] }, ...rest.slice(1)) : query(text, ...rest);
    }
  }
  const pool = new pg.Pool({ ...options, max: 10, Client });
  pool.on('connect', (client) => client.on('error', () => {})); // checked out: the query or the next acquire fails instead
  // An idle connection dropped: the pool forgets it, and the next request connects anew (and finds out).
  pool.on('error', () => {});
  if (health) {
    health.add('store', async () => {
      const probe = new pg.Client({ ...options, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
      probe.on('error', () => {});
      try {
        await probe.connect();
        await probe.query('SELECT 1');
      } finally {
        await probe.end().catch(() => {});
      }
    });
  }
  const dialect = new PostgresDialect({ pool });
  if (!health) return { dialect, pool };
  const createDriver = dialect.createDriver.bind(dialect);
  dialect.createDriver = () => new GuardedDriver(createDriver(), health);
  return { dialect, pool };
}

/** A connection whose failures are classified: "the database is away" becomes a 503 and marks it down. */
class GuardedConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    private readonly health: DependencyHealth,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return await this.inner.executeQuery<R>(query);
    } catch (err) {
      throw this.health.classify('store', err);
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

/** Kysely's driver with the gate: while the database is known to be away, acquiring a connection fails at once. */
class GuardedDriver implements Driver {
  private readonly wrapped = new WeakMap<DatabaseConnection, GuardedConnection>();

  constructor(
    private readonly inner: Driver,
    private readonly health: DependencyHealth,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    this.health.check('store');
    let conn: DatabaseConnection;
    try {
      conn = await this.inner.acquireConnection();
    } catch (err) {
      throw this.health.classify('store', err);
    }
    let g = this.wrapped.get(conn);
    if (!g) this.wrapped.set(conn, (g = new GuardedConnection(conn, this.health)));
    return g;
  }

  beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(conn, settings);
  }

  commitTransaction(conn: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(conn);
  }

  rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(conn);
  }

  async savepoint(conn: DatabaseConnection, name: string, compile: any): Promise<void> {
    return this.inner.savepoint!(conn, name, compile);
  }

  async rollbackToSavepoint(conn: DatabaseConnection, name: string, compile: any): Promise<void> {
    return this.inner.rollbackToSavepoint!(conn, name, compile);
  }

  async releaseSavepoint(conn: DatabaseConnection, name: string, compile: any): Promise<void> {
    return this.inner.releaseSavepoint!(conn, name, compile);
  }

  releaseConnection(conn: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection((conn as GuardedConnection).inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

export async function ensureSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {}); // a connection lost after the work: the promise below has the error, if any
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
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema.replace(/"/g, '')}" CASCADE`);
  } finally {
    await client.end();
  }
}

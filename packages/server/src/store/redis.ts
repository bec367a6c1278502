import type { Redis } from 'ioredis';
import type { DependencyHealth } from './health.js';

/**
 * A command without an answer within this time fails (a black-holed Redis), as commands on a lost connection do at
 * once; generous, since a timer can fire before a reply a busy event loop has not read yet.
 */
const COMMAND_TIMEOUT_MS = 5000;

/**
 * A connection to the Redis of distributed mode (REDIS_URL). Every key and channel of this deployment starts with
 * `prefix`, so several deployments (or parallel test servers) can share one Redis.
 *
 * Commands never wait for a lost connection: they fail at once (no offline queue, no retry of a command in flight),
 * and the connection reconnects by itself. With `health`, the connection's losses and returns are noted there.
 * Resolves once connected.
 */
export async function connectRedis(url: string, name: string, health?: DependencyHealth): Promise<Redis> {
  // Imported here, not at the top: the bundle keeps it a dynamic import, so a single process never loads the client.
  const { Redis } = await import('ioredis');
  const r = new Redis(url, {
    connectionName: name,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
    enableAutoPipelining: false,
  });
  // Errors surface on the commands that fail; the connection reconnects by itself.
  r.on('error', () => {});
  if (health) {
    r.on('reconnecting', () => health.lost('redis', name, new Error('connection lost')));
    r.on('ready', () => health.back('redis', name));
  }
  try {
    await r.connect();
  } catch (err) {
    r.disconnect(); // no reconnecting in the background for a start that failed
    throw err;
  }
  return r;
}

/**
 * Closes a connection for good: QUIT, then no reconnecting (a connection reconnecting while Redis is away refuses
 * QUIT and would come back later, keeping the process alive).
 */
export async function closeRedis(r: Redis): Promise<void> {
  await r.quit().catch(() => {});
  r.disconnect();
}

/** Deletes the keys under a prefix (tests and `--redis-prefix` clean-up); SCAN, so it never blocks Redis. */
export async function deleteKeys(r: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let n = 0;
  do {
    const [next, keys] = await r.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    if (keys.length) n += await r.del(...keys);
  } while (cursor !== '0');
  return n;
}

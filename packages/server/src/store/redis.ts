import type { Redis } from 'ioredis';

/**
 * A connection to the Redis of distributed mode (REDIS_URL). Every key and channel of this deployment starts with
 * `prefix`, so several deployments (or parallel test servers) can share one Redis.
 */
export async function connectRedis(url: string, name: string): Promise<Redis> {
  // Imported here, not at the top: the bundle keeps it a dynamic import, so a single process never loads the client.
  const { Redis } = await import('ioredis');
  const r = new Redis(url, { connectionName: name, lazyConnect: false, maxRetriesPerRequest: 3, enableAutoPipelining: false });
  // Errors surface on the commands that fail; the connection reconnects by itself.
  r.on('error', () => {});
  return r;
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

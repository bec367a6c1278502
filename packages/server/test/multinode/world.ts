import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '../../src/server.js';
import { seedWorld, type SeedWorld } from '../../src/dev/seed.js';
import { createUser } from '../../src/services/identity/users.js';
import { issueToken } from '../../src/services/identity/tokens.js';
import { addMember } from '../../src/services/guilds/membership.js';

export interface World {
  seed: SeedWorld;
  /** The listening users: members of the seeded guild, one user token each. */
  users: { id: string; token: string }[];
}

/**
 * Creates the run's schema (migrations) and its world before any node starts: the dev world, and `n` users who are
 * members of its guild. It runs a server of its own on loopback (PostgreSQL only, no Redis: nobody listens yet) and
 * creates users through the services, without password hashing, since they only ever use tokens.
 */
export async function createWorld(databaseUrl: string, schema: string, n: number): Promise<World> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'accord-mn-setup-'));
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    databaseUrl,
    databaseSchema: schema,
    redisUrl: undefined,
    logLevel: 'silent',
    rateLimits: false,
  });
  try {
    const ctx = server.ctx;
    const seed = await seedWorld(ctx);
    const users: { id: string; token: string }[] = new Array(n);
    let next = 0;
    // A few at a time: PostgreSQL round trips dominate, and the pool has room for them.
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = next++; i < n; i = next++) {
          const u = await createUser(ctx, { username: `mn_${i}`, globalName: `Listener ${i}` });
          users[i] = { id: u.id, token: await issueToken(ctx, u.id, 'user') };
          await addMember(ctx, seed.guildId, u.id);
        }
      }),
    );
    await server.gateway.dispatcher.idle();
    return { seed, users };
  } finally {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

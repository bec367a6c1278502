import { startServer } from './server.js';
import { isDiskFull, isUnavailable } from './core/errors.js';
import { loadConfig } from './config.js';
import { localCaPath } from './core/local-tls.js';
import { seedWorld } from './dev/seed.js';
import { exportWorld } from './dev/world-snapshot.js';
import cluster from 'node:cluster';
import { assertWorkersAllowed, runPrimary, workerCount, workerIndex, workerOverrides } from './workers.js';

/** CLI: `start` runs the platform (with --seed to create a dev world), `seed` creates the world and exits. */
async function main() {
  const [command = 'start', ...argv] = process.argv.slice(2);
  if (command === 'help' || argv.includes('--help')) {
    const { SETTINGS } = await import('./config.js');
    console.log('usage: accord [start|seed] [options]\n');
    for (const s of SETTINGS) console.log(`  ${s.flag.padEnd(22)} ${s.env.padEnd(26)} ${s.doc} (default ${s.def})`);
    return;
  }
  if (command !== 'start' && command !== 'seed') throw new Error(`unknown command: ${command}`);
  const t0 = performance.now();
  const config = loadConfig(argv);
  const workers = command === 'start' ? workerCount(config) : 1;
  assertWorkersAllowed(config, workers);
  if (workers > 1 && cluster.isPrimary) {
    // Every worker serves the dev routes with the same token: they inherit it from here.
    if (config.devToken) process.env.ACCORD_DEV_TOKEN = config.devToken;
    return runPrimary(config, workers);
  }
  const index = workerIndex();
  const server = await startServer(
    cluster.isWorker ? { ...workerOverrides(config, index), workers: 1 } : {},
    command === 'seed' ? [...argv, '--port', '0'] : argv,
  );
  if (command === 'seed' || (config.seed && index === 0)) {
    const world = await seedWorld(server.ctx);
    printWorld(server.url, world);
    if (command === 'seed') {
      await server.close();
      return;
    }
  }
  const ms = (performance.now() - t0).toFixed(0);
  const where = cluster.isWorker ? `worker ${index}, pid ${process.pid}, ` : '';
  const role = server.role === 'all' ? '' : `role ${server.role}, `;
  console.log(
    `accord: listening on ${server.url} (${role}${where}${server.ctx.repos.store.dialect}${config.redisUrl ? ' + redis' : ''}${config.dev ? ', dev mode' : ''}) ready in ${ms} ms`,
  );
  // The one secret printed (besides a seeded world's, asked for with --seed): local dev tools need it.
  if (server.ctx.config.devToken && index === 0)
    console.log(`accord: dev token ${server.ctx.config.devToken}  (send as X-Accord-Dev-Token to /__dev/…; the web client on localhost gets it from its page)`);
  if (config.tls && !config.tlsCert && index === 0) {
    const ca = localCaPath(config.dataDir);
    console.log(
      `accord: TLS uses the local CA ${ca}; trust it with  NODE_EXTRA_CA_CERTS=${ca}  (Node, set before it starts) or  SSL_CERT_FILE=${ca}  (Python: a bundle, so add the system CAs if other hosts are needed)`,
    );
  }
  if (server.role === 'all' || server.role === 'api')
    console.log(`accord: point discord.js at it with  new Client({ rest: { api: '${server.url}/api' }, ... })`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    if (config.exportOnExit && index === 0) {
      try {
        await exportWorld(server.ctx, config.exportOnExit);
        console.log(`accord: world written to ${config.exportOnExit}`);
      } catch (err) {
        console.error(`accord: could not write the world to ${config.exportOnExit}: ${(err as Error).message}`);
      }
    }
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

function printWorld(url: string, w: Awaited<ReturnType<typeof seedWorld>>) {
  console.log('\naccord dev world');
  console.log(`  api            ${url}/api/v10`);
  console.log(`  guild          ${w.guildId}  (#general ${w.textChannelId}, voice ${w.voiceChannelId})`);
  console.log(`  application    ${w.applicationId}`);
  console.log(`  bot token      ${w.botToken}`);
  for (const u of w.users) console.log(`  user ${u.username.padEnd(9)} ${u.id}  token ${u.token}  password ${u.password}`);
  console.log('');
}

// A promise nobody awaited that failed because the database or Redis is away (or the disk is full) is that outage,
// already reported once (store/health.ts): the process lives on and recovers with the dependency. Anything else
// still ends it, as Node does by default.
process.on('unhandledRejection', (err) => {
  if (isUnavailable(err) || isDiskFull(err)) return;
  throw err;
});

main().catch((err) => {
  console.error(`accord: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});

import type { AddressInfo } from 'node:net';
import { loadConfig, type Config } from './config.js';
import { Clock } from './core/clock.js';
import { Snowflakes } from './core/snowflake.js';
import { openStore } from './store/db.js';
import { InProcessBus } from './bus/in-process.js';
import type { EventBus } from './bus/bus.js';
import { MemoryPresences } from './bus/presence-state.js';
import { GuildAccess } from './services/guilds/access.js';
import { buildHttp } from './http/app.js';
import { registerCdn } from './http/cdn.js';
import { registerWebClient } from './http/web-client.js';
import { Gateway } from './gateway/gateway.js';
import { registerDevRoutes } from './dev/routes.js';
import type { Ctx } from './services/context.js';
import { VoiceServer } from './voice/server.js';
import { startEventsOut } from './events-out/runtime.js';
import { startPollClock } from './services/messages/polls.js';
import { startLobbies } from './services/social/lobbies/runtime.js';
import { mountActivityProxy } from './activities/mount.js';

export interface RunningServer {
  ctx: Ctx;
  url: string;
  port: number;
  gateway: Gateway;
  voice: VoiceServer;
  close(): Promise<void>;
}

/**
 * Starts the whole platform in this process: store, bus, HTTP API, CDN and Gateway on one port. With a Redis URL the
 * process is one node of a deployment sharing PostgreSQL and Redis.
 */
export async function startServer(overrides: Partial<Config> = {}, argv: string[] = []): Promise<RunningServer> {
  const config = loadConfig(argv, process.env, overrides);
  const clock = new Clock();
  const store = await openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, databaseSchema: config.databaseSchema });
  // Distributed mode: events travel through Redis, rate limits and voice states live there, shared by every node.
  // Loaded only then, as the PostgreSQL driver is: a single process never loads the Redis client.
  const node = config.redisUrl ? await (await import('./distributed.js')).connectDistributed(config, clock) : null;
  const bus: EventBus = node?.bus ?? new InProcessBus();
  const ctx: Ctx = {
    config, clock, store, bus,
    db: store.db,
    ids: node?.ids ?? new Snowflakes(clock),
    access: new GuildAccess(store.db, clock, bus),
    presences: new MemoryPresences(),
    publicUrl: '',
    voiceStateStore: node?.voiceStates,
    voiceNodes: node?.voiceNodes,
  };
  const http = buildHttp(ctx, node?.limits);
  registerCdn(http.app, ctx);
  registerWebClient(http.app, ctx); // the browser client on /app, /channels/…, /login, /oauth2/authorize, … (packages/web)
  const dev = config.dev ? registerDevRoutes(http.app, ctx) : null;
  const eventsOut = startEventsOut(ctx, http.app); // webhook-events outbox, subscription lifecycle (+ their dev routes)
  const stopPolls = startPollClock(ctx); // polls end when the server clock passes their expiry
  const gateway = new Gateway(ctx, node?.sessions ?? null);
  if (dev) gateway.tap = dev.inspector.onDispatch; // the dev inspector sees every dispatch
  const stopLobbies = startLobbies(ctx, (userId) => gateway.dispatcher.byUser.has(userId)); // lobby idle clock, linked-channel bridge
  const voice = new VoiceServer(ctx);
  await voice.start(); // voice gateway (wss, own port) and UDP media
  // Activities' proxy host shares the port (Host header <app_id>.<proxy host>); other upgrades go to the Gateway.
  mountActivityProxy(ctx, http.app.server, (req, socket, head) => gateway.handleUpgrade(req, socket, head));
  await http.app.listen({ host: config.host, port: config.port });
  const port = (http.app.server.address() as AddressInfo).port;
  const hostForUrl = config.host.includes(':') ? `[${config.host}]` : config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
  ctx.publicUrl = config.publicUrl ?? `http://${hostForUrl}:${port}`;
  return {
    ctx, port, gateway, voice,
    url: ctx.publicUrl,
    async close() {
      gateway.close();
      await voice.close();
      stopPolls();
      stopLobbies();
      await eventsOut.stop();
      await http.app.close();
      await (node ? node.close() : bus.close());
      await store.close();
    },
  };
}


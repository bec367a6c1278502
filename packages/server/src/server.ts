import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { loadConfig, type Config } from './config.js';
import { Clock } from './core/clock.js';
import { Snowflakes } from './core/snowflake.js';
import { openStore } from './store/db.js';
import { Repos } from './store/repos/index.js';
import { InProcessBus } from './bus/in-process.js';
import type { EventBus } from './bus/bus.js';
import { MemoryPresences } from './bus/presence-state.js';
import { MemoryRateLimits } from './bus/rate-limits.js';
import { GuildAccess } from './services/guilds/access.js';
import { buildHttp } from './http/app.js';
import { registerCdn } from './http/cdn.js';
import { registerWebClient } from './http/web-client.js';
import { Gateway } from './gateway/gateway.js';
import { registerDevRoutes } from './dev/routes.js';
import { FaultBook } from './dev/faults/book.js';
import { DispatchFaultHook } from './dev/faults/dispatch.js';
import { actOnGateway } from './dev/faults/gateway-actions.js';
import type { Ctx } from './services/context.js';
import { VoiceServer } from './voice/server.js';
import { startEventsOut } from './events-out/runtime.js';
import { announcePolls, startPollClock } from './services/messages/polls.js';
import { startLobbies } from './services/social/lobbies/runtime.js';
import { mountActivityProxy } from './activities/mount.js';
import { hasPart, type Part, type Role } from './core/roles.js';
import { buildProbeHttp, registerHealth } from './http/health.js';
import { refuseUpgrade } from './http/upgrade-refusal.js';
import { DependencyHealth } from './store/health.js';
import { derivedPublicUrl, explainListenError, prepareApiTls } from './http/listener.js';
import cluster from 'node:cluster';
import { useDeterministicRandom } from './core/random.js';
import { DETERMINISTIC_START, importWorld } from './dev/world-snapshot.js';

export interface RunningServer {
  ctx: Ctx;
  role: Role;
  url: string;
  port: number;
  /** The Gateway; throws on a role that runs none. */
  readonly gateway: Gateway;
  /** The voice server; throws on a role that runs none. */
  readonly voice: VoiceServer;
  /** Closes what this role started. */
  close(): Promise<void>;
}

/**
 * Starts the platform in this process: store, bus, and the parts of its role (core/roles.ts; `all`: the HTTP API, CDN
 * and Gateway on one port, voice on its own, and the background work). With a Redis URL the process is one node of a
 * deployment sharing PostgreSQL and Redis. Every role answers /healthz and /readyz on its port.
 */
export async function startServer(overrides: Partial<Config> = {}, argv: string[] = []): Promise<RunningServer> {
  const config = loadConfig(argv, process.env, overrides);
  const role = config.role;
  const has = (part: Part) => hasPart(role, part);
  // --deterministic (dev only): a frozen clock, ids without the process id, secrets from a fixed seed.
  if (config.deterministic) useDeterministicRandom('accord');
  const clock = new Clock(config.deterministic ? DETERMINISTIC_START : null);
  // What this process knows of its database and Redis being away: requests fail fast (503) until they are back.
  const health = new DependencyHealth(config.logLevel !== 'silent');
  const store = await openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, databaseSchema: config.databaseSchema, health });
  // Distributed mode: events travel through Redis, rate limits and voice states live there, shared by every node.
  // Loaded only then, as the PostgreSQL driver is: a single process never loads the Redis client.
  const node = config.redisUrl ? await (await import('./distributed.js')).connectDistributed(config, clock, health) : null;
  const bus: EventBus = node?.bus ?? new InProcessBus();
  const ctx: Ctx = {
    config,
    clock,
    bus,
    health,
    repos: new Repos(store),
    ids: node?.ids ?? new Snowflakes(clock, 1n, config.deterministic ? 0n : undefined),
    access: new GuildAccess(new Repos(store), clock, bus),
    presences: node?.presences ?? new MemoryPresences(),
    publicUrl: '',
    voiceStateStore: node?.voiceStates,
    voiceNodes: node?.voiceNodes,
    limits: node?.limits ?? new MemoryRateLimits(clock),
    callStore: node?.calls,
    faults: null,
  };
  // A cluster's primary imports before forking (workers.ts).
  if (config.importFile && !cluster.isWorker) await importWorld(ctx, config.importFile);
  // Dev mode's faults, on every node of a deployment (each keeps the rules; the bus carries changes between them).
  const faults = config.dev ? new FaultBook(ctx) : null;
  ctx.faults = faults;
  // --tls: every role's port (API, CDN, Gateway, probes) speaks HTTPS, so the URLs built from publicUrl are https/wss.
  const tls = prepareApiTls(config);
  const app = has('http') ? buildHttp(ctx, ctx.limits, tls).app : buildProbeHttp(tls);
  registerHealth(
    app,
    role,
    [{ name: 'store' as const, check: () => ctx.repos.ping() }, ...(node ? [{ name: 'redis' as const, check: () => node.ping() }] : [])],
    health,
  );
  let dev: ReturnType<typeof registerDevRoutes> | null = null;
  if (has('http')) {
    registerCdn(app, ctx);
    registerWebClient(app, ctx); // the browser client on /app, /channels/…, /login, /oauth2/authorize, … (packages/web)
    if (config.dev) dev = registerDevRoutes(app, ctx, faults!);
  }
  const makesChanges = has('http') || has('background');
  // Webhook-event producers where changes are made; the outbox and subscription lifecycle workers (+ their dev routes)
  // with the background work.
  const eventsOut = makesChanges ? startEventsOut(ctx, app, { workers: has('background'), devRoutes: has('http') }) : null;
  // Polls end when the server clock passes their expiry; a node without the clock tells the worker nodes of new ones.
  const stopPolls = has('background') ? startPollClock(ctx) : has('http') ? announcePolls(ctx) : null;
  const gateway = has('gateway') ? new Gateway(ctx, node?.sessions ?? null) : null;
  if (gateway && dev) gateway.tap = dev.inspector.onDispatch; // the dev inspector sees every dispatch
  if (gateway && faults) {
    gateway.faults = new DispatchFaultHook(faults); // bots' dispatches dropped or delayed
    faults.attachGateway((action) => actOnGateway(gateway, action)); // close, RECONNECT, INVALID_SESSION
  }
  // Lobby bridge where messages are posted (linked channels), idle clock with the background work.
  const stopLobbies = makesChanges ? startLobbies(ctx, (userId) => gateway?.dispatcher.byUser.has(userId) ?? false, 1000, has('background')) : null;
  const voice = has('voice') ? new VoiceServer(ctx) : null;
  let stopVoiceFaults: (() => void) | null = null;
  const close = async () => {
    gateway?.close();
    stopVoiceFaults?.();
    faults?.close();
    await voice?.close();
    stopPolls?.();
    stopLobbies?.();
    await eventsOut?.stop();
    await app.close();
    await (node ? node.close() : bus.close());
    await store.close();
  };
  let port: number;
  try {
    // Voice gateway (wss, own port) and UDP media. Other roles are in distributed mode: VOICE_SERVER_UPDATE sent from
    // them names a live voice node of the deployment (ctx.voiceNodes).
    if (voice) await voice.start();
    if (voice && faults) stopVoiceFaults = faults.onVoice((table) => voice.media.setFaults(table)); // loss, jitter
    // Activities' proxy host shares the API port (Host header <app_id>.<proxy host>); other upgrades go to the Gateway.
    const upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => (gateway ? gateway.handleUpgrade(req, socket, head) : refuseUpgrade(role, socket));
    if (has('http')) mountActivityProxy(ctx, app.server, upgrade);
    else app.server.on('upgrade', upgrade);
    await app.listen({ host: config.host, port: config.port });
    port = (app.server.address() as AddressInfo).port;
  } catch (err) {
    // A port that is taken or not ours to bind: what already started stops, so the caller sees only the reason.
    await close().catch(() => {});
    throw explainListenError(err);
  }
  ctx.publicUrl = config.publicUrl ?? derivedPublicUrl(config, port);
  const missing = (part: string): never => {
    throw new Error(`this node (role ${role}) runs no ${part}`);
  };
  return {
    ctx,
    port,
    role,
    url: ctx.publicUrl,
    get gateway() {
      return gateway ?? missing('Gateway');
    },
    get voice() {
      return voice ?? missing('voice server');
    },
    close,
  };
}

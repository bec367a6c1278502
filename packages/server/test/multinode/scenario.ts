import crypto from 'node:crypto';
import { dropSchema } from '../../src/store/postgres.js';
import { connectRedis, deleteKeys } from '../../src/store/redis.js';
import { startForwarder, type Forwarder } from './forwarder.js';
import { Listener } from './listener.js';
import { startNode, type Deployment, type NodeProcess } from './nodes.js';
import { Poster } from './poster.js';
import { BRIDGE_IP, createTopology, destroyTopology, lockMachine } from './topology.js';
import { createWorld } from './world.js';

export interface ScenarioOptions {
  /** Listening user sessions, spread round-robin over the gateway nodes. */
  sessions: number;
  /** Messages per second the poster sends. */
  rate: number;
  /** PostgreSQL and Redis as the root namespace reaches them (loopback). */
  databaseUrl: string;
  redisUrl: string;
  heartbeatIntervalMs?: number;
  log?: (line: string) => void;
}

export interface SessionFault {
  listener: number;
  node: string;
  lost: number;
  duplicated: number;
  unexpected: number;
  seqBreaks: [number, number][];
  invalidSessions: number;
  notes: string[];
}

export interface ScenarioReport {
  sessions: number;
  posted: number;
  /** Posts that needed more than one attempt (the API node kill), with their nonces. */
  retried: { nonce: string; id: string; failedOn: string[] }[];
  refused: string[];
  /** Sessions of the killed gateway node, and how many of them resumed (RESUMED received) elsewhere. */
  movedSessions: number;
  resumedSessions: number;
  invalidSessions: number;
  /** Deliveries expected (sessions × posted) and received exactly once, missing, or more than once. */
  expected: number;
  deliveredOnce: number;
  lost: number;
  /** Of `lost`, deliveries missing at sessions of the killed gateway node. */
  lostOnMoved: number;
  duplicated: number;
  seqBreaks: number;
  /** Up to 10 faulty sessions, for the failure message. */
  faults: SessionFault[];
  /** Messages lost by every session: a message committed whose MESSAGE_CREATE was never published. */
  lostEverywhere: string[];
  timings: Record<string, number>;
  /** The last lines each node printed (errors show here). */
  nodeLogs: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits for `done`, polling, at most `ms`; resolves whether it held. */
async function until(done: () => boolean, ms: number, every = 250): Promise<boolean> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) return false;
    await sleep(every);
  }
  return true;
}

/** The same URL with the host replaced (what the namespaces dial: the bridge address, served by the forwarder). */
function viaBridge(url: string): string {
  const u = new URL(url);
  u.hostname = BRIDGE_IP;
  return u.toString();
}

const portOf = (url: string, def: number) => Number(new URL(url).port || def);

/**
 * The multi-node run: 2 API and 3 gateway nodes in their own namespaces, N sessions over the gateway nodes, a poster
 * through the API nodes; SIGKILL of a gateway node and then of an API node while posting; then every session's
 * messages and sequence are compared with what was posted. Cleans up everything it made, on failure too.
 */
export async function runScenario(opts: ScenarioOptions): Promise<ScenarioReport> {
  const log = opts.log ?? (() => {});
  const tag = `mn${Date.now().toString(36)}${crypto.randomBytes(2).toString('hex')}`;
  const schema = `mn_${tag}`;
  const timings: Record<string, number> = {};
  const t0 = performance.now();
  const mark = (name: string) => (timings[name] = Math.round(performance.now() - t0));
  let forwarder: Forwarder | null = null;
  const nodes: NodeProcess[] = [];
  const listeners: Listener[] = [];
  let poster: Poster | null = null;
  const unlock = await lockMachine();
  try {
    const net = createTopology(['api0', 'api1', 'gw0', 'gw1', 'gw2']);
    const pg = new URL(opts.databaseUrl);
    const redis = new URL(opts.redisUrl);
    forwarder = await startForwarder(BRIDGE_IP, [
      { listen: portOf(opts.databaseUrl, 5432), to: `${pg.hostname}:${portOf(opts.databaseUrl, 5432)}` },
      { listen: portOf(opts.redisUrl, 6379), to: `${redis.hostname}:${portOf(opts.redisUrl, 6379)}` },
    ]);
    log(`topology up: ${net.map((n) => `${n.ns} ${n.ip}`).join(', ')}; schema ${schema}`);

    const world = await createWorld(opts.databaseUrl, schema, opts.sessions);
    mark('world');
    log(`world: ${opts.sessions} users in guild ${world.seed.guildId} (${timings.world} ms)`);

    const dep: Deployment = {
      databaseUrl: viaBridge(opts.databaseUrl),
      redisUrl: viaBridge(opts.redisUrl),
      schema,
      redisPrefix: `${schema}:`,
      heartbeatIntervalMs: opts.heartbeatIntervalMs ?? 15_000,
    };
    const roles = ['api', 'api', 'gateway', 'gateway', 'gateway'] as const;
    nodes.push(...(await Promise.all(net.map((n, i) => startNode(n.ns, roles[i], n, dep)))));
    const apis = nodes.filter((n) => n.role === 'api');
    const gateways = nodes.filter((n) => n.role === 'gateway');
    mark('nodes');
    log(`nodes up (${timings.nodes - timings.world} ms): ${nodes.map((n) => `${n.name} ${n.url}`).join(', ')}`);

    // Sessions, round-robin over the gateway nodes, a bounded number identifying at once.
    const down = new Set<number>();
    const gwUrls = gateways.map((g) => g.url);
    for (let i = 0; i < opts.sessions; i++) listeners.push(new Listener(world.users[i].token, gwUrls, i % gwUrls.length, world.seed.textChannelId, down));
    let started = 0;
    await Promise.all(
      Array.from({ length: 25 }, async () => {
        for (let i = started++; i < listeners.length; i = started++) await listeners[i].start();
      }),
    );
    mark('ready');
    log(
      `${listeners.length} sessions ready (${timings.ready - timings.nodes} ms): ${gateways.map((g, i) => `${g.name} ${listeners.filter((l) => l.node === i).length}`).join(', ')}`,
    );

    poster = new Poster(
      apis.map((a) => a.url),
      world.seed.textChannelId,
      world.seed.users[0].token,
      opts.rate,
      tag,
    );
    poster.start();
    await sleep(3000);

    // Gateway node 0 dies; its sessions reconnect to the others and resume.
    const victims = listeners.filter((l) => l.node === 0);
    log(`SIGKILL ${gateways[0].name} (${victims.length} sessions) after ${poster.posted.length} messages`);
    gateways[0].kill('SIGKILL');
    mark('gatewayKill');
    const moved = await until(() => victims.every((l) => l.node !== 0 && l.connected && (l.resumed > 0 || l.invalidSessions > 0)), 60_000 + opts.sessions * 20);
    mark('gatewayMoved');
    log(
      `${victims.filter((l) => l.resumed > 0).length}/${victims.length} resumed, ${victims.filter((l) => l.invalidSessions > 0).length} invalid sessions (${timings.gatewayMoved - timings.gatewayKill} ms${moved ? '' : ', timed out'})`,
    );
    await sleep(2000);

    // API node 0 dies while posting; the poster retries on the other with the same nonces.
    log(`SIGKILL ${apis[0].name} after ${poster.posted.length} messages`);
    apis[0].kill('SIGKILL');
    mark('apiKill');
    await sleep(4000);
    await poster.stop();
    mark('posted');
    log(`posted ${poster.posted.length} messages (${poster.retries} retries, ${poster.refused.length} refused)`);

    // Quiescence: every session has every posted id, or nothing changes for 15 s (bounded).
    const ids = poster.posted.map((p) => p.id);
    const complete = () => listeners.every((l) => ids.every((id) => l.messages.has(id)));
    const total = () => listeners.reduce((n, l) => n + l.messages.size, 0);
    const end = Date.now() + 120_000;
    let last = -1;
    let stillSince = Date.now();
    while (!complete() && Date.now() < end && Date.now() - stillSince < 15_000) {
      const now = total();
      if (now !== last) {
        last = now;
        stillSince = Date.now();
      }
      await sleep(500);
    }
    await sleep(1000); // late duplicates, if any, arrive too
    mark('quiescent');

    return { ...report(opts.sessions, poster, listeners, gateways, victims, timings), nodeLogs: nodes.flatMap((n) => n.log.slice(-5)) };
  } finally {
    try {
      for (const l of listeners) l.stop();
      if (poster) await Promise.race([poster.stop(), sleep(5000)]);
      for (const n of nodes) n.kill('SIGKILL');
      await Promise.race([Promise.all(nodes.map((n) => n.exited)), sleep(10_000)]);
      forwarder?.close();
      destroyTopology();
      await dropSchema(opts.databaseUrl, schema).catch((err) => log(`drop schema: ${err}`));
      const r = await connectRedis(opts.redisUrl, 'accord-multinode-cleanup');
      await deleteKeys(r, `${schema}:`)
        .catch(() => {})
        .finally(() => r.quit());
    } finally {
      unlock();
    }
  }
}

function report(
  sessions: number,
  poster: Poster,
  listeners: Listener[],
  gateways: NodeProcess[],
  victims: Listener[],
  timings: Record<string, number>,
): Omit<ScenarioReport, 'nodeLogs'> {
  const ids = new Set(poster.posted.map((p) => p.id));
  const faults: SessionFault[] = [];
  let deliveredOnce = 0;
  let lost = 0;
  let lostOnMoved = 0;
  const moved = new Set(victims);
  let duplicated = 0;
  let seqBreaks = 0;
  const lostBy = new Map<string, number>();
  listeners.forEach((l, i) => {
    let lostHere = 0;
    let dupHere = 0;
    for (const id of ids) {
      const n = l.messages.get(id) ?? 0;
      if (n === 1) deliveredOnce++;
      else if (n === 0) {
        lostHere++;
        lostBy.set(id, (lostBy.get(id) ?? 0) + 1);
      } else dupHere++;
    }
    const unexpected = [...l.messages.keys()].filter((id) => !ids.has(id)).length;
    lost += lostHere;
    if (moved.has(l)) lostOnMoved += lostHere;
    duplicated += dupHere;
    seqBreaks += l.seqBreaks.length;
    if (lostHere || dupHere || unexpected || l.seqBreaks.length || l.invalidSessions) {
      if (faults.length < 10)
        faults.push({
          listener: i,
          node: gateways[l.node].name,
          lost: lostHere,
          duplicated: dupHere,
          unexpected,
          seqBreaks: l.seqBreaks.slice(0, 5),
          invalidSessions: l.invalidSessions,
          notes: l.notes.slice(0, 6),
        });
    }
  });
  return {
    sessions,
    posted: ids.size,
    retried: poster.posted.filter((p) => p.attempts > 1).map((p) => ({ nonce: p.nonce, id: p.id, failedOn: p.failedOn })),
    refused: poster.refused,
    movedSessions: victims.length,
    resumedSessions: victims.filter((l) => l.resumed > 0).length,
    invalidSessions: listeners.reduce((n, l) => n + l.invalidSessions, 0),
    expected: ids.size * listeners.length,
    deliveredOnce,
    lost,
    lostOnMoved,
    duplicated,
    seqBreaks,
    faults,
    lostEverywhere: [...lostBy].filter(([, n]) => n === listeners.length).map(([id]) => id),
    timings,
  };
}

/** The report as lines for a person. */
export function describe(r: ScenarioReport): string {
  return [
    `sessions ${r.sessions}, messages posted ${r.posted} (${r.retried.length} needed a retry, ${r.refused.length} refused)`,
    `killed gateway node's sessions: ${r.movedSessions}, resumed elsewhere ${r.resumedSessions}; INVALID_SESSION ${r.invalidSessions}`,
    `deliveries expected ${r.expected}: exactly once ${r.deliveredOnce}, lost ${r.lost} (${r.lostOnMoved} at sessions of the killed gateway node), duplicated ${r.duplicated}; sequence breaks ${r.seqBreaks}`,
    ...(r.retried.length ? [`retry causes: ${JSON.stringify(causes(r.retried))}`] : []),
    ...(r.lostEverywhere.length
      ? [
          `lost by every session: ${r.lostEverywhere.length} (${r.lostEverywhere.filter((id) => r.retried.some((p) => p.id === id)).length} of them retried): ${r.lostEverywhere.slice(0, 10).join(', ')}`,
        ]
      : []),
    ...r.refused.slice(0, 5).map((x) => `refused: ${x}`),
    ...r.faults.map(
      (f) =>
        `session ${f.listener} on ${f.node}: lost ${f.lost}, duplicated ${f.duplicated}, unexpected ${f.unexpected}, invalid sessions ${f.invalidSessions}, seq breaks ${JSON.stringify(f.seqBreaks)}; ${f.notes.join('; ')}`,
    ),
    `timings (ms from start): ${JSON.stringify(r.timings)}`,
    ...(r.faults.length ? r.nodeLogs.filter((l) => !l.includes('accord: ')) : []),
  ].join('\n');
}

/** How many failed attempts each cause made (node and error), across retried posts. */
function causes(retried: ScenarioReport['retried']): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of retried) for (const f of p.failedOn) out[f] = (out[f] ?? 0) + 1;
  return out;
}

import { AllowList } from './core/address-policy.js';
import crypto from 'node:crypto';
import net from 'node:net';
import { rateLimitMode, type RateLimitMode } from './core/rate-limit-mode.js';
import { parseRole, type Role } from './core/roles.js';
/** Every setting, from flags first and environment second. The README lists the same table. */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl?: string;
  databaseSchema?: string;
  /** Distributed mode: the event bus and rate limits in this Redis (needs databaseUrl). */
  redisUrl?: string;
  /** Prefix of this deployment's Redis keys and channels. */
  redisPrefix: string;
  /** `accord start`: processes serving the port (0: one per core); more than one needs distributed mode. */
  workers: number;
  /** Which parts this process runs (core/roles.ts); anything but `all` needs distributed mode. */
  role: Role;
  /** Public base URL used in gateway URLs and CDN links; derived from host/port (and tls) when unset. */
  publicUrl?: string;
  /** The API port (HTTP API, CDN, Gateway) speaks HTTPS and WSS; implied by tlsCert. */
  tls: boolean;
  tlsCert?: string;
  tlsKey?: string;
  /**
   * Answer as the platform's own hosts: HTTPS on 443 (unless --port), public URL https://discord.com (unless
   * --public-url), for bots that hard-code them, with those names mapped to this machine (README: Intercept mode).
   */
  intercept: boolean;
  /** Names besides the host's that the generated API certificate covers, comma-separated (`none`: no others). */
  tlsHosts: string;
  dev: boolean;
  /**
   * With --dev: the token every /__dev/ call must send (X-Accord-Dev-Token), printed at start. ACCORD_DEV_TOKEN fixes
   * it (scripts that start a server); random otherwise. Not a flag, so it never shows in a process list.
   */
  devToken?: string;
  seed: boolean;
  /** A world snapshot (JSON) to start from: every table replaced by its rows (store/snapshot.ts). */
  importFile?: string;
  /** Where the world is written as a snapshot when the server stops (SIGINT, SIGTERM). */
  exportOnExit?: string;
  /** A clock that stands still at a fixed start time until moved, and secrets from a fixed seed: two runs, the same world. */
  deterministic: boolean;
  /** real (the platform's limits, the default), relaxed (10x, for local load) or off; true/false are aliases of real/off. */
  rateLimits: RateLimitMode | boolean;
  /** Table-driven JS GHASH for voice sealing (faster, leaks H through cache timing); off by default. */
  voiceGcmTables?: boolean;
  heartbeatIntervalMs: number;
  /** How long a disconnected gateway session can still be resumed. */
  resumeWindowMs: number;
  logLevel: 'silent' | 'info' | 'debug';
  /** TLS port of the voice gateway; unset: the API port + 1 (random when the API port is). */
  voicePort?: number;
  /** First UDP port for voice media (worker i uses port + i); unset: the voice gateway's port number. */
  voiceUdpPort?: number;
  /** Host name or address clients reach the voice gateway at (VOICE_SERVER_UPDATE endpoint, certificate name). */
  voiceHost?: string;
  /** IPv4 address clients send UDP media to (op 2); unset: voiceHost when it is an IPv4 address, else resolved. */
  voiceIp?: string;
  voiceTlsCert?: string;
  voiceTlsKey?: string;
  /** Media worker threads, one UDP port each; 0 runs the SFU on the main thread. */
  voiceWorkers: number;
  /** Comma-separated encryption modes offered in op 2, in order. */
  voiceModes: string;
  /** DAVE policy: auto (required from 2026-03-01 by the server clock, optional before), required, optional, off. */
  voiceDave: string;
  voiceHeartbeatIntervalMs: number;
  /** Outgoing webhook events: first retry delay, its cap, and how long one event is retried (defaults in events-out). */
  webhookBackoffMs?: number;
  webhookBackoffMaxMs?: number;
  webhookRetryWindowMs?: number;
  /** Message search: how long a guild takes to become indexed after its first search (server clock; default 2000). */
  searchIndexDelayMs?: number;
  /** Built web client (index.html + assets/); unset: packages/web/dist beside the server package. */
  webDir?: string;
  /**
   * Fastify's trustProxy: false (the default: the socket's address is the client's), true (trust every hop), a hop
   * count, or comma-separated proxy addresses/CIDRs. Only then is X-Forwarded-For honoured.
   */
  trustProxy: boolean | number | string;
  /** Gateway connections one IP may hold open at once. */
  gatewayConnectionsPerIp: number;
  /** log2 of scrypt's cost N for new password hashes (14: N = 16384); a hash keeps the cost it was made with. */
  passwordHashCost: number;
  /** An opened Gateway socket must Identify or Resume within this many ms (else closed 4003). */
  identifyTimeoutMs: number;
  /** Host Activities are served under as <application_id>.<host> (may include a port); unset: localhost:<port>. */
  activityProxyHost?: string;
  /**
   * Special-purpose address ranges (CIDR, comma-separated; `none` for none) the server may call at apps' URLs
   * (core/outgoing.ts); unset: loopback when the server listens on loopback or runs --dev, else none.
   */
  outgoingAllow?: string;
}

/** Host names client libraries hard-code: with --tls, the generated certificate covers them (see README). */
export const DISCORD_HOSTS = 'discord.com,gateway.discord.gg,cdn.discordapp.com,media.discordapp.net';

export const SETTINGS: { flag: string; env: string; key: keyof Config; kind: 'string' | 'number' | 'boolean'; doc: string; def: string }[] = [
  { flag: '--host', env: 'ACCORD_HOST', key: 'host', kind: 'string', doc: 'Address to listen on', def: '127.0.0.1' },
  { flag: '--port', env: 'ACCORD_PORT', key: 'port', kind: 'number', doc: 'Port of the HTTP API, CDN and Gateway', def: '8080' },
  { flag: '--data', env: 'ACCORD_DATA', key: 'dataDir', kind: 'string', doc: 'Data directory (SQLite file lives here)', def: './data' },
  { flag: '--database-url', env: 'DATABASE_URL', key: 'databaseUrl', kind: 'string', doc: 'PostgreSQL URL; SQLite is used when unset', def: '' },
  {
    flag: '--database-schema',
    env: 'ACCORD_DATABASE_SCHEMA',
    key: 'databaseSchema',
    kind: 'string',
    doc: 'PostgreSQL schema (created if missing)',
    def: 'public',
  },
  {
    flag: '--redis-url',
    env: 'REDIS_URL',
    key: 'redisUrl',
    kind: 'string',
    doc: 'Redis URL: distributed mode (event bus and rate limits shared by every node); needs --database-url',
    def: '',
  },
  {
    flag: '--redis-prefix',
    env: 'ACCORD_REDIS_PREFIX',
    key: 'redisPrefix',
    kind: 'string',
    doc: "Prefix of this deployment's Redis keys and channels",
    def: 'accord:',
  },
  {
    flag: '--workers',
    env: 'ACCORD_WORKERS',
    key: 'workers',
    kind: 'number',
    doc: 'Processes serving the port on this machine (0 = one per core); more than one needs --redis-url and --database-url',
    def: '1',
  },
  {
    flag: '--role',
    env: 'ACCORD_ROLE',
    key: 'role',
    kind: 'string',
    doc: 'Parts this node runs: all, api (HTTP API, CDN, web client), gateway, voice or worker (webhook events, subscriptions, poll and lobby clocks); anything but all needs --redis-url and --database-url',
    def: 'all',
  },
  {
    flag: '--public-url',
    env: 'ACCORD_PUBLIC_URL',
    key: 'publicUrl',
    kind: 'string',
    doc: 'External base URL (http://host:port)',
    def: 'http://<host>:<port>',
  },
  {
    flag: '--tls',
    env: 'ACCORD_TLS',
    key: 'tls',
    kind: 'boolean',
    doc: 'Serve the HTTP API, CDN and Gateway over HTTPS/WSS on --port (advertised URLs become https/wss); the certificate is --tls-cert, or one from the local CA in <data>/voice-tls',
    def: 'false',
  },
  {
    flag: '--tls-cert',
    env: 'ACCORD_TLS_CERT',
    key: 'tlsCert',
    kind: 'string',
    doc: 'PEM certificate (chain) for --tls (implies it); unset: generated by the local CA for the host, localhost, 127.0.0.1 and --tls-hosts',
    def: '',
  },
  { flag: '--tls-key', env: 'ACCORD_TLS_KEY', key: 'tlsKey', kind: 'string', doc: 'PEM private key for --tls-cert', def: '' },
  {
    flag: '--tls-hosts',
    env: 'ACCORD_TLS_HOSTS',
    key: 'tlsHosts',
    kind: 'string',
    doc: "Further names the generated --tls certificate covers, comma-separated (none for none): the platform's, for clients that hard-code them and are pointed here through /etc/hosts",
    def: DISCORD_HOSTS,
  },
  {
    flag: '--dev',
    env: 'ACCORD_DEV',
    key: 'dev',
    kind: 'boolean',
    doc: 'Enable dev-only control routes under /__dev/ (loopback callers with the dev token printed at start)',
    def: 'false',
  },
  { flag: '--seed', env: 'ACCORD_SEED', key: 'seed', kind: 'boolean', doc: 'Create a dev world at start and print its tokens', def: 'false' },
  {
    flag: '--intercept',
    env: 'ACCORD_INTERCEPT',
    key: 'intercept',
    kind: 'boolean',
    doc: 'Answer as discord.com for bots that hard-code it: implies --tls, port 443 and public URL https://discord.com unless given; map the platform host names to this machine (README: Intercept mode)',
    def: 'false',
  },
  {
    flag: '--import',
    env: 'ACCORD_IMPORT',
    key: 'importFile',
    kind: 'string',
    doc: 'Start from a world snapshot (JSON written by --export-on-exit or GET /__dev/snapshot): every table replaced by its rows',
    def: '',
  },
  {
    flag: '--export-on-exit',
    env: 'ACCORD_EXPORT_ON_EXIT',
    key: 'exportOnExit',
    kind: 'string',
    doc: 'Write the world to this JSON file when the server stops (SIGINT, SIGTERM)',
    def: '',
  },
  {
    flag: '--deterministic',
    env: 'ACCORD_DETERMINISTIC',
    key: 'deterministic',
    kind: 'boolean',
    doc: 'Dev worlds that repeat: the clock stands at 2026-01-01T00:00:00Z until moved, ids and secrets follow a fixed sequence, so two runs give the same snapshot',
    def: 'false',
  },
  {
    flag: '--trust-proxy',
    env: 'ACCORD_TRUST_PROXY',
    key: 'trustProxy',
    kind: 'string',
    doc: 'Behind a reverse proxy: honour X-Forwarded-For from it (true, a hop count, or the proxy addresses/CIDRs, comma-separated); the flag alone means true',
    def: 'false',
  },
  {
    flag: '--gateway-connections-per-ip',
    env: 'ACCORD_GATEWAY_CONNECTIONS_PER_IP',
    key: 'gatewayConnectionsPerIp',
    kind: 'number',
    doc: 'Gateway connections one client IP may hold open (more are refused); --dev raises the default to 10000 for local load',
    def: '100',
  },
  {
    flag: '--password-hash-cost',
    env: 'ACCORD_PASSWORD_HASH_COST',
    key: 'passwordHashCost',
    kind: 'number',
    doc: "log2 of scrypt's cost for new password hashes, 10 to 17 (each step doubles the CPU and memory of a hash and a login); --dev lowers the default to 10",
    def: '14',
  },
  {
    flag: '--identify-timeout',
    env: 'ACCORD_IDENTIFY_TIMEOUT',
    key: 'identifyTimeoutMs',
    kind: 'number',
    doc: 'Gateway sockets that send no Identify or Resume within this many ms are closed (4003)',
    def: '20000',
  },
  {
    flag: '--rate-limits',
    env: 'ACCORD_RATE_LIMITS',
    key: 'rateLimits',
    kind: 'string',
    doc: "HTTP rate limits: real (the platform's per-route limits), relaxed (10x, for local load) or off; true/false mean real/off",
    def: 'real',
  },
  {
    flag: '--heartbeat-interval',
    env: 'ACCORD_HEARTBEAT_INTERVAL',
    key: 'heartbeatIntervalMs',
    kind: 'number',
    doc: 'Gateway heartbeat interval in ms',
    def: '41250',
  },
  {
    flag: '--resume-window',
    env: 'ACCORD_RESUME_WINDOW',
    key: 'resumeWindowMs',
    kind: 'number',
    doc: 'How long a dropped session stays resumable, ms',
    def: '180000',
  },
  {
    flag: '--webhook-backoff',
    env: 'ACCORD_WEBHOOK_BACKOFF_MS',
    key: 'webhookBackoffMs',
    kind: 'number',
    doc: 'Webhook events: first retry delay in ms, doubled per failed attempt',
    def: '1000',
  },
  {
    flag: '--webhook-backoff-max',
    env: 'ACCORD_WEBHOOK_BACKOFF_MAX_MS',
    key: 'webhookBackoffMaxMs',
    kind: 'number',
    doc: 'Webhook events: longest retry delay in ms',
    def: '60000',
  },
  {
    flag: '--webhook-retry-window',
    env: 'ACCORD_WEBHOOK_RETRY_WINDOW_MS',
    key: 'webhookRetryWindowMs',
    kind: 'number',
    doc: 'Webhook events: an event failing this long (ms) is given up; if nothing reached the app meanwhile, its URL is disabled',
    def: '600000',
  },
  {
    flag: '--search-index-delay',
    env: 'ACCORD_SEARCH_INDEX_DELAY_MS',
    key: 'searchIndexDelayMs',
    kind: 'number',
    doc: 'Message search: ms (server clock) a guild takes to be indexed after its first search',
    def: '2000',
  },
  {
    flag: '--web-dir',
    env: 'ACCORD_WEB_DIR',
    key: 'webDir',
    kind: 'string',
    doc: 'Built web client served on /app, /channels, /login, … (index.html and assets/)',
    def: '<packages/web/dist>',
  },
  {
    flag: '--activity-proxy-host',
    env: 'ACCORD_ACTIVITY_PROXY_HOST',
    key: 'activityProxyHost',
    kind: 'string',
    doc: 'Activities are served at <scheme>://<application_id>.<this host>/ (wildcard DNS and certificate; may include a port)',
    def: 'localhost:<port>',
  },
  {
    flag: '--outgoing-allow',
    env: 'ACCORD_OUTGOING_ALLOW',
    key: 'outgoingAllow',
    kind: 'string',
    doc: "Address ranges (CIDR, comma-separated, or none) outgoing requests to apps' URLs may reach besides public addresses; plain http goes only to these. Loopback, private, link-local, CGNAT, multicast and their IPv6 forms are refused otherwise",
    def: '<loopback when listening on loopback or --dev, else none>',
  },
  { flag: '--log-level', env: 'ACCORD_LOG_LEVEL', key: 'logLevel', kind: 'string', doc: 'silent, info or debug', def: 'info' },
  { flag: '--voice-port', env: 'ACCORD_VOICE_PORT', key: 'voicePort', kind: 'number', doc: 'TLS (wss) port of the voice gateway', def: '<port>+1' },
  {
    flag: '--voice-udp-port',
    env: 'ACCORD_VOICE_UDP_PORT',
    key: 'voiceUdpPort',
    kind: 'number',
    doc: 'First UDP port for voice media; media worker i uses port+i',
    def: '<voice-port>',
  },
  {
    flag: '--voice-host',
    env: 'ACCORD_VOICE_HOST',
    key: 'voiceHost',
    kind: 'string',
    doc: 'Host clients reach voice at (VOICE_SERVER_UPDATE endpoint, TLS name)',
    def: '<host>',
  },
  { flag: '--voice-ip', env: 'ACCORD_VOICE_IP', key: 'voiceIp', kind: 'string', doc: 'IPv4 address clients send UDP media to', def: '<voice-host>' },
  {
    flag: '--voice-tls-cert',
    env: 'ACCORD_VOICE_TLS_CERT',
    key: 'voiceTlsCert',
    kind: 'string',
    doc: 'PEM certificate (chain) of the voice gateway; unset: a local CA and certificate are generated in <data>/voice-tls',
    def: '',
  },
  { flag: '--voice-tls-key', env: 'ACCORD_VOICE_TLS_KEY', key: 'voiceTlsKey', kind: 'string', doc: 'PEM private key for --voice-tls-cert', def: '' },
  {
    flag: '--voice-workers',
    env: 'ACCORD_VOICE_WORKERS',
    key: 'voiceWorkers',
    kind: 'number',
    doc: 'Voice media worker threads, one UDP port each (0 = main thread; about one per core for large loads)',
    def: '1',
  },
  {
    flag: '--voice-modes',
    env: 'ACCORD_VOICE_MODES',
    key: 'voiceModes',
    kind: 'string',
    doc: 'Voice encryption modes offered, in order',
    def: 'aead_aes256_gcm_rtpsize,aead_xchacha20_poly1305_rtpsize',
  },
  {
    flag: '--voice-gcm-tables',
    env: 'ACCORD_VOICE_GCM_TABLES',
    key: 'voiceGcmTables',
    kind: 'boolean',
    doc: 'Seal AES-256-GCM voice packets with the faster table-driven JS GHASH. Risk: its table is derived from the key and read at secret-dependent offsets, so code sharing the host can learn H through cache timing and forge packets; leave off on shared hosts',
    def: 'false',
  },
  {
    flag: '--voice-dave',
    env: 'ACCORD_VOICE_DAVE',
    key: 'voiceDave',
    kind: 'string',
    doc: 'End-to-end encryption (DAVE): auto (required from 2026-03-01), required, optional or off',
    def: 'auto',
  },
  {
    flag: '--voice-heartbeat-interval',
    env: 'ACCORD_VOICE_HEARTBEAT_INTERVAL',
    key: 'voiceHeartbeatIntervalMs',
    kind: 'number',
    doc: 'Voice gateway heartbeat interval in ms',
    def: '13750',
  },
];

const truthy = (v: string) => ['1', 'true', 'yes', 'on'].includes(v.toLowerCase());

export function loadConfig(argv: string[], env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const raw: Record<string, string> = {};
  for (const s of SETTINGS) if (env[s.env] !== undefined && env[s.env] !== '') raw[s.key] = env[s.env]!;
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    const s = SETTINGS.find((x) => x.flag === flag);
    if (!s) continue;
    if ((s.kind === 'boolean' || s.key === 'trustProxy') && inline === undefined && (argv[i + 1] === undefined || argv[i + 1].startsWith('--')))
      raw[s.key] = 'true';
    else raw[s.key] = inline ?? argv[++i];
  }
  const cfg: Config = {
    host: '127.0.0.1',
    port: 8080,
    dataDir: './data',
    tls: false,
    intercept: false,
    tlsHosts: DISCORD_HOSTS,
    dev: false,
    seed: false,
    deterministic: false,
    rateLimits: 'real',
    redisPrefix: 'accord:',
    workers: 1,
    role: 'all',
    heartbeatIntervalMs: 41250,
    resumeWindowMs: 180000,
    logLevel: 'info',
    trustProxy: false,
    gatewayConnectionsPerIp: 100,
    passwordHashCost: 14,
    identifyTimeoutMs: 20000,
    voiceWorkers: 1,
    voiceModes: 'aead_aes256_gcm_rtpsize,aead_xchacha20_poly1305_rtpsize',
    voiceDave: 'auto',
    voiceHeartbeatIntervalMs: 13750,
  };
  for (const s of SETTINGS) {
    const v = raw[s.key];
    if (v === undefined) continue;
    (cfg as any)[s.key] = s.kind === 'number' ? Number(v) : s.kind === 'boolean' ? truthy(v) : v;
  }
  if (cfg.databaseSchema === 'public') cfg.databaseSchema = undefined;
  // Local load (benches, many test clients on 127.0.0.1) needs many sockets from one address; an explicit value wins.
  if (cfg.dev && raw.gatewayConnectionsPerIp === undefined && overrides.gatewayConnectionsPerIp === undefined) cfg.gatewayConnectionsPerIp = 10000;
  // A dev world's people (a developer's tests, the toolkit's worlds) need passwords quick to hash, not hard to crack.
  if (cfg.dev && raw.passwordHashCost === undefined && overrides.passwordHashCost === undefined) cfg.passwordHashCost = 10;
  Object.assign(cfg, overrides);
  if (cfg.dev) cfg.devToken ||= env.ACCORD_DEV_TOKEN || crypto.randomBytes(24).toString('base64url');
  else cfg.devToken = undefined;
  if (cfg.devToken !== undefined && !/^[\w-]{16,200}$/.test(cfg.devToken)) throw new Error('ACCORD_DEV_TOKEN: 16 to 200 letters, digits, _ or -');
  if (cfg.deterministic && !cfg.dev) throw new Error('--deterministic needs --dev: its secrets follow a fixed sequence anyone can repeat');
  if (cfg.intercept) {
    cfg.tls = true;
    if (raw.port === undefined && overrides.port === undefined) cfg.port = 443;
    cfg.publicUrl ??= 'https://discord.com';
  }
  if (cfg.tlsCert || cfg.tlsKey) cfg.tls = true;
  cfg.rateLimits = rateLimitMode(cfg.rateLimits);
  cfg.trustProxy = trustProxyValue(cfg.trustProxy);
  if (!Number.isInteger(cfg.port) || cfg.port < 0 || cfg.port > 65535) throw new Error(`invalid port: ${cfg.port}`);
  if (!Number.isInteger(cfg.workers) || cfg.workers < 0) throw new Error(`invalid --workers: ${cfg.workers}`);
  if (!Number.isInteger(cfg.passwordHashCost) || cfg.passwordHashCost < 10 || cfg.passwordHashCost > 17) {
    throw new Error(`invalid --password-hash-cost: ${cfg.passwordHashCost} (10 to 17)`);
  }
  cfg.role = parseRole(cfg.role);
  if (cfg.role !== 'all' && (!cfg.databaseUrl || !cfg.redisUrl)) {
    throw new Error(
      `--role ${cfg.role} needs --database-url (PostgreSQL) and --redis-url: the other parts run in other processes, which share the store and the bus only in distributed mode`,
    );
  }
  if (cfg.redisUrl && !cfg.databaseUrl) throw new Error('--redis-url (REDIS_URL) needs --database-url (DATABASE_URL): every node shares one PostgreSQL');
  if (cfg.outgoingAllow) AllowList.parse(cfg.outgoingAllow); // a bad range stops the start, not the first request
  if (cfg.dev && cfg.host !== 'localhost' && !isLoopback(cfg.host)) throw new Error(`--dev is refused on a non-loopback host (${cfg.host})`);
  return cfg;
}

/** `true`/`false`, a hop count, or proxy addresses for Fastify. */
function trustProxyValue(v: boolean | number | string): boolean | number | string {
  if (typeof v !== 'string') return v;
  const t = v.trim().toLowerCase();
  if (t === '' || ['0', 'false', 'no', 'off'].includes(t)) return false;
  if (['true', 'yes', 'on'].includes(t)) return true;
  if (/^\d+$/.test(t)) return Number(t);
  return v.trim();
}

/**
 * Whether an address (never a host name) is loopback: 127.0.0.0/8, ::1, and IPv4-mapped ::ffff:127.x.x.x.
 * `127.example.com` or `localhost` are names, so false: callers compare socket addresses, not names.
 */
export function isLoopback(address: string): boolean {
  let a = address.trim();
  if (a.startsWith('[') && a.endsWith(']')) a = a.slice(1, -1);
  const kind = net.isIP(a);
  if (kind === 4) return a.split('.')[0] === '127';
  if (kind !== 6) return false;
  const list = new net.BlockList();
  list.addAddress('::1', 'ipv6');
  list.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');
  return list.check(a, 'ipv6');
}

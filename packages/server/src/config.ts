/** Every setting, from flags first and environment second. The README lists the same table. */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl?: string;
  databaseSchema?: string;
  /** Public base URL used in gateway URLs and CDN links; derived from host/port when unset. */
  publicUrl?: string;
  dev: boolean;
  seed: boolean;
  rateLimits: boolean;
  heartbeatIntervalMs: number;
  /** How long a disconnected gateway session can still be resumed. */
  resumeWindowMs: number;
  logLevel: 'silent' | 'info' | 'debug';
}

export const SETTINGS: { flag: string; env: string; key: keyof Config; kind: 'string' | 'number' | 'boolean'; doc: string; def: string }[] = [
  { flag: '--host', env: 'ACCORD_HOST', key: 'host', kind: 'string', doc: 'Address to listen on', def: '127.0.0.1' },
  { flag: '--port', env: 'ACCORD_PORT', key: 'port', kind: 'number', doc: 'Port of the HTTP API, CDN and Gateway', def: '8080' },
  { flag: '--data', env: 'ACCORD_DATA', key: 'dataDir', kind: 'string', doc: 'Data directory (SQLite file lives here)', def: './data' },
  { flag: '--database-url', env: 'DATABASE_URL', key: 'databaseUrl', kind: 'string', doc: 'PostgreSQL URL; SQLite is used when unset', def: '' },
  { flag: '--database-schema', env: 'ACCORD_DATABASE_SCHEMA', key: 'databaseSchema', kind: 'string', doc: 'PostgreSQL schema (created if missing)', def: 'public' },
  { flag: '--public-url', env: 'ACCORD_PUBLIC_URL', key: 'publicUrl', kind: 'string', doc: 'External base URL (http://host:port)', def: 'http://<host>:<port>' },
  { flag: '--dev', env: 'ACCORD_DEV', key: 'dev', kind: 'boolean', doc: 'Enable dev-only control routes under /__dev/ (loopback only)', def: 'false' },
  { flag: '--seed', env: 'ACCORD_SEED', key: 'seed', kind: 'boolean', doc: 'Create a dev world at start and print its tokens', def: 'false' },
  { flag: '--rate-limits', env: 'ACCORD_RATE_LIMITS', key: 'rateLimits', kind: 'boolean', doc: 'Enforce HTTP rate limits (set false for load tests)', def: 'true' },
  { flag: '--heartbeat-interval', env: 'ACCORD_HEARTBEAT_INTERVAL', key: 'heartbeatIntervalMs', kind: 'number', doc: 'Gateway heartbeat interval in ms', def: '41250' },
  { flag: '--resume-window', env: 'ACCORD_RESUME_WINDOW', key: 'resumeWindowMs', kind: 'number', doc: 'How long a dropped session stays resumable, ms', def: '180000' },
  { flag: '--log-level', env: 'ACCORD_LOG_LEVEL', key: 'logLevel', kind: 'string', doc: 'silent, info or debug', def: 'info' },
];

const truthy = (v: string) => ['1', 'true', 'yes', 'on'].includes(v.toLowerCase());

export function loadConfig(argv: string[], env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const raw: Record<string, string> = {};
  for (const s of SETTINGS) if (env[s.env] !== undefined && env[s.env] !== '') raw[s.key] = env[s.env]!;
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    const s = SETTINGS.find((x) => x.flag === flag);
    if (!s) continue;
    if (s.kind === 'boolean' && inline === undefined && (argv[i + 1] === undefined || argv[i + 1].startsWith('--'))) raw[s.key] = 'true';
    else raw[s.key] = inline ?? argv[++i];
  }
  const cfg: Config = {
    host: '127.0.0.1', port: 8080, dataDir: './data', dev: false, seed: false, rateLimits: true,
    heartbeatIntervalMs: 41250, resumeWindowMs: 180000, logLevel: 'info',
  };
  for (const s of SETTINGS) {
    const v = raw[s.key];
    if (v === undefined) continue;
    (cfg as any)[s.key] = s.kind === 'number' ? Number(v) : s.kind === 'boolean' ? truthy(v) : v;
  }
  if (cfg.databaseSchema === 'public') cfg.databaseSchema = undefined;
  Object.assign(cfg, overrides);
  if (!Number.isInteger(cfg.port) || cfg.port < 0 || cfg.port > 65535) throw new Error(`invalid port: ${cfg.port}`);
  if (cfg.dev && !isLoopback(cfg.host)) throw new Error(`--dev is refused on a non-loopback host (${cfg.host})`);
  return cfg;
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

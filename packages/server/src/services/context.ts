import type { Config } from '../config.js';
import type { Clock } from '../core/clock.js';
import type { Snowflakes } from '../core/snowflake.js';
import type { EventBus } from '../bus/bus.js';
import type { PresenceState } from '../bus/presence-state.js';
import type { RateLimitStore } from '../bus/rate-limits.js';
import type { Repos } from '../store/repos/index.js';
import type { DependencyHealth } from '../store/health.js';
import type { GuildAccess } from './guilds/access.js';
import type { VoiceNodes } from './voice/nodes.js';
import type { VoiceStateStore } from './voice/store.js';
import type { CallStore } from './voice/call-store.js';
import type { UserRecord } from '../store/records.js';
import type { DevFaults } from '../core/dev-faults.js';

/** Everything a service needs, injected once at start. */
export interface Ctx {
  config: Config;
  clock: Clock;
  ids: Snowflakes;
  /** The repositories: the only way services reach storage. */
  repos: Repos;
  /** Which dependency (database, Redis, disk) is away: transports answer 503 fast meanwhile. */
  health: DependencyHealth;
  bus: EventBus;
  access: GuildAccess;
  /** Who shows online: written by the Gateway, counted by services (`onlineCount`). */
  presences: PresenceState;
  /** Base URL clients use (http://host:port), for gateway and CDN links. */
  publicUrl: string;
  /** Voice states shared by the nodes of a deployment (Redis); unset: each process keeps its own in memory. */
  voiceStateStore?: VoiceStateStore;
  /** Distributed mode: the deployment's voice servers and which one serves each channel. */
  voiceNodes?: VoiceNodes;
  /**
   * Limits that hold for the whole deployment (Request Guild Members for all members, the Social SDK's unapproved
   * apps): in this process's memory, or in Redis in distributed mode.
   */
  limits: RateLimitStore;
  /** DM and group-DM calls shared by the nodes of a deployment (Redis); unset: each process keeps its own in memory. */
  callStore?: CallStore;
  /** Dev mode's faults (dev/faults): set with --dev only, so each hook costs one null check otherwise. */
  faults: DevFaults | null;
}

/** Who is calling: the authenticated user and how they authenticated. */
export interface Actor {
  user: UserRecord;
  kind: 'user' | 'bot' | 'bearer';
  /** For bots and bearer tokens: the application behind the token. */
  applicationId: string | null;
  scopes: string[];
}

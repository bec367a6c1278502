import type { PresenceState as Presences } from './presence.js';
import type { Session, Transport } from './session.js';
import type { Actor } from '../services/context.js';

/**
 * What a connection needs of the Gateway that owns it. The Gateway implements it; the connection and the op handlers
 * depend on this interface only, so the Gateway and its connections do not import each other.
 */
export interface GatewayHub {
  readonly sessions: Map<string, Session>;
  readonly presences: Presences;
  readonly resumeUrl: string;
  shardOf(guildId: string, count: number): number;
  attach(s: Session): void;
  /** Watches an identifying session's topics on the bus until `attach` holds them (see Dispatcher.hold). */
  hold(userId: string, guildIds: Iterable<string>): Promise<() => void>;
  sendGuildCreates(s: Session): void;
  /** Distributed mode: the bus position a session identifying now starts after (0 otherwise). */
  position(): Promise<number>;
  /** Distributed mode: keep the attached session's record so any node can resume it. */
  record(s: Session): void;
  /** Distributed mode: take over another node's session for a client resuming from `seq`; null when none. */
  adopt(id: string, actor: Actor, tokenHash: string, seq: number): Promise<Session | null>;
  /** A connection ended: a clean close ends its session, anything else keeps it resumable. */
  detach(conn: Transport & { session: Session | null }, clean: boolean): void;
  setPresence(s: Session, raw: unknown): void;
  /** Bumped by every token change: an Identify that spans one checks its token again once attached. */
  readonly tokenEpoch: number;
  /** Ends (4004) the user's sessions in this process whose token no longer exists. */
  revalidate(userId: string): Promise<void>;
  /** Live sessions of a user in this process. */
  sessionsOf(userId: string): number;
}

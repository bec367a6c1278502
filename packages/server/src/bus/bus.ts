/**
 * A change that happened, published once by the service that made it. Payloads are viewer-independent and
 * JSON-safe so a distributed bus can carry them; the gateway applies each recipient's view.
 */
export interface BusEvent {
  /** Dispatch name (MESSAGE_CREATE, …). */
  t: string;
  d: any;
  /** Guild-scoped: goes to sessions of the guild's members (and the guild's shard). */
  guild_id?: string | null;
  /** Recipients need VIEW_CHANNEL here (guild channels), or must be recipients (DMs). */
  channel_id?: string | null;
  /** Only these users' sessions receive it. */
  user_ids?: string[];
  /** With user_ids: only this gateway session receives it (VOICE_SERVER_UPDATE goes to the joining session only). */
  session_id?: string;
  /** Recipients need this guild-level permission (decimal bitfield), e.g. VIEW_AUDIT_LOG for audit log entries. */
  permission?: string;
  /** People only: bot sessions never receive it (EMBEDDED_ACTIVITY_UPDATE_V2 is a client event). */
  humans_only?: boolean;
  /** With channel_id: recipients need this permission in that channel too (MANAGE_CHANNELS for invite events). */
  channel_permission?: string;
  /**
   * Distributed mode only, set on delivery to `ordered` handlers: the event's place in the deployment's one order
   * (every node sees events in increasing `g`). A session's resume point is its position in this order.
   */
  g?: number;
  /**
   * Published at most once under this key in the deployment (distributed mode): a request retried on another node
   * after the first node stored its change but may have died before publishing calls `republish` with the same key.
   */
  once?: string;
}

/**
 * What a process can ask a distributed bus to carry to it: one guild's events, one guild's changes only (all but its
 * message traffic: what caches of the guild's state need), or one user's.
 */
export type Topic = `guild:${string}` | `guild-changes:${string}` | `user:${string}`;

export interface SubscribeOptions {
  /**
   * Also receive events published by other processes (a distributed bus), for the topics this process watches and
   * for control events (`__…`), which reach every process. Off by default: side effects (enqueueing a webhook event,
   * leaving voice) must run once, in the process that made the change, while fan-out and cache invalidation need
   * everyone's events.
   */
  remote?: boolean;
  /**
   * Receive every event (this process's too) in the deployment's one order, each with its `g`, and only after the bus
   * has stored it for replay: what the Gateway needs so a session can resume on any node. The embedded bus treats it
   * as `remote` (one process, one order).
   */
  ordered?: boolean;
}

export interface EventBus {
  /** Delivers an event to this process's subscribers now, and to other processes' remote subscribers. */
  publish(event: BusEvent): void;
  /**
   * Publishes an event carrying `once` only if no node published one under that key (then delivers it here too). The
   * embedded bus has no other node: whoever stored the change published it, so this does nothing.
   */
  republish(event: BusEvent & { once: string }): void;
  /**
   * A position in this process's publishing. `settled(mark)` resolves once every event it published since then is
   * stored and sent to the other processes, and rejects when one could not be. An answer that acknowledges a change
   * waits for it, so a process killed right after answering has not lost the change's events. The embedded bus has
   * no other process: its events are delivered when published.
   */
  mark(): number;
  settled(mark: number): Promise<void>;
  /** Registers a handler; returns the function that removes it. */
  subscribe(handler: (event: BusEvent) => void, opts?: SubscribeOptions): () => void;
  /**
   * Asks for a topic's events from other processes (counted: each watch needs one unwatch). Resolves once they are
   * flowing. The embedded bus has no other processes and resolves at once.
   */
  watch(topic: Topic): Promise<void>;
  unwatch(topic: Topic): void;
  close(): Promise<void>;
}

/** A DM or group-DM call that is running (calls.ts). */
export interface CallRecord {
  channelId: string;
  /** The CALL message (type 3) that records it. */
  messageId: string;
  region: string;
  /** Recipients being rung. */
  ringing: string[];
  /** Everyone who joined it at some point (the CALL message lists them when it ends). */
  participants: string[];
}

/**
 * Where running calls live: in this process's memory, or in Redis in distributed mode (`redis-calls.ts`), so a call
 * started through one node is the same call on every node. Changes of one call run one at a time in the deployment
 * (`serial`); `get`/`put`/`delete` inside it read and write the record.
 */
export interface CallStore {
  /** Runs `fn` while holding the call of this channel: no other change of it runs meanwhile, on any node. */
  serial<T>(channelId: string, fn: () => Promise<T>): Promise<T>;
  /** The running call of a channel, or null. */
  get(channelId: string): Promise<CallRecord | null>;
  /** Creates or replaces a channel's call. */
  put(call: CallRecord): Promise<void>;
  /** Forgets a channel's call (it ended). */
  delete(channelId: string): Promise<void>;
  /** The channels with a running call. */
  channels(): Promise<string[]>;
}

/** Runs the functions given for one key in order, one at a time, in this process. */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const tail = next.catch(() => {});
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return next;
  }
}

/** One process's calls (the embedded mode). Records are copied in and out, as the Redis store would. */
export class MemoryCallStore implements CallStore {
  private readonly calls = new Map<string, string>();
  private readonly queue = new KeyedQueue();

  serial<T>(channelId: string, fn: () => Promise<T>): Promise<T> {
    return this.queue.run(channelId, fn);
  }
  async get(channelId: string) {
    const raw = this.calls.get(channelId);
    return raw ? (JSON.parse(raw) as CallRecord) : null;
  }
  async put(call: CallRecord) {
    this.calls.set(call.channelId, JSON.stringify(call));
  }
  async delete(channelId: string) {
    this.calls.delete(channelId);
  }
  async channels() {
    return [...this.calls.keys()];
  }
}

/**
 * Typed events with the SDK's two delivery modes: `auto` delivers on the event loop as things happen; `manual` queues
 * every event and every completion (promise resolution) until the game calls `runCallbacks()`, once per frame, as the
 * native SDK's RunCallbacks.
 */
export type Listener<A> = (arg: A) => void;

export class Emitter<Events extends { [K in keyof Events]: unknown }> {
  private listeners = new Map<keyof Events, Set<Listener<any>>>();
  private queue: (() => void)[] = [];

  constructor(public dispatch: 'auto' | 'manual' = 'auto') {}

  on<K extends keyof Events>(event: K, fn: Listener<Events[K]>): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(fn);
    return () => this.off(event, fn);
  }

  off<K extends keyof Events>(event: K, fn: Listener<Events[K]>): void {
    this.listeners.get(event)?.delete(fn);
  }

  /** Replaces every listener of an event with one (the C++ `Set…Callback` single slot); null clears it. */
  setSlot<K extends keyof Events>(event: K, fn: Listener<Events[K]> | null): void {
    this.listeners.delete(event);
    if (fn) this.on(event, fn);
  }

  has<K extends keyof Events>(event: K): boolean {
    return (this.listeners.get(event)?.size ?? 0) > 0;
  }

  emit<K extends keyof Events>(event: K, arg: Events[K]): void {
    this.deliver(() => {
      for (const fn of [...(this.listeners.get(event) ?? [])]) {
        try {
          fn(arg);
        } catch (err) {
          queueMicrotask(() => {
            throw err;
          });
        }
      }
    });
  }

  /** Runs `fn` now (auto) or at the next runCallbacks() (manual). */
  deliver(fn: () => void): void {
    if (this.dispatch === 'manual') this.queue.push(fn);
    else fn();
  }

  /** Wraps a promise so it settles through deliver(). */
  settle<T>(p: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) =>
      p.then(
        (v) => this.deliver(() => resolve(v)),
        (e) => this.deliver(() => reject(e)),
      ),
    );
  }

  /** Delivers what is queued (manual mode); returns how many callbacks ran. */
  runCallbacks(): number {
    const batch = this.queue;
    this.queue = [];
    for (const fn of batch) fn();
    return batch.length;
  }
}

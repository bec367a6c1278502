import type { BusEvent, EventBus, SubscribeOptions, Topic } from './bus.js';

/** The embedded bus: synchronous fan-out to handlers in this process, in subscription order. */
export class InProcessBus implements EventBus {
  private handlers: ((e: BusEvent) => void)[] = [];

  publish(event: BusEvent): void {
    deliver(this.handlers, event);
  }

  republish(_event: BusEvent & { once: string }): void {}

  mark(): number {
    return 0;
  }

  async settled(_mark: number): Promise<void> {}

  subscribe(handler: (e: BusEvent) => void, _opts?: SubscribeOptions): () => void {
    this.handlers.push(handler);
    return () => {
      this.handlers = this.handlers.filter((h) => h !== handler);
    };
  }

  async watch(_topic: Topic): Promise<void> {}

  unwatch(_topic: Topic): void {}

  async close(): Promise<void> {
    this.handlers = [];
  }
}

/** Calls each handler in order; one failing handler does not keep the event from the others. */
export function deliver(handlers: readonly ((e: BusEvent) => void)[], event: BusEvent): void {
  for (const h of handlers) {
    try {
      h(event);
    } catch (err) {
      console.error('[bus] handler failed', err);
    }
  }
}

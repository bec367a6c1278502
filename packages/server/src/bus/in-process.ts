import type { BusEvent, EventBus } from './bus.js';

/** The embedded bus: synchronous fan-out to handlers in this process, in subscription order. */
export class InProcessBus implements EventBus {
  private handlers: ((e: BusEvent) => void)[] = [];

  publish(event: BusEvent): void {
    for (const h of this.handlers) {
      try {
        h(event);
      } catch (err) {
        console.error('[bus] handler failed', err);
      }
    }
  }

  subscribe(handler: (e: BusEvent) => void): () => void {
    this.handlers.push(handler);
    return () => {
      this.handlers = this.handlers.filter((h) => h !== handler);
    };
  }

  async close(): Promise<void> {
    this.handlers = [];
  }
}

import type { EventEmitter } from 'node:events';

type Listenable = Pick<EventEmitter, 'on' | 'off'>;

/**
 * Resolves with the arguments of the first `event` whose arguments satisfy `pred`. The listener is attached
 * synchronously, so call this before triggering the action and await it afterwards.
 */
export function waitEvent<A extends any[] = any[]>(em: Listenable, event: string, pred: (...args: A) => boolean = () => true, ms = 10_000): Promise<A> {
  const err = new Error(`timed out after ${ms} ms waiting for "${event}"`);
  return new Promise<A>((resolve, reject) => {
    const listener = (...args: any[]) => {
      let ok = false;
      try {
        ok = pred(...(args as A));
      } catch {
        ok = false;
      }
      if (!ok) return;
      clearTimeout(timer);
      em.off(event, listener);
      resolve(args as A);
    };
    const timer = setTimeout(() => {
      em.off(event, listener);
      reject(err);
    }, ms);
    em.on(event, listener);
  });
}

/** Polls `check` until it returns a truthy value or the time runs out. */
export async function until<T>(check: () => T | Promise<T>, ms = 10_000, what = 'condition', every = 25): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(every);
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

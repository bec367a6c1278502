import type { DispatchFaults, Session } from '../../gateway/session.js';
import type { FaultBook } from './book.js';
import type { DispatchParams } from './rules.js';

/** Frames a fault holds back, in order, with the time each may go (performance.now()). */
interface Held {
  queue: { at: number; send: () => void }[];
  timer: NodeJS.Timeout | null;
}

/** Without `events`, a rule spares the handshake's frames: a client never READY cannot show a lost event. */
const HANDSHAKE = new Set(['READY', 'RESUMED']);

/**
 * `gateway.dispatch` rules on a bot's sessions: a matching dispatch is dropped before it is sequenced (the client
 * sees a lost event, seqs stay contiguous), or held back `delay_ms` and sequenced when sent. Frames behind a held one
 * wait for it, so a session's order never changes.
 */
export class DispatchFaultHook implements DispatchFaults {
  private readonly held = new WeakMap<Session, Held>();

  constructor(private readonly book: FaultBook) {}

  intercept(s: Session, t: string, send: () => void): boolean {
    const appId = s.actor.applicationId;
    const held = this.held.get(s);
    if (!appId || (!held && !this.book.has('gateway.dispatch', appId))) return false;
    const rule = this.book.take('gateway.dispatch', appId, (p: DispatchParams) => (p.events ? p.events.includes(t) : !HANDSHAKE.has(t)));
    const p = (rule?.params ?? {}) as DispatchParams;
    if (p.drop) return true;
    const delay = p.delay_ms ?? 0;
    if (!delay && !held) return false;
    this.hold(s, held, performance.now() + delay, send);
    return true;
  }

  private hold(s: Session, held: Held | undefined, at: number, send: () => void): void {
    if (!held) this.held.set(s, (held = { queue: [], timer: null }));
    held.queue.push({ at, send });
    if (held.queue.length === 1) this.arm(s, held);
  }

  private arm(s: Session, held: Held): void {
    const wait = Math.max(0, held.queue[0].at - performance.now());
    held.timer = setTimeout(() => this.flush(s, held), wait);
    held.timer.unref();
  }

  /** Sends every frame whose time came, in order; a frame not yet due keeps the ones behind it waiting. */
  private flush(s: Session, held: Held): void {
    const now = performance.now();
    while (held.queue.length && held.queue[0].at <= now) held.queue.shift()!.send();
    if (held.queue.length) this.arm(s, held);
    else this.held.delete(s);
  }
}

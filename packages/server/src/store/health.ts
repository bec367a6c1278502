import { DependencyUnavailable, isTimeout, isUnavailable, type DependencyName } from '../core/errors.js';

interface Dep {
  /** Parts reported lost (a Redis connection by name, `errors` for failures seen on queries). */
  lost: Set<string>;
  probe?: () => Promise<unknown>;
  timer?: NodeJS.Timeout;
  since: number;
  /** A probe after a timeout is under way. */
  suspected?: boolean;
}

const PROBE_EVERY_MS = 500;
const PROBE_TIMEOUT_MS = 5000;
const SUSPECT_PROBE_TIMEOUT_MS = 10_000;

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('probe timed out')), ms)));
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/**
 * What this process knows about its dependencies, learned from the errors and connection events of their clients
 * (never from an extra round trip on a request). While one is down, code that would need it fails at once with
 * `DependencyUnavailable` (503) instead of waiting on a connection; a background probe (the database) or the
 * client's own reconnection (Redis) notices when it is back.
 */
export class DependencyHealth {
  private readonly deps = new Map<DependencyName, Dep>();
  /** True while any dependency is down: the hot path reads this one field. */
  anyDown = false;
  private closed = false;

  /** `log`: one line when a dependency goes away and one when it is back (off for silent test servers). */
  constructor(private readonly log = true) {}

  /** Registers a dependency; `probe` (a trivial request bypassing the gate) is run in the background while it is down. */
  add(name: DependencyName, probe?: () => Promise<unknown>): void {
    this.deps.set(name, { lost: new Set(), probe, since: 0 });
  }

  isDown(name: DependencyName): boolean {
    return this.anyDown && (this.deps.get(name)?.lost.size ?? 0) > 0;
  }

  /** Throws `DependencyUnavailable` when `name` is known to be down. */
  check(name: DependencyName): void {
    if (this.isDown(name)) throw new DependencyUnavailable(name);
  }

  /** The dependencies down now (readiness, diagnostics). */
  down(): DependencyName[] {
    if (!this.anyDown) return [];
    return [...this.deps].filter(([, d]) => d.lost.size > 0).map(([n]) => n);
  }

  /**
   * Looks at an error from `name`: when it says the dependency is unreachable, marks it down and returns a
   * `DependencyUnavailable` to throw instead; otherwise returns the error as it is.
   */
  classify(name: DependencyName, err: unknown): unknown {
    if (!isUnavailable(err)) return err;
    if (isTimeout(err)) this.suspect(name, err);
    else this.lost(name, 'errors', err);
    return err instanceof DependencyUnavailable ? err : new DependencyUnavailable(name, err);
  }

  /**
   * A timeout from `name`: down only if a probe given more time fails too. A black-holed host is found out so, after
   * which requests fail at once; a slow one (a loaded machine) is not taken for an outage.
   */
  suspect(name: DependencyName, err: unknown): void {
    const d = this.deps.get(name);
    if (!d?.probe || this.closed || d.suspected || d.lost.size > 0) return;
    d.suspected = true;
    withTimeout(d.probe(), SUSPECT_PROBE_TIMEOUT_MS)
      .catch(() => this.lost(name, 'errors', err))
      .finally(() => (d.suspected = false));
  }

  /** A part of `name` (one connection, or `errors`) is lost: `name` is down until every lost part is back. */
  lost(name: DependencyName, part: string, err?: unknown): void {
    const d = this.deps.get(name);
    // Without a probe, only connection events say when it is back (Redis): errors alone do not mark it down.
    if (!d || this.closed || (part === 'errors' && !d.probe)) return;
    if (d.lost.size === 0) {
      d.since = Date.now();
      const why = err instanceof Error ? `: ${err.message.slice(0, 120)}` : '';
      if (this.log) console.warn(`[health] ${name} is unavailable${why}; requests that need it answer 503 until it is back`);
    }
    d.lost.add(part);
    this.anyDown = true;
    if (d.probe && !d.timer) this.startProbing(name, d);
  }

  /** A lost part of `name` is back. */
  back(name: DependencyName, part: string): void {
    const d = this.deps.get(name);
    if (!d || !d.lost.delete(part) || d.lost.size > 0) return;
    if (d.timer) {
      clearInterval(d.timer);
      d.timer = undefined;
    }
    if (this.log) console.warn(`[health] ${name} is back after ${Date.now() - d.since} ms`);
    this.anyDown = [...this.deps.values()].some((x) => x.lost.size > 0);
  }

  close(): void {
    this.closed = true;
    for (const d of this.deps.values()) {
      if (d.timer) clearInterval(d.timer);
      d.timer = undefined;
    }
  }

  private startProbing(name: DependencyName, d: Dep): void {
    let running = false;
    const probe = () => {
      if (running) return;
      running = true;
      withTimeout(d.probe!(), PROBE_TIMEOUT_MS)
        .then(
          () => this.back(name, 'errors'),
          () => {},
        )
        .finally(() => (running = false));
    };
    d.timer = setInterval(probe, PROBE_EVERY_MS);
    d.timer.unref();
    setImmediate(probe); // a blip (one connection killed) is over at the first probe
  }
}

/**
 * The one source of platform time. Dev mode may move it; nothing else reads Date.now(). Socket liveness (heartbeats,
 * resume windows) uses the monotonic performance.now() instead, so moving this clock never drops connections.
 */
export class Clock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  nowIso(): string {
    return new Date(this.now()).toISOString();
  }

  /** Moves the clock by a delta (never backwards past real time unless asked). */
  advance(ms: number): void {
    this.offsetMs += ms;
  }

  set(epochMs: number): void {
    this.offsetMs = epochMs - Date.now();
  }

  get offset(): number {
    return this.offsetMs;
  }
}

/**
 * The one source of platform time. Dev mode may move it; nothing else reads Date.now(). Socket liveness (heartbeats,
 * resume windows) uses the monotonic performance.now() instead, so moving this clock never drops connections.
 */
export class Clock {
  private offsetMs = 0;

  /** `frozenAt`: a clock that stands still at that time until moved (`--deterministic`), so two runs see the same times. */
  constructor(private readonly frozenAt: number | null = null) {}

  private base(): number {
    return this.frozenAt ?? Date.now();
  }

  now(): number {
    return this.base() + this.offsetMs;
  }

  nowIso(): string {
    return new Date(this.now()).toISOString();
  }

  /** Moves the clock by a delta (never backwards past real time unless asked). */
  advance(ms: number): void {
    this.offsetMs += ms;
  }

  set(epochMs: number): void {
    this.offsetMs = epochMs - this.base();
  }

  get offset(): number {
    return this.offsetMs;
  }
}

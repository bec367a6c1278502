/** The one source of "now". Dev mode may move it forward; nothing else reads Date.now(). */
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

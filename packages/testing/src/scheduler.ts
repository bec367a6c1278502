/** setTimeout's longest delay; a later job is re-armed until it is due. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface Job {
  at: number;
  run: () => unknown;
  timer: NodeJS.Timeout;
}

/**
 * Time for a bot under test that runs on the platform's clock: give the bot `now` and `schedule` in place of
 * `Date.now` and `setTimeout`. A job runs when its time comes, and at once when `accord.clock.advance` jumps past it.
 */
export class ClockScheduler {
  private readonly jobs = new Set<Job>();

  constructor(private offsetMs: number) {}

  /** The platform's time in epoch ms. */
  readonly now = (): number => Date.now() + this.offsetMs;

  /** Runs `job` once `now()` reaches `at`. */
  readonly schedule = (at: number, job: () => unknown): void => {
    const entry = { at, run: job } as Job;
    this.jobs.add(entry);
    this.arm(entry);
  };

  /** Jobs not run yet. */
  get pending(): number {
    return this.jobs.size;
  }

  /** @internal The clock moved: runs (and awaits) the jobs now due, in time order. */
  async moved(nowMs: number): Promise<void> {
    this.offsetMs = nowMs - Date.now();
    const due = [...this.jobs].filter((j) => j.at <= this.now()).sort((a, b) => a.at - b.at);
    for (const job of due) await this.run(job);
  }

  /** @internal */
  stop(): void {
    for (const job of this.jobs) clearTimeout(job.timer);
    this.jobs.clear();
  }

  private async run(job: Job): Promise<void> {
    if (!this.jobs.delete(job)) return;
    clearTimeout(job.timer);
    await job.run();
  }

  private arm(job: Job): void {
    job.timer = setTimeout(() => (job.at <= this.now() ? void this.run(job) : this.arm(job)), Math.min(Math.max(0, job.at - this.now()), MAX_TIMER_MS));
    job.timer.unref();
  }
}

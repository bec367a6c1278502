import type { Accord, Duration } from '@accord/testing';
import { MAX_TIMER_MS, type Scheduler } from '../../src/scheduler.ts';

interface Job {
  at: number;
  run: () => Promise<void>;
  timer: NodeJS.Timeout;
}

/** A scheduler on Accord's clock: give `now` and `schedule` to the bot, move time with `advance`. */
export interface ClockScheduler extends Scheduler {
  /** Moves Accord's clock forward, then runs (and awaits) the jobs that came due. */
  advance(by: Duration): Promise<Date>;
  /** Jobs not run yet. */
  readonly pending: number;
}

/**
 * The bot's clock is the platform's (the real time plus the offset dev mode adds), so a job also runs on its own
 * when its time comes without any `advance`; `advance` runs the jobs its jump made due at once.
 */
export async function clockScheduler(accord: Accord): Promise<ClockScheduler> {
  let offset = (await accord.clock.now()).getTime() - Date.now();
  const jobs = new Set<Job>();
  const now = () => Date.now() + offset;
  const run = async (job: Job) => {
    if (!jobs.delete(job)) return;
    clearTimeout(job.timer);
    await job.run();
  };
  const arm = (job: Job) => {
    job.timer = setTimeout(() => (job.at <= now() ? void run(job) : arm(job)), Math.min(Math.max(0, job.at - now()), MAX_TIMER_MS));
    job.timer.unref();
  };
  return {
    now,
    schedule(at, task) {
      const job = { at, run: task } as Job;
      jobs.add(job);
      arm(job);
    },
    async advance(by) {
      const to = await accord.clock.advance(by);
      offset = to.getTime() - Date.now();
      const due = [...jobs].filter((j) => j.at <= now()).sort((a, b) => a.at - b.at);
      for (const job of due) await run(job);
      return to;
    },
    get pending() {
      return jobs.size;
    },
  };
}

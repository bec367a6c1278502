/**
 * When the bot does something later. Injected so a test can drive time (the platform's clock in dev mode) instead of
 * waiting: `now` is the current time in epoch ms, `schedule` runs a job once `now()` reaches `at`.
 */
export interface Scheduler {
  now: () => number;
  schedule: (at: number, job: () => Promise<void>) => void;
}

/** setTimeout's longest delay; a later job is re-armed until it is due. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Production: the machine's clock and timers (jobs are lost on restart: a real bot would persist them). */
export const timerScheduler: Scheduler = {
  now: () => Date.now(),
  schedule(at, job) {
    const arm = () => {
      const wait = at - Date.now();
      if (wait > 0) setTimeout(arm, Math.min(wait, MAX_TIMER_MS));
      else job().catch((err) => console.error('remind-bot: a scheduled job failed:', err));
    };
    arm();
  },
};

import { ApiError } from '../../../core/errors.js';
import type { Repos } from '../../../store/repos/index.js';

/**
 * The platform's 200 application command creates per day (docs `interactions/application-commands.mdx`: per guild for
 * guild commands; global commands count per app). A create is a command that did not exist before (a POST that
 * overwrites a command of the same name and type, or a bulk PUT item matching an existing one, is an update and is
 * free). Deleting does not give a create back. The window is the last 24 hours of the platform clock, so moving the
 * dev clock a day ahead frees it.
 *
 * The answer is 429 with code 30034 and a `retry_after` until enough of the window's creates age out (reported as a
 * 429 in 2024, discord.js#10458; earlier reports show a 400 with the same code).
 */
export const DAILY_COMMAND_CREATES = 200;
const DAY_MS = 86_400_000;

export const dailyCreatesReached = (retryAfterS: number) =>
  new ApiError(429, 30034, 'Max number of daily application command creates has been reached (200)', undefined, {
    retry_after: Number(retryAfterS.toFixed(3)),
    global: false,
  });

const scopeOf = (guildId: string | null) => guildId ?? 'global';

/**
 * Checks that `count` more creates fit in the scope's window and records them; call it with the transaction (`tx`) that
 * writes the commands, so a refused request writes nothing.
 */
export async function spendDailyCreates(
  repos: Repos,
  ids: () => string,
  applicationId: string,
  guildId: string | null,
  count: number,
  now: number,
): Promise<void> {
  if (count <= 0) return;
  const scope = scopeOf(guildId);
  const since = now - DAY_MS;
  await repos.commands.forgetCreatesUntil(applicationId, scope, since);
  const recent = await repos.commands.createTimes(applicationId, scope);
  const over = recent.length + count - DAILY_COMMAND_CREATES;
  if (over > 0) {
    // The window frees `over` creates once its `over` oldest have aged out (more than the limit can never fit).
    const freedAt = count > DAILY_COMMAND_CREATES ? now + DAY_MS : recent[over - 1] + DAY_MS;
    throw dailyCreatesReached(Math.max(0, freedAt - now) / 1000);
  }
  await repos.commands.recordCreates(
    applicationId,
    scope,
    Array.from({ length: count }, () => ids()),
    now,
  );
}

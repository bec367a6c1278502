import type { Kysely } from 'kysely';
import type { DB } from '../../../store/schema.js';
import { ApiError } from '../../../core/errors.js';
import '../../../store/tables/fidelity-open-items.js';

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
  new ApiError(429, 30034, 'Max number of daily application command creates has been reached (200)', undefined, { retry_after: Number(retryAfterS.toFixed(3)), global: false });

const scopeOf = (guildId: string | null) => guildId ?? 'global';

/**
 * Checks that `count` more creates fit in the scope's window and records them; call it in the transaction that writes
 * the commands, so a refused request writes nothing.
 */
export async function spendDailyCreates(db: Kysely<DB>, ids: () => string, applicationId: string, guildId: string | null, count: number, now: number): Promise<void> {
  if (count <= 0) return;
  const scope = scopeOf(guildId);
  const since = now - DAY_MS;
  await db.deleteFrom('application_command_creates').where('application_id', '=', applicationId).where('scope', '=', scope).where('created_at', '<=', since).execute();
  const recent = await db.selectFrom('application_command_creates').select('created_at')
    .where('application_id', '=', applicationId).where('scope', '=', scope).orderBy('created_at').execute();
  const over = recent.length + count - DAILY_COMMAND_CREATES;
  if (over > 0) {
    // The window frees `over` creates once its `over` oldest have aged out (more than the limit can never fit).
    const freedAt = count > DAILY_COMMAND_CREATES ? now + DAY_MS : Number(recent[over - 1].created_at) + DAY_MS;
    throw dailyCreatesReached(Math.max(0, freedAt - now) / 1000);
  }
  await db.insertInto('application_command_creates')
    .values(Array.from({ length: count }, () => ({ id: ids(), application_id: applicationId, scope, created_at: now })))
    .execute();
}

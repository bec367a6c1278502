import type { Ctx } from '../context.js';
import '../../store/tables/social.js';

/** Whether an account is banned from the platform (its tokens are gone and it cannot log in until the ban lifts). */
export async function isAccountBanned(ctx: Ctx, userId: string): Promise<boolean> {
  return !!(await ctx.db.selectFrom('account_bans').select('user_id').where('user_id', '=', userId).executeTakeFirst());
}

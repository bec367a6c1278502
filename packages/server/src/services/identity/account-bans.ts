import type { Ctx } from '../context.js';

/** Whether an account is banned from the platform (its tokens are gone and it cannot log in until the ban lifts). */
export async function isAccountBanned(ctx: Ctx, userId: string): Promise<boolean> {
  return ctx.repos.auth.isBanned(userId);
}

import type { Ctx } from '../context.js';
import { Errors } from '../../core/errors.js';
import { isId } from '../../core/ids.js';
import { getUser } from './users.js';
import { listGrants, revokeAuthorization } from './oauth2/grants.js';
import { identitiesOfUser } from './provisional/accounts.js';
import { splitOff } from './provisional/merge.js';
import { isAccountBanned } from './account-bans.js';

/**
 * Platform bans of an account (the operator's or Trust & Safety's call; a dev route here). A ban deletes every token
 * of the account and ends its sessions; each app it authorized is deauthorized (APPLICATION_DEAUTHORIZED); the
 * external identities it had merged move to restricted provisional accounts, which keep playing but cannot merge
 * (530017) until the ban lifts. A banned account cannot log in.
 */
export async function banAccount(ctx: Ctx, userId: string, reason: string | null): Promise<void> {
  if (!isId(userId)) throw Errors.unknownUser();
  const user = await getUser(ctx, userId);
  if (!user || user.bot) throw Errors.unknownUser();
  if (await isAccountBanned(ctx, userId)) return;
  await ctx.repos.auth.insertBan(userId, reason, ctx.clock.now());
  const identities = await identitiesOfUser(ctx, userId);
  for (const appId of new Set(identities.map((i) => i.applicationId))) {
    await splitOff(
      ctx,
      appId,
      user,
      identities.filter((i) => i.applicationId === appId),
      userId,
    );
  }
  for (const g of await listGrants(ctx, userId)) await revokeAuthorization(ctx, g.applicationId, user);
  await ctx.repos.auth.revokeEverything(userId);
  ctx.bus.publish({ t: '__TOKENS_CHANGED', d: { user_id: userId } });
  ctx.bus.publish({ t: '__USER_SESSIONS_INVALIDATED', d: { user_id: userId } });
}

/** Lifts a ban: the account may log in again, and its restricted provisional accounts may merge. */
export async function liftBan(ctx: Ctx, userId: string): Promise<void> {
  if (!isId(userId)) throw Errors.unknownUser();
  await ctx.repos.auth.deleteBan(userId);
}

export { isAccountBanned };

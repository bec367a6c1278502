import type { Ctx } from '../context.js';
import type { UserRecord } from '../../store/records.js';
import { Errors, fieldError } from '../../core/errors.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { issueToken, revokeTokens } from './tokens.js';

/**
 * A password change (PATCH /users/@me with `password` and `new_password`), as the platform does it: the current
 * password must match; every user token of the account is revoked (other devices are logged out and their Gateway
 * sessions end with 4004 on every node) and a fresh token comes back. OAuth2 grants and their tokens are kept.
 */
export async function changePassword(ctx: Ctx, user: UserRecord, current: string | undefined, next: string): Promise<string> {
  if (user.bot) throw Errors.botsCannotUse();
  const hash = await ctx.repos.auth.passwordHash(user.id);
  if (!current || !(await verifyPassword(current, hash, ctx.config.passwordHashCost))) {
    throw fieldError('password', 'PASSWORD_DOES_NOT_MATCH', 'Password does not match.');
  }
  await ctx.repos.auth.setPasswordHash(user.id, await hashPassword(next, ctx.config.passwordHashCost));
  await revokeTokens(ctx, user.id, 'user');
  const token = await issueToken(ctx, user.id, 'user');
  ctx.bus.publish({ t: '__TOKENS_CHANGED', d: { user_id: user.id } });
  return token;
}

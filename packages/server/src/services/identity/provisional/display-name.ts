import { z } from 'zod';
import type { Actor, Ctx } from '../../context.js';
import { Errors } from '../../../core/errors.js';
import { updateUser } from '../users.js';
import { provisionalAccount } from './accounts.js';
import { ProvisionalErrors as PE } from './errors.js';
import { selfUser } from '../../../wire/user.js';

/** Body of PATCH /partner-sdk/provisional-accounts/@me (the SDK's UpdateProvisionalAccountDisplayName). */
export const DisplayNameBody = z.object({ display_name: z.string().trim().min(1).max(32) });

/**
 * A provisional account renames itself (its global name): the generated username means nothing to other players, so
 * the game sets the name the player is known by. Only the provisional account's own token of its app may; a platform
 * account keeps its name (530010, it is managed on the platform).
 */
export async function updateProvisionalDisplayName(ctx: Ctx, actor: Actor, name: string) {
  if (actor.kind !== 'bearer') throw Errors.unauthorized();
  const account = await provisionalAccount(ctx, actor.user.id);
  if (!account || account.applicationId !== actor.applicationId) throw PE.notProvisional();
  const user = await updateUser(ctx, actor.user, { global_name: name });
  return selfUser(user, { email: false, premium: false });
}

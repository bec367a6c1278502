import { RelationshipType as RT } from '@accord/protocol';
import type { Actor, Ctx } from '../../context.js';
import { Errors } from '../../../core/errors.js';
import { isId } from '../../../core/ids.js';
import { getUser } from '../../identity/users.js';
import { blockedBetween, gameRelationshipWire, RelationshipErrors as RE, type GameRelationship } from './model.js';

/**
 * Game friends: relationships inside one application (the SDK's SendGameFriendRequest and friends). Players of the
 * app, provisional or not, befriend each other by id or username; blocks (platform-wide) refuse requests.
 * GAME_RELATIONSHIP_ADD carries the relationship with its user; GAME_RELATIONSHIP_REMOVE `{id, application_id, type}`.
 */

/** The app behind the caller: game relationships are always some app's. */
export function gameAppOf(actor: Actor): string {
  if (actor.kind !== 'bearer' || !actor.applicationId) throw Errors.unauthorized();
  return actor.applicationId;
}

async function row(ctx: Ctx, appId: string, userId: string, otherId: string): Promise<GameRelationship | null> {
  return ctx.repos.relationships.gameGet(appId, userId, otherId);
}

async function writeRow(ctx: Ctx, r: GameRelationship): Promise<void> {
  await ctx.repos.relationships.gamePut(r);
  const other = await getUser(ctx, r.otherId);
  ctx.bus.publish({ t: 'GAME_RELATIONSHIP_ADD', d: gameRelationshipWire(r, other ?? undefined), user_ids: [r.userId] });
}

export async function dropGameRow(ctx: Ctx, appId: string, userId: string, otherId: string): Promise<void> {
  const r = await row(ctx, appId, userId, otherId);
  if (!r) return;
  await ctx.repos.relationships.gameDelete(appId, userId, otherId);
  ctx.bus.publish({ t: 'GAME_RELATIONSHIP_REMOVE', d: { id: otherId, application_id: appId, type: r.type }, user_ids: [userId] });
}

/** Sends a game friend request, or accepts the other player's. */
export async function requestGameFriend(ctx: Ctx, me: Actor, otherId: string): Promise<void> {
  const appId = gameAppOf(me);
  if (!isId(otherId)) throw Errors.unknownUser();
  if (otherId === me.user.id) throw RE.self();
  const other = await getUser(ctx, otherId);
  if (!other || other.bot) throw Errors.unknownUser();
  if (await blockedBetween(ctx, me.user.id, otherId)) throw RE.blocked();
  const mine = await row(ctx, appId, me.user.id, otherId);
  if (mine?.type === RT.FRIEND || mine?.type === RT.PENDING_OUTGOING) return;
  const now = ctx.clock.now();
  if (mine?.type === RT.PENDING_INCOMING) {
    await writeRow(ctx, { applicationId: appId, userId: me.user.id, otherId, type: RT.FRIEND, since: now });
    await writeRow(ctx, { applicationId: appId, userId: otherId, otherId: me.user.id, type: RT.FRIEND, since: now });
    return;
  }
  await writeRow(ctx, { applicationId: appId, userId: me.user.id, otherId, type: RT.PENDING_OUTGOING, since: now });
  await writeRow(ctx, { applicationId: appId, userId: otherId, otherId: me.user.id, type: RT.PENDING_INCOMING, since: now });
}

export async function requestGameFriendByName(ctx: Ctx, me: Actor, username: string): Promise<void> {
  const found = await ctx.repos.users.idByName(username, null);
  if (!found) throw RE.noSuchTag();
  await requestGameFriend(ctx, me, found);
}

/** Removes a game friend, cancels my request or rejects theirs: both rows go. */
export async function removeGameRelationship(ctx: Ctx, me: Actor, otherId: string): Promise<void> {
  const appId = gameAppOf(me);
  if (!isId(otherId)) throw Errors.unknownUser();
  if (!(await row(ctx, appId, me.user.id, otherId))) throw Errors.unknownUser();
  await dropGameRow(ctx, appId, me.user.id, otherId);
  await dropGameRow(ctx, appId, otherId, me.user.id);
}

/** A block ends game relationships of every app between the two (called from friends.ts through the bus). */
export async function dropGameRelationshipsBetween(ctx: Ctx, a: string, b: string): Promise<void> {
  const rows = await ctx.repos.relationships.gameBetween(a, b);
  for (const r of rows) await dropGameRow(ctx, r.applicationId, r.userId, r.otherId);
}

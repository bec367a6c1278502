import { RelationshipType as RT } from '@accord/protocol';
import type { Actor, Ctx } from '../../context.js';
import { Errors, fieldError } from '../../../core/errors.js';
import { isId } from '../../../core/ids.js';
import { getUser } from '../../identity/users.js';
import { provisionalIds } from '../../identity/provisional/accounts.js';
import { dropGameRelationshipsBetween } from './game.js';
import { MAX_FRIENDS, RelationshipErrors as RE, relationship, relationshipWire, type Relationship } from './model.js';

/**
 * Discord relationships (the official client's /users/@me/relationships routes): friend requests sent, accepted,
 * ignored and cancelled, friends removed, blocks, nicknames. Each side hears of its own row: RELATIONSHIP_ADD when a
 * row appears or changes type, RELATIONSHIP_UPDATE for a nickname, RELATIONSHIP_REMOVE when it goes. Provisional
 * accounts have no Discord relationships (they have game friends: game.ts), except blocks.
 */

async function writeRow(ctx: Ctx, r: Relationship): Promise<void> {
  await ctx.repos.relationships.put(r);
  const other = await getUser(ctx, r.otherId);
  ctx.bus.publish({ t: 'RELATIONSHIP_ADD', d: relationshipWire(r, other ?? undefined), user_ids: [r.userId] });
}

async function dropRow(ctx: Ctx, userId: string, otherId: string): Promise<void> {
  const r = await relationship(ctx, userId, otherId);
  if (!r) return;
  await ctx.repos.relationships.delete(userId, otherId);
  ctx.bus.publish({ t: 'RELATIONSHIP_REMOVE', d: { id: otherId, type: r.type, nickname: r.nickname }, user_ids: [userId] });
}

async function requireTarget(ctx: Ctx, me: Actor, otherId: string) {
  if (!isId(otherId)) throw Errors.unknownUser();
  if (otherId === me.user.id) throw RE.self();
  const other = await getUser(ctx, otherId);
  if (!other) throw Errors.unknownUser();
  return other;
}

async function friendCount(ctx: Ctx, userId: string): Promise<number> {
  return ctx.repos.relationships.countFriends(userId);
}

/**
 * Sends a friend request, or accepts the one the other user sent. Blocks either way refuse it (80000); a block of
 * mine is replaced by the request. Already friends or already requested: nothing changes.
 */
export async function requestFriend(ctx: Ctx, me: Actor, otherId: string): Promise<void> {
  const other = await requireTarget(ctx, me, otherId);
  if (other.bot || me.user.bot) throw RE.blocked();
  if ((await provisionalIds(ctx, [me.user.id, other.id])).size) throw RE.blocked();
  const mine = await relationship(ctx, me.user.id, other.id);
  const theirs = await relationship(ctx, other.id, me.user.id);
  if (theirs?.type === RT.BLOCKED) throw RE.blocked();
  if (mine?.type === RT.FRIEND || mine?.type === RT.PENDING_OUTGOING) return;
  const now = ctx.clock.now();
  if (mine?.type === RT.PENDING_INCOMING) {
    if ((await friendCount(ctx, me.user.id)) >= MAX_FRIENDS || (await friendCount(ctx, other.id)) >= MAX_FRIENDS) throw RE.maxFriends();
    await writeRow(ctx, { userId: me.user.id, otherId: other.id, type: RT.FRIEND, nickname: mine.nickname, since: now });
    await writeRow(ctx, { userId: other.id, otherId: me.user.id, type: RT.FRIEND, nickname: theirs?.nickname ?? null, since: now });
    return;
  }
  await writeRow(ctx, { userId: me.user.id, otherId: other.id, type: RT.PENDING_OUTGOING, nickname: null, since: now });
  await writeRow(ctx, { userId: other.id, otherId: me.user.id, type: RT.PENDING_INCOMING, nickname: null, since: now });
}

/** POST /users/@me/relationships `{username, discriminator?}`: a request by name (80004 when nobody has it). */
export async function requestFriendByName(ctx: Ctx, me: Actor, username: string, discriminator: string | null): Promise<void> {
  const found = await ctx.repos.users.idByName(username, discriminator);
  if (!found) throw RE.noSuchTag();
  await requestFriend(ctx, me, found);
}

/** Blocks a user: my row becomes BLOCKED; a friendship or pending request between us goes on their side too, and game friendships of every app end. */
export async function block(ctx: Ctx, me: Actor, otherId: string): Promise<void> {
  const other = await requireTarget(ctx, me, otherId);
  const mine = await relationship(ctx, me.user.id, other.id);
  if (mine?.type === RT.BLOCKED) return;
  const theirs = await relationship(ctx, other.id, me.user.id);
  if (theirs && theirs.type !== RT.BLOCKED) await dropRow(ctx, other.id, me.user.id);
  await writeRow(ctx, { userId: me.user.id, otherId: other.id, type: RT.BLOCKED, nickname: null, since: ctx.clock.now() });
  await dropGameRelationshipsBetween(ctx, me.user.id, other.id);
}

/** PUT /users/@me/relationships/{id} `{type?}`: 2 blocks, 1 or nothing sends (or accepts) a friend request. */
export async function putRelationship(ctx: Ctx, me: Actor, otherId: string, type: number | null | undefined): Promise<void> {
  if (type === RT.BLOCKED) return block(ctx, me, otherId);
  if (type != null && type !== RT.FRIEND) throw fieldError('type', 'BASE_TYPE_CHOICES', 'Value must be one of {1, 2}.');
  return requestFriend(ctx, me, otherId);
}

/**
 * DELETE /users/@me/relationships/{id}: removes a friend (both sides), cancels my request or ignores theirs (both
 * rows), or lifts my block (my row only). 10013 when there is nothing to remove.
 */
export async function removeRelationship(ctx: Ctx, me: Actor, otherId: string): Promise<void> {
  if (!isId(otherId)) throw Errors.unknownUser();
  const mine = await relationship(ctx, me.user.id, otherId);
  if (!mine) throw Errors.unknownUser();
  await dropRow(ctx, me.user.id, otherId);
  if (mine.type !== RT.BLOCKED) {
    const theirs = await relationship(ctx, otherId, me.user.id);
    if (theirs && theirs.type !== RT.BLOCKED) await dropRow(ctx, otherId, me.user.id);
  }
}

/** PATCH /users/@me/relationships/{id} `{nickname}`: a private name for a friend (RELATIONSHIP_UPDATE to me). */
export async function setNickname(ctx: Ctx, me: Actor, otherId: string, nickname: string | null): Promise<void> {
  if (!isId(otherId)) throw Errors.unknownUser();
  const mine = await relationship(ctx, me.user.id, otherId);
  if (!mine || mine.type !== RT.FRIEND) throw Errors.unknownUser();
  const value = nickname && nickname.trim() ? nickname.trim() : null;
  await ctx.repos.relationships.setNickname(me.user.id, otherId, value);
  ctx.bus.publish({ t: 'RELATIONSHIP_UPDATE', d: { id: otherId, type: mine.type, nickname: value }, user_ids: [me.user.id] });
}

export { relationshipList } from './model.js';

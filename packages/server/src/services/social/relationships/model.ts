import { RelationshipType as RT } from '@accord/protocol';
import type { Ctx } from '../../context.js';
import { ApiError } from '../../../core/errors.js';
import { toGameRelationship, toRelationship, type GameRelationship, type Relationship } from '../../../store/repos/relationships.js';
import type { UserRecord } from '../../../store/records.js';
import { publicUser } from '../../../wire/user.js';
import { getUsers } from '../../identity/users.js';

/**
 * Relationships as the official client has them: one row per direction (`user_id` sees `other_id` as FRIEND,
 * BLOCKED, PENDING_INCOMING or PENDING_OUTGOING), so a friendship is two FRIEND rows, a request an OUTGOING row and
 * its INCOMING twin, and a block one BLOCKED row on the blocker's side only. Game relationships are the same per
 * application, without blocks (a block is platform-wide).
 */
export type { GameRelationship, Relationship };
export { toGameRelationship, toRelationship };

export const RelationshipErrors = {
  blocked: () => new ApiError(400, 80000, 'Incoming friend requests disabled.'),
  self: () => new ApiError(400, 80003, 'Cannot send friend request to self.'),
  noSuchTag: () => new ApiError(400, 80004, 'No users with DiscordTag exist'),
  maxFriends: () => new ApiError(400, 30002, 'Maximum number of friends reached (1000)'),
};
export const MAX_FRIENDS = 1000;

export function relationshipWire(r: Relationship, user: UserRecord | undefined) {
  return {
    id: r.otherId,
    type: r.type,
    nickname: r.nickname,
    since: new Date(r.since).toISOString(),
    is_spam_request: false,
    user_ignored: false,
    ...(user ? { user: publicUser(user) } : {}),
  };
}

export function gameRelationshipWire(r: GameRelationship, user: UserRecord | undefined) {
  return { id: r.otherId, application_id: r.applicationId, type: r.type, since: new Date(r.since).toISOString(), ...(user ? { user: publicUser(user) } : {}) };
}

export async function relationshipsOf(ctx: Ctx, userId: string): Promise<Relationship[]> {
  return ctx.repos.relationships.of(userId);
}

export async function relationship(ctx: Ctx, userId: string, otherId: string): Promise<Relationship | null> {
  return ctx.repos.relationships.get(userId, otherId);
}

export async function gameRelationshipsOf(ctx: Ctx, userId: string, applicationId?: string): Promise<GameRelationship[]> {
  return ctx.repos.relationships.gameOf(userId, applicationId);
}

/** The wire list of a user's relationships (READY, GET /users/@me/relationships). */
export async function relationshipList(ctx: Ctx, userId: string) {
  const rows = await relationshipsOf(ctx, userId);
  const users = await getUsers(
    ctx,
    rows.map((r) => r.otherId),
  );
  return rows.map((r) => relationshipWire(r, users.get(r.otherId)));
}

export async function gameRelationshipList(ctx: Ctx, userId: string, applicationId: string) {
  const rows = await gameRelationshipsOf(ctx, userId, applicationId);
  const users = await getUsers(
    ctx,
    rows.map((r) => r.otherId),
  );
  return rows.map((r) => gameRelationshipWire(r, users.get(r.otherId)));
}

/** Whether either user blocked the other. */
export async function blockedBetween(ctx: Ctx, a: string, b: string): Promise<boolean> {
  return ctx.repos.relationships.blockedBetween(a, b);
}

/** Everyone who sees a user's presence beside guild members: Discord friends and game friends of any app. */
export async function presenceAudience(ctx: Ctx, userId: string): Promise<string[]> {
  return ctx.repos.relationships.presenceAudience(userId);
}

/** Whether two users are friends (Discord or game friends of `applicationId`). */
export async function areFriends(ctx: Ctx, a: string, b: string, applicationId?: string | null): Promise<boolean> {
  const r = await relationship(ctx, a, b);
  if (r?.type === RT.FRIEND) return true;
  if (!applicationId) return false;
  const g = await ctx.repos.relationships.gameGet(applicationId, a, b);
  return Number(g?.type) === RT.FRIEND;
}

import { RelationshipType as RT } from '@accord/protocol';
import type { Ctx } from '../../context.js';
import { ApiError } from '../../../core/errors.js';
import { id } from '../../../store/schema.js';
import '../../../store/tables/social.js';
import type { UserRecord } from '../../../store/records.js';
import { publicUser } from '../../../wire/user.js';
import { getUsers } from '../../identity/users.js';

/**
 * Relationships as the official client has them: one row per direction (`user_id` sees `other_id` as FRIEND,
 * BLOCKED, PENDING_INCOMING or PENDING_OUTGOING), so a friendship is two FRIEND rows, a request an OUTGOING row and
 * its INCOMING twin, and a block one BLOCKED row on the blocker's side only. Game relationships are the same per
 * application, without blocks (a block is platform-wide).
 */
export interface Relationship {
  userId: string;
  otherId: string;
  type: number;
  nickname: string | null;
  since: number;
}

export interface GameRelationship {
  applicationId: string;
  userId: string;
  otherId: string;
  type: number;
  since: number;
}

export const toRelationship = (r: any): Relationship => ({ userId: id(r.user_id), otherId: id(r.other_id), type: Number(r.type), nickname: r.nickname ?? null, since: Number(r.since) });
export const toGameRelationship = (r: any): GameRelationship => ({ applicationId: id(r.application_id), userId: id(r.user_id), otherId: id(r.other_id), type: Number(r.type), since: Number(r.since) });

export const RelationshipErrors = {
  blocked: () => new ApiError(400, 80000, 'Incoming friend requests disabled.'),
  self: () => new ApiError(400, 80003, 'Cannot send friend request to self.'),
  noSuchTag: () => new ApiError(400, 80004, 'No users with DiscordTag exist'),
  maxFriends: () => new ApiError(400, 30002, 'Maximum number of friends reached (1000)'),
};
export const MAX_FRIENDS = 1000;

export function relationshipWire(r: Relationship, user: UserRecord | undefined) {
  return {
    id: r.otherId, type: r.type, nickname: r.nickname, since: new Date(r.since).toISOString(), is_spam_request: false, user_ignored: false,
    ...(user ? { user: publicUser(user) } : {}),
  };
}

export function gameRelationshipWire(r: GameRelationship, user: UserRecord | undefined) {
  return { id: r.otherId, application_id: r.applicationId, type: r.type, since: new Date(r.since).toISOString(), ...(user ? { user: publicUser(user) } : {}) };
}

export async function relationshipsOf(ctx: Ctx, userId: string): Promise<Relationship[]> {
  return (await ctx.db.selectFrom('relationships').selectAll().where('user_id', '=', userId).orderBy('since').execute()).map(toRelationship);
}

export async function relationship(ctx: Ctx, userId: string, otherId: string): Promise<Relationship | null> {
  const r = await ctx.db.selectFrom('relationships').selectAll().where('user_id', '=', userId).where('other_id', '=', otherId).executeTakeFirst();
  return r ? toRelationship(r) : null;
}

export async function gameRelationshipsOf(ctx: Ctx, userId: string, applicationId?: string): Promise<GameRelationship[]> {
  let q = ctx.db.selectFrom('game_relationships').selectAll().where('user_id', '=', userId);
  if (applicationId) q = q.where('application_id', '=', applicationId);
  return (await q.orderBy('since').execute()).map(toGameRelationship);
}

/** The wire list of a user's relationships (READY, GET /users/@me/relationships). */
export async function relationshipList(ctx: Ctx, userId: string) {
  const rows = await relationshipsOf(ctx, userId);
  const users = await getUsers(ctx, rows.map((r) => r.otherId));
  return rows.map((r) => relationshipWire(r, users.get(r.otherId)));
}

export async function gameRelationshipList(ctx: Ctx, userId: string, applicationId: string) {
  const rows = await gameRelationshipsOf(ctx, userId, applicationId);
  const users = await getUsers(ctx, rows.map((r) => r.otherId));
  return rows.map((r) => gameRelationshipWire(r, users.get(r.otherId)));
}

/** Whether either user blocked the other. */
export async function blockedBetween(ctx: Ctx, a: string, b: string): Promise<boolean> {
  const row = await ctx.db.selectFrom('relationships').select('user_id')
    .where('type', '=', RT.BLOCKED)
    .where((eb) => eb.or([eb.and([eb('user_id', '=', a), eb('other_id', '=', b)]), eb.and([eb('user_id', '=', b), eb('other_id', '=', a)])]))
    .executeTakeFirst();
  return !!row;
}

/** Everyone who sees a user's presence beside guild members: Discord friends and game friends of any app. */
export async function presenceAudience(ctx: Ctx, userId: string): Promise<string[]> {
  const [friends, game] = await Promise.all([
    ctx.db.selectFrom('relationships').select('other_id').where('user_id', '=', userId).where('type', '=', RT.FRIEND).execute(),
    ctx.db.selectFrom('game_relationships').select('other_id').where('user_id', '=', userId).where('type', '=', RT.FRIEND).execute(),
  ]);
  return [...new Set([...friends, ...game].map((r) => id(r.other_id)))];
}

/** Whether two users are friends (Discord or game friends of `applicationId`). */
export async function areFriends(ctx: Ctx, a: string, b: string, applicationId?: string | null): Promise<boolean> {
  const r = await relationship(ctx, a, b);
  if (r?.type === RT.FRIEND) return true;
  if (!applicationId) return false;
  const g = await ctx.db.selectFrom('game_relationships').select('type').where('application_id', '=', applicationId)
    .where('user_id', '=', a).where('other_id', '=', b).executeTakeFirst();
  return Number(g?.type) === RT.FRIEND;
}

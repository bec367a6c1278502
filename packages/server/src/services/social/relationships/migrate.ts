import { RelationshipType as RT } from '@accord/protocol';
import type { Ctx } from '../../context.js';
import { getUser } from '../../identity/users.js';
import { gameRelationshipWire, relationshipWire } from './model.js';

/**
 * Moving a player's social graph between accounts: a provisional account merged into a platform account (everything
 * moves) and an unmerge (a new provisional account gets the app's share). Both sides of every moved relationship hear
 * of it: the other user gets REMOVE for the old id and ADD for the new one.
 */

async function announceRelationship(ctx: Ctx, holder: string, otherId: string, type: number, nickname: string | null, since: number) {
  const other = await getUser(ctx, otherId);
  ctx.bus.publish({ t: 'RELATIONSHIP_ADD', d: relationshipWire({ userId: holder, otherId, type, nickname, since }, other ?? undefined), user_ids: [holder] });
}

async function announceGame(ctx: Ctx, appId: string, holder: string, otherId: string, type: number, since: number) {
  const other = await getUser(ctx, otherId);
  ctx.bus.publish({
    t: 'GAME_RELATIONSHIP_ADD',
    d: gameRelationshipWire({ applicationId: appId, userId: holder, otherId, type, since }, other ?? undefined),
    user_ids: [holder],
  });
}

/** Moves every relationship and game relationship of `from` to `to` (existing ones of `to` win). */
export async function moveAllRelationships(ctx: Ctx, from: string, to: string): Promise<void> {
  const { own, seen } = await ctx.repos.relationships.involving(from);
  const has = await ctx.repos.relationships.otherIdsOf(to);
  await ctx.repos.relationships.deleteInvolving(from);
  for (const r of own) {
    if (r.otherId === to || has.has(r.otherId)) continue;
    await ctx.repos.relationships.insertIfAbsent({ userId: to, otherId: r.otherId, type: r.type, nickname: r.nickname, since: r.since });
  }
  for (const r of seen) {
    if (r.userId === to) continue;
    const inserted = await ctx.repos.relationships.insertIfAbsent({ userId: r.userId, otherId: to, type: r.type, nickname: r.nickname, since: r.since });
    ctx.bus.publish({ t: 'RELATIONSHIP_REMOVE', d: { id: from, type: r.type, nickname: r.nickname }, user_ids: [r.userId] });
    if (inserted) await announceRelationship(ctx, r.userId, to, r.type, r.nickname, r.since);
  }
  await moveGameRelationships(ctx, from, to, null);
}

/** Moves game relationships of `from` (of one app, or all) to `to`. */
export async function moveGameRelationships(ctx: Ctx, from: string, to: string, appId: string | null): Promise<void> {
  const { own, seen } = await ctx.repos.relationships.gameInvolving(from, appId);
  await ctx.repos.relationships.gameDeleteInvolving(from, appId);
  for (const r of own) {
    if (r.otherId === to) continue;
    await ctx.repos.relationships.gameInsertIfAbsent({ applicationId: r.applicationId, userId: to, otherId: r.otherId, type: r.type, since: r.since });
  }
  for (const r of seen) {
    if (r.userId === to) continue;
    const inserted = await ctx.repos.relationships.gameInsertIfAbsent({
      applicationId: r.applicationId,
      userId: r.userId,
      otherId: to,
      type: r.type,
      since: r.since,
    });
    ctx.bus.publish({ t: 'GAME_RELATIONSHIP_REMOVE', d: { id: from, application_id: r.applicationId, type: r.type }, user_ids: [r.userId] });
    if (inserted) await announceGame(ctx, r.applicationId, r.userId, to, r.type, r.since);
  }
}

/**
 * What an unmerge hands the new provisional account of an app: the app's game friends, the Discord friends who use
 * the app (as game friends), and the account's blocks (copied: the platform account keeps them too).
 */
export async function carryToProvisional(ctx: Ctx, appId: string, full: string, prov: string): Promise<void> {
  await moveGameRelationships(ctx, full, prov, appId);
  const now = ctx.clock.now();
  const friends = await ctx.repos.relationships.friendIds(full);
  if (friends.length) {
    const players = await ctx.repos.oauth.usersWithGrant(appId, friends);
    for (const f of friends.filter((x) => players.has(x))) {
      for (const [a, b] of [
        [prov, f],
        [f, prov],
      ]) {
        const inserted = await ctx.repos.relationships.gameInsertIfAbsent({ applicationId: appId, userId: a, otherId: b, type: RT.FRIEND, since: now });
        if (inserted) await announceGame(ctx, appId, a, b, RT.FRIEND, now);
      }
    }
  }
  const blocks = await ctx.repos.relationships.blocksOf(full);
  for (const b of blocks) {
    await ctx.repos.relationships.insertIfAbsent({ userId: prov, otherId: b.otherId, type: RT.BLOCKED, nickname: null, since: b.since });
  }
}

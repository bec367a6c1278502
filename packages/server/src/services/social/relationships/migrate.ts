import { RelationshipType as RT } from '@accord/protocol';
import type { Ctx } from '../../context.js';
import { id } from '../../../store/schema.js';
import '../../../store/tables/social.js';
import '../../../store/tables/lobbies.js';
import { getUser } from '../../identity/users.js';
import { gameRelationshipWire, relationshipWire, toGameRelationship, toRelationship } from './model.js';

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
  ctx.bus.publish({ t: 'GAME_RELATIONSHIP_ADD', d: gameRelationshipWire({ applicationId: appId, userId: holder, otherId, type, since }, other ?? undefined), user_ids: [holder] });
}

/** Moves every relationship and game relationship of `from` to `to` (existing ones of `to` win). */
export async function moveAllRelationships(ctx: Ctx, from: string, to: string): Promise<void> {
  const own = (await ctx.db.selectFrom('relationships').selectAll().where('user_id', '=', from).execute()).map(toRelationship);
  const seen = (await ctx.db.selectFrom('relationships').selectAll().where('other_id', '=', from).execute()).map(toRelationship);
  const has = new Set((await ctx.db.selectFrom('relationships').select('other_id').where('user_id', '=', to).execute()).map((r) => id(r.other_id)));
  await ctx.db.deleteFrom('relationships').where((eb) => eb.or([eb('user_id', '=', from), eb('other_id', '=', from)])).execute();
  for (const r of own) {
    if (r.otherId === to || has.has(r.otherId)) continue;
    await ctx.db.insertInto('relationships').values({ user_id: to, other_id: r.otherId, type: r.type, nickname: r.nickname, since: r.since }).onConflict((oc) => oc.doNothing()).execute();
  }
  for (const r of seen) {
    if (r.userId === to) continue;
    const res = await ctx.db.insertInto('relationships').values({ user_id: r.userId, other_id: to, type: r.type, nickname: r.nickname, since: r.since }).onConflict((oc) => oc.doNothing()).executeTakeFirst();
    ctx.bus.publish({ t: 'RELATIONSHIP_REMOVE', d: { id: from, type: r.type, nickname: r.nickname }, user_ids: [r.userId] });
    if (Number(res.numInsertedOrUpdatedRows ?? 0)) await announceRelationship(ctx, r.userId, to, r.type, r.nickname, r.since);
  }
  await moveGameRelationships(ctx, from, to, null);
}

/** Moves game relationships of `from` (of one app, or all) to `to`. */
export async function moveGameRelationships(ctx: Ctx, from: string, to: string, appId: string | null): Promise<void> {
  const scope = <Q extends { where: any }>(q: Q): Q => (appId ? q.where('application_id', '=', appId) : q);
  const own = (await scope(ctx.db.selectFrom('game_relationships').selectAll().where('user_id', '=', from)).execute()).map(toGameRelationship);
  const seen = (await scope(ctx.db.selectFrom('game_relationships').selectAll().where('other_id', '=', from)).execute()).map(toGameRelationship);
  await scope(ctx.db.deleteFrom('game_relationships').where((eb) => eb.or([eb('user_id', '=', from), eb('other_id', '=', from)]))).execute();
  for (const r of own) {
    if (r.otherId === to) continue;
    await ctx.db.insertInto('game_relationships').values({ application_id: r.applicationId, user_id: to, other_id: r.otherId, type: r.type, since: r.since }).onConflict((oc) => oc.doNothing()).execute();
  }
  for (const r of seen) {
    if (r.userId === to) continue;
    const res = await ctx.db.insertInto('game_relationships').values({ application_id: r.applicationId, user_id: r.userId, other_id: to, type: r.type, since: r.since }).onConflict((oc) => oc.doNothing()).executeTakeFirst();
    ctx.bus.publish({ t: 'GAME_RELATIONSHIP_REMOVE', d: { id: from, application_id: r.applicationId, type: r.type }, user_ids: [r.userId] });
    if (Number(res.numInsertedOrUpdatedRows ?? 0)) await announceGame(ctx, r.applicationId, r.userId, to, r.type, r.since);
  }
}

/**
 * What an unmerge hands the new provisional account of an app: the app's game friends, the Discord friends who use
 * the app (as game friends), and the account's blocks (copied: the platform account keeps them too).
 */
export async function carryToProvisional(ctx: Ctx, appId: string, full: string, prov: string): Promise<void> {
  await moveGameRelationships(ctx, full, prov, appId);
  const now = ctx.clock.now();
  const friends = (await ctx.db.selectFrom('relationships').select('other_id').where('user_id', '=', full).where('type', '=', RT.FRIEND).execute()).map((r) => id(r.other_id));
  if (friends.length) {
    const players = new Set((await ctx.db.selectFrom('oauth_grants').select('user_id').where('application_id', '=', appId).where('user_id', 'in', friends).execute()).map((r) => id(r.user_id)));
    for (const f of friends.filter((x) => players.has(x))) {
      for (const [a, b] of [[prov, f], [f, prov]]) {
        const res = await ctx.db.insertInto('game_relationships').values({ application_id: appId, user_id: a, other_id: b, type: RT.FRIEND, since: now }).onConflict((oc) => oc.doNothing()).executeTakeFirst();
        if (Number(res.numInsertedOrUpdatedRows ?? 0)) await announceGame(ctx, appId, a, b, RT.FRIEND, now);
      }
    }
  }
  const blocks = await ctx.db.selectFrom('relationships').select(['other_id', 'since']).where('user_id', '=', full).where('type', '=', RT.BLOCKED).execute();
  for (const b of blocks) {
    await ctx.db.insertInto('relationships').values({ user_id: prov, other_id: id(b.other_id), type: RT.BLOCKED, nickname: null, since: Number(b.since) }).onConflict((oc) => oc.doNothing()).execute();
  }
}

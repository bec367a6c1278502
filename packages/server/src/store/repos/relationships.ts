import { Repo } from './repo.js';
import { RelationshipType as RT } from '@accord/protocol';
import '../tables/social.js';
import { id } from '../schema.js';

/**
 * One relationship row per direction: `userId` sees `otherId` as FRIEND, BLOCKED, PENDING_INCOMING or PENDING_OUTGOING.
 * Game relationships are the same per application, without blocks.
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

export const toRelationship = (r: any): Relationship => ({
  userId: id(r.user_id),
  otherId: id(r.other_id),
  type: Number(r.type),
  nickname: r.nickname ?? null,
  since: Number(r.since),
});
export const toGameRelationship = (r: any): GameRelationship => ({
  applicationId: id(r.application_id),
  userId: id(r.user_id),
  otherId: id(r.other_id),
  type: Number(r.type),
  since: Number(r.since),
});

/** Relationships (friends, blocks, requests) and game friends. */
export class RelationshipsRepo extends Repo {
  /** A user's relationships, oldest first. */
  async of(userId: string): Promise<Relationship[]> {
    return (await this.db.selectFrom('relationships').selectAll().where('user_id', '=', userId).orderBy('since').execute()).map(toRelationship);
  }

  /** How `userId` sees `otherId`, or null. */
  async get(userId: string, otherId: string): Promise<Relationship | null> {
    const r = await this.db.selectFrom('relationships').selectAll().where('user_id', '=', userId).where('other_id', '=', otherId).executeTakeFirst();
    return r ? toRelationship(r) : null;
  }

  /** Writes one direction of a relationship (replacing its type, nickname and since). */
  async put(r: Relationship): Promise<void> {
    const values = { type: r.type, nickname: r.nickname, since: r.since };
    await this.db
      .insertInto('relationships')
      .values({ user_id: r.userId, other_id: r.otherId, ...values })
      .onConflict((oc) => oc.columns(['user_id', 'other_id']).doUpdateSet(values))
      .execute();
  }

  /** Removes one direction of a relationship. */
  async delete(userId: string, otherId: string): Promise<void> {
    await this.db.deleteFrom('relationships').where('user_id', '=', userId).where('other_id', '=', otherId).execute();
  }

  /** How many friends a user has. */
  async countFriends(userId: string): Promise<number> {
    const r = await this.db
      .selectFrom('relationships')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('type', '=', RT.FRIEND)
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  /** Sets the private name `userId` gives `otherId`. */
  async setNickname(userId: string, otherId: string, nickname: string | null): Promise<void> {
    await this.db.updateTable('relationships').set({ nickname }).where('user_id', '=', userId).where('other_id', '=', otherId).execute();
  }

  /** Whether either user blocked the other. */
  async blockedBetween(a: string, b: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('relationships')
      .select('user_id')
      .where('type', '=', RT.BLOCKED)
      .where((eb) => eb.or([eb.and([eb('user_id', '=', a), eb('other_id', '=', b)]), eb.and([eb('user_id', '=', b), eb('other_id', '=', a)])]))
      .executeTakeFirst();
    return !!row;
  }

  /** The ids of a user's Discord friends and game friends of any app (who see their presence beside guild members). */
  async presenceAudience(userId: string): Promise<string[]> {
    const [friends, game] = await Promise.all([
      this.db.selectFrom('relationships').select('other_id').where('user_id', '=', userId).where('type', '=', RT.FRIEND).execute(),
      this.db.selectFrom('game_relationships').select('other_id').where('user_id', '=', userId).where('type', '=', RT.FRIEND).execute(),
    ]);
    return [...new Set([...friends, ...game].map((r) => id(r.other_id)))];
  }

  /** The ids of a user's Discord friends. */
  async friendIds(userId: string): Promise<string[]> {
    return (await this.db.selectFrom('relationships').select('other_id').where('user_id', '=', userId).where('type', '=', RT.FRIEND).execute()).map((r) =>
      id(r.other_id),
    );
  }

  /** The users a user blocked, with when. */
  async blocksOf(userId: string): Promise<{ otherId: string; since: number }[]> {
    const rows = await this.db.selectFrom('relationships').select(['other_id', 'since']).where('user_id', '=', userId).where('type', '=', RT.BLOCKED).execute();
    return rows.map((b) => ({ otherId: id(b.other_id), since: Number(b.since) }));
  }

  /** A user's rows (`own`) and the rows about them (`seen`). */
  async involving(userId: string): Promise<{ own: Relationship[]; seen: Relationship[] }> {
    const own = (await this.db.selectFrom('relationships').selectAll().where('user_id', '=', userId).execute()).map(toRelationship);
    const seen = (await this.db.selectFrom('relationships').selectAll().where('other_id', '=', userId).execute()).map(toRelationship);
    return { own, seen };
  }

  /** The ids of everyone a user has a relationship row for. */
  async otherIdsOf(userId: string): Promise<Set<string>> {
    return new Set((await this.db.selectFrom('relationships').select('other_id').where('user_id', '=', userId).execute()).map((r) => id(r.other_id)));
  }

  /** Deletes every relationship row of or about a user. */
  async deleteInvolving(userId: string): Promise<void> {
    await this.db
      .deleteFrom('relationships')
      .where((eb) => eb.or([eb('user_id', '=', userId), eb('other_id', '=', userId)]))
      .execute();
  }

  /** Inserts a relationship row unless that direction exists; true when it was inserted. */
  async insertIfAbsent(r: Relationship): Promise<boolean> {
    const res = await this.db
      .insertInto('relationships')
      .values({ user_id: r.userId, other_id: r.otherId, type: r.type, nickname: r.nickname, since: r.since })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** A user's game relationships, of one app or of all, oldest first. */
  async gameOf(userId: string, applicationId?: string): Promise<GameRelationship[]> {
    let q = this.db.selectFrom('game_relationships').selectAll().where('user_id', '=', userId);
    if (applicationId) q = q.where('application_id', '=', applicationId);
    return (await q.orderBy('since').execute()).map(toGameRelationship);
  }

  /** How `userId` sees `otherId` in an app, or null. */
  async gameGet(applicationId: string, userId: string, otherId: string): Promise<GameRelationship | null> {
    const r = await this.db
      .selectFrom('game_relationships')
      .selectAll()
      .where('application_id', '=', applicationId)
      .where('user_id', '=', userId)
      .where('other_id', '=', otherId)
      .executeTakeFirst();
    return r ? toGameRelationship(r) : null;
  }

  /** Writes one direction of a game relationship (replacing its type and since). */
  async gamePut(r: GameRelationship): Promise<void> {
    const values = { type: r.type, since: r.since };
    await this.db
      .insertInto('game_relationships')
      .values({ application_id: r.applicationId, user_id: r.userId, other_id: r.otherId, ...values })
      .onConflict((oc) => oc.columns(['application_id', 'user_id', 'other_id']).doUpdateSet(values))
      .execute();
  }

  /** Removes one direction of a game relationship. */
  async gameDelete(applicationId: string, userId: string, otherId: string): Promise<void> {
    await this.db
      .deleteFrom('game_relationships')
      .where('application_id', '=', applicationId)
      .where('user_id', '=', userId)
      .where('other_id', '=', otherId)
      .execute();
  }

  /** Every game relationship row between two users, both directions, of every app. */
  async gameBetween(a: string, b: string): Promise<GameRelationship[]> {
    const rows = await this.db
      .selectFrom('game_relationships')
      .selectAll()
      .where((eb) => eb.or([eb.and([eb('user_id', '=', a), eb('other_id', '=', b)]), eb.and([eb('user_id', '=', b), eb('other_id', '=', a)])]))
      .execute();
    return rows.map(toGameRelationship);
  }

  /** A user's game rows (`own`) and the game rows about them (`seen`), of one app or of all. */
  async gameInvolving(userId: string, applicationId: string | null): Promise<{ own: GameRelationship[]; seen: GameRelationship[] }> {
    let ownQ = this.db.selectFrom('game_relationships').selectAll().where('user_id', '=', userId);
    let seenQ = this.db.selectFrom('game_relationships').selectAll().where('other_id', '=', userId);
    if (applicationId) {
      ownQ = ownQ.where('application_id', '=', applicationId);
      seenQ = seenQ.where('application_id', '=', applicationId);
    }
    return { own: (await ownQ.execute()).map(toGameRelationship), seen: (await seenQ.execute()).map(toGameRelationship) };
  }

  /** Deletes every game relationship row of or about a user, of one app or of all. */
  async gameDeleteInvolving(userId: string, applicationId: string | null): Promise<void> {
    let q = this.db.deleteFrom('game_relationships').where((eb) => eb.or([eb('user_id', '=', userId), eb('other_id', '=', userId)]));
    if (applicationId) q = q.where('application_id', '=', applicationId);
    await q.execute();
  }

  /** Inserts a game relationship row unless that direction exists; true when it was inserted. */
  async gameInsertIfAbsent(r: GameRelationship): Promise<boolean> {
    const res = await this.db
      .insertInto('game_relationships')
      .values({ application_id: r.applicationId, user_id: r.userId, other_id: r.otherId, type: r.type, since: r.since })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
  }
}

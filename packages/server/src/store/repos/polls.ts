import { Repo } from './repo.js';
import type { Kysely } from 'kysely';
import type { DB } from '../schema.js';

/** Poll votes (the poll itself lives in its message's `extra.poll`). */
export class PollsRepo extends Repo {
  /** Vote counts per answer id of a poll. */
  async counts(messageId: string): Promise<Map<number, number>> {
    const rows = await this.db
      .selectFrom('poll_votes')
      .select((eb) => ['answer_id', eb.fn.countAll<number>().as('n')])
      .where('message_id', '=', messageId)
      .groupBy('answer_id')
      .execute();
    return new Map(rows.map((r) => [Number(r.answer_id), Number(r.n)]));
  }

  /** The answers a user voted for. */
  async votesOf(messageId: string, userId: string): Promise<number[]> {
    return (await this.db.selectFrom('poll_votes').select('answer_id').where('message_id', '=', messageId).where('user_id', '=', userId).execute()).map((r) =>
      Number(r.answer_id),
    );
  }

  /** Removes some of a user's votes and adds others, in one transaction. */
  async changeVotes(messageId: string, userId: string, removed: number[], added: number[], at: number): Promise<void> {
    const write = async (db: Kysely<DB>) => {
      if (removed.length)
        await db.deleteFrom('poll_votes').where('message_id', '=', messageId).where('user_id', '=', userId).where('answer_id', 'in', removed).execute();
      if (added.length)
        await db
          .insertInto('poll_votes')
          .values(added.map((a) => ({ message_id: messageId, answer_id: a, user_id: userId, created_at: at })))
          .execute();
    };
    if (this.db.isTransaction) return write(this.db);
    await this.db.transaction().execute((trx) => write(trx));
  }

  /** Ids of an answer's voters, by id, after `after`. */
  async voterIds(messageId: string, answerId: number, q: { after?: string; limit: number }): Promise<string[]> {
    let sel = this.db.selectFrom('poll_votes').select('user_id').where('message_id', '=', messageId).where('answer_id', '=', answerId);
    if (q.after) sel = sel.where('user_id', '>', q.after);
    return (await sel.orderBy('user_id').limit(q.limit).execute()).map((r) => String(r.user_id));
  }

  /** Deletes the poll votes on every message of a guild. */
  async deleteVotesInGuild(guildId: string): Promise<void> {
    await this.db
      .deleteFrom('poll_votes')
      .where('message_id', 'in', this.db.selectFrom('messages').select('id').where('guild_id', '=', guildId))
      .execute();
  }
}

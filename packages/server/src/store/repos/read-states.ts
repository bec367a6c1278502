import { sql } from 'kysely';
import { Repo } from './repo.js';
import { id, idOrNull } from '../schema.js';
import '../tables/read-states.js';

/** One person's read state in one channel, as stored. */
export interface ReadStateRecord {
  channel_id: string;
  last_message_id: string | null;
  manual_mention_count: number | null;
  last_pin_timestamp: number | null;
  flags: number;
  version: number;
}

/** What a mention count needs of a message read past a read state. */
export interface MentionCandidate {
  mentions: string[];
  mention_roles: string[];
  mention_everyone: boolean;
}

const parseIds = (v: unknown): string[] => {
  try {
    const a = JSON.parse(String(v ?? '[]'));
    return Array.isArray(a) ? a.map(String) : [];
  } catch {
    return [];
  }
};

/** Read states, one row per (user, channel), written by acks only. */
export class ReadStatesRepo extends Repo {
  /** Every read state of a user (READY). */
  async ofUser(userId: string): Promise<ReadStateRecord[]> {
    const rows = await this.db.selectFrom('read_states').selectAll().where('user_id', '=', userId).execute();
    return rows.map((r) => ({
      channel_id: id(r.channel_id),
      last_message_id: idOrNull(r.last_message_id),
      manual_mention_count: r.manual_mention_count == null ? null : Number(r.manual_mention_count),
      last_pin_timestamp: r.last_pin_timestamp == null ? null : Number(r.last_pin_timestamp),
      flags: Number(r.flags),
      version: Number(r.version),
    }));
  }

  /** Moves a read state to `lastMessageId` (creating it) and returns its new version. */
  async ack(userId: string, channelId: string, lastMessageId: string, manualMentionCount: number | null): Promise<number> {
    const row = await this.db
      .insertInto('read_states')
      .values({ user_id: userId, channel_id: channelId, last_message_id: lastMessageId, manual_mention_count: manualMentionCount, flags: 0, version: 1 })
      .onConflict((oc) =>
        oc.columns(['user_id', 'channel_id']).doUpdateSet({
          last_message_id: lastMessageId,
          manual_mention_count: manualMentionCount,
          version: sql<number>`read_states.version + 1`,
        }),
      )
      .returning('version')
      .executeTakeFirst();
    return Number(row?.version ?? 1);
  }

  /**
   * The newest `limit` messages of a channel after `afterId` (all when null) by others than `userId`, ephemeral ones
   * left out: what a mention count is computed from.
   */
  async after(channelId: string, afterId: string | null, userId: string, limit: number): Promise<MentionCandidate[]> {
    let q = this.db
      .selectFrom('messages')
      .select(['mentions', 'mention_roles', 'mention_everyone'])
      .where('channel_id', '=', channelId)
      .where('author_id', '!=', userId)
      .where(sql<number>`flags & 64`, '=', 0);
    if (afterId) q = q.where('id', '>', afterId);
    const rows = await q.orderBy('id', 'desc').limit(limit).execute();
    return rows.map((r) => ({
      mentions: parseIds(r.mentions),
      mention_roles: parseIds(r.mention_roles),
      mention_everyone: Boolean(Number(r.mention_everyone)),
    }));
  }
}

import { Repo } from './repo.js';
import type { Kysely } from 'kysely';
import type { DB } from '../schema.js';
import { toMessage } from './mappers.js';
import type { MessageRecord } from '../records.js';

/** Messages: the hot write path (one commit for concurrent creates), pages, edits, deletes. */
export class MessagesRepo extends Repo {
  /** One message by id (of any channel), or null. */
  async byId(id: string): Promise<MessageRecord | null> {
    const row = await this.db.selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toMessage(row) : null;
  }

  /** Overwrites a message's flags and `extra` (nothing else, no event). */
  async setFlagsAndExtra(id: string, flags: number, extra: Record<string, unknown>): Promise<void> {
    await this.db.updateTable('messages').set({ flags, extra: JSON.stringify(extra) }).where('id', '=', id).execute();
  }

  /** Deletes messages with their reactions and stored files (`fileIds`), in one transaction. */
  async deleteWithReactionsAndFiles(ids: string[], fileIds: string[]): Promise<void> {
    const purge = async (db: Kysely<DB>) => {
      await db.deleteFrom('reactions').where('message_id', 'in', ids).execute();
      if (fileIds.length) await db.deleteFrom('files').where('id', 'in', fileIds).execute();
      await db.deleteFrom('messages').where('id', 'in', ids).execute();
    };
    if (this.db.isTransaction) return purge(this.db);
    await this.db.transaction().execute((trx) => purge(trx));
  }
}

import { Repo } from './repo.js';

/** Messages: the hot write path (one commit for concurrent creates), pages, edits, deletes. */
export class MessagesRepo extends Repo {
  /** The channel of a message marked with this app's id (its game DMs among them), or null: other messages are not the app's. */
  async channelOfAppMessage(messageId: string, applicationId: string): Promise<string | null> {
    const row = await this.db.selectFrom('messages').select('channel_id').where('id', '=', messageId).where('application_id', '=', applicationId).executeTakeFirst();
    return row ? String(row.channel_id) : null;
  }
}

import { Repo } from './repo.js';
import { toApplication } from './mappers.js';
import type { ApplicationRecord } from '../records.js';

/** Applications, their bots, installs to guilds and users, and role connections. */
export class ApplicationsRepo extends Repo {
  /** One application, or null. */
  async byId(id: string): Promise<ApplicationRecord | null> {
    const row = await this.db.selectFrom('applications').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toApplication(row) : null;
  }

  /** The application whose bot user this is, or null. */
  async ofBot(botUserId: string): Promise<ApplicationRecord | null> {
    const row = await this.db.selectFrom('applications').selectAll().where('bot_user_id', '=', botUserId).executeTakeFirst();
    return row ? toApplication(row) : null;
  }
}

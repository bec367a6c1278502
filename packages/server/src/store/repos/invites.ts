import { Repo } from './repo.js';
import type { InvitesTable } from '../schema.js';

/** Invites and their target users. */
export class InvitesRepo extends Repo {

  /** Whether an invite code is taken. */
  async codeExists(code: string): Promise<boolean> {
    return !!(await this.db.selectFrom('invites').select('code').where('code', '=', code).executeTakeFirst());
  }

  /** Inserts an invite row (the code must be free). */
  async insertInvite(row: InvitesTable): Promise<void> {
    await this.db.insertInto('invites').values(row).execute();
  }
}

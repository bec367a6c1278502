import { Repo } from './repo.js';

/** OAuth2 grants, authorization and device codes, and signing keys. */
export class OAuthRepo extends Repo {

  /** Those among `userIds` who granted this application (its players). */
  async usersWithGrant(applicationId: string, userIds: string[]): Promise<Set<string>> {
    if (!userIds.length) return new Set();
    return new Set((await this.db.selectFrom('oauth_grants').select('user_id').where('application_id', '=', applicationId).where('user_id', 'in', userIds).execute()).map((r) => String(r.user_id)));
  }
}

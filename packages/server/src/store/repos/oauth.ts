import { Repo } from './repo.js';
import { parseJson } from '../json.js';

/** OAuth2 grants, authorization and device codes, and signing keys. */
export class OAuthRepo extends Repo {
  /** The parsed data of one oauth_codes row, by its hash, or null when there is none. */
  async codeDataByHash<D>(hash: string): Promise<D | null> {
    const row = await this.db.selectFrom('oauth_codes').select('data').where('hash', '=', hash).executeTakeFirst();
    return row ? parseJson<D | null>(row.data, null) : null;
  }

  /** Replaces the data of one oauth_codes row, by its hash; false when the row is gone. */
  async setCodeDataByHash(hash: string, data: unknown): Promise<boolean> {
    const res = await this.db.updateTable('oauth_codes').set({ data: JSON.stringify(data) }).where('hash', '=', hash).executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** Revokes what one authorization code issued: its lineage row first, then these access tokens and refresh tokens. */
  async revokeIssued(lineageHash: string, accessHashes: string[], codeHashes: string[]): Promise<void> {
    await this.db.deleteFrom('oauth_codes').where('hash', '=', lineageHash).execute();
    if (accessHashes.length) await this.db.deleteFrom('tokens').where('kind', '=', 'bearer').where('hash', 'in', accessHashes).execute();
    if (codeHashes.length) await this.db.deleteFrom('oauth_codes').where('hash', 'in', codeHashes).execute();
  }
}

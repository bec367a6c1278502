import { Repo } from './repo.js';
import { parseJson } from '../json.js';

/** A stored OAuth2 code or refresh token (by the hash of its secret); `data` is JSON text. */
export interface OAuthCodeRecord {
  kind: string;
  applicationId: string;
  userId: string | null;
  data: string;
  expiresAt: number;
}
/** A user's authorization of an app, as stored (`scopes` space-separated). */
export interface OAuthGrantRecord {
  applicationId: string;
  userId: string;
  scopes: string;
  integrationType: number | null;
  createdAt: number;
}
/** A signing key of the server (ID tokens). */
export interface OAuthKeyRecord {
  kid: string;
  alg: string;
  privateKey: string;
  publicJwk: string;
  createdAt: number;
}
const toGrant = (r: any): OAuthGrantRecord => ({
  applicationId: String(r.application_id),
  userId: String(r.user_id),
  scopes: r.scopes,
  integrationType: r.integration_type == null ? null : Number(r.integration_type),
  createdAt: Number(r.created_at),
});
const toKey = (r: any): OAuthKeyRecord => ({ kid: r.kid, alg: r.alg, privateKey: r.private_key, publicJwk: r.public_jwk, createdAt: Number(r.created_at) });

/** OAuth2 grants, authorization and device codes, and signing keys. */
export class OAuthRepo extends Repo {
  /** Those among `userIds` who granted this application (its players). */
  async usersWithGrant(applicationId: string, userIds: string[]): Promise<Set<string>> {
    if (!userIds.length) return new Set();
    return new Set(
      (await this.db.selectFrom('oauth_grants').select('user_id').where('application_id', '=', applicationId).where('user_id', 'in', userIds).execute()).map(
        (r) => String(r.user_id),
      ),
    );
  }

  /** Stores a code under its hash, first dropping every expired code (housekeeping without a worker). */
  async putCode(hash: string, code: OAuthCodeRecord, now: number): Promise<void> {
    await this.db.deleteFrom('oauth_codes').where('expires_at', '<=', now).execute();
    await this.db
      .insertInto('oauth_codes')
      .values({
        hash,
        kind: code.kind,
        application_id: code.applicationId,
        user_id: code.userId,
        data: code.data,
        expires_at: code.expiresAt,
      })
      .execute();
  }

  /** The code stored under this hash (expired or not), or null. */
  async codeByHash(hash: string): Promise<OAuthCodeRecord | null> {
    const row = await this.db.selectFrom('oauth_codes').selectAll().where('hash', '=', hash).executeTakeFirst();
    return row
      ? {
          kind: row.kind,
          applicationId: String(row.application_id),
          userId: row.user_id == null ? null : String(row.user_id),
          data: row.data,
          expiresAt: Number(row.expires_at),
        }
      : null;
  }

  /** Deletes the code under this hash; true for the one caller that actually deleted it. */
  async takeCode(hash: string): Promise<boolean> {
    const res = await this.db.deleteFrom('oauth_codes').where('hash', '=', hash).executeTakeFirst();
    return Number(res.numDeletedRows) === 1;
  }

  /** Replaces a code's data (JSON text), and its user when given. */
  async setCodeData(hash: string, data: string, userId?: string): Promise<void> {
    await this.db
      .updateTable('oauth_codes')
      .set({ data, ...(userId ? { user_id: userId } : {}) })
      .where('hash', '=', hash)
      .execute();
  }

  /** Deletes the code under this hash. */
  async deleteCode(hash: string): Promise<void> {
    await this.db.deleteFrom('oauth_codes').where('hash', '=', hash).execute();
  }

  /** Deletes every code and refresh token of one app for one user. */
  async deleteUserCodes(applicationId: string, userId: string): Promise<void> {
    await this.db.deleteFrom('oauth_codes').where('application_id', '=', applicationId).where('user_id', '=', userId).execute();
  }

  /** A user's grant to an app, or null. */
  async grant(applicationId: string, userId: string): Promise<OAuthGrantRecord | null> {
    const row = await this.db
      .selectFrom('oauth_grants')
      .selectAll()
      .where('application_id', '=', applicationId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row ? toGrant(row) : null;
  }

  /** Every grant of a user, oldest first. */
  async grantsOf(userId: string): Promise<OAuthGrantRecord[]> {
    return (await this.db.selectFrom('oauth_grants').selectAll().where('user_id', '=', userId).orderBy('created_at').execute()).map(toGrant);
  }

  /** Creates a grant, or replaces the scopes and integration type of the existing one (its creation time stays). */
  async putGrant(g: OAuthGrantRecord): Promise<void> {
    await this.db
      .insertInto('oauth_grants')
      .values({ application_id: g.applicationId, user_id: g.userId, scopes: g.scopes, integration_type: g.integrationType, created_at: g.createdAt })
      .onConflict((oc) => oc.columns(['application_id', 'user_id']).doUpdateSet({ scopes: g.scopes, integration_type: g.integrationType }))
      .execute();
  }

  /** Deletes a user's grant to an app; true when there was one. */
  async deleteGrant(applicationId: string, userId: string): Promise<boolean> {
    const res = await this.db.deleteFrom('oauth_grants').where('application_id', '=', applicationId).where('user_id', '=', userId).executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  /** How many users authorized an app, and how many of them installed it to their account (integration type 1). */
  async grantCounts(applicationId: string): Promise<{ authorizations: number; userInstalls: number }> {
    const [users, auths] = await Promise.all([
      this.db
        .selectFrom('oauth_grants')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('application_id', '=', applicationId)
        .where('integration_type', '=', 1)
        .executeTakeFirst(),
      this.db
        .selectFrom('oauth_grants')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('application_id', '=', applicationId)
        .executeTakeFirst(),
    ]);
    return { authorizations: Number(auths?.n ?? 0), userInstalls: Number(users?.n ?? 0) };
  }

  /** The oldest signing key of an algorithm (the one every process signs with), or null. */
  async oldestKey(alg: string): Promise<OAuthKeyRecord | null> {
    const row = await this.db.selectFrom('oauth_keys').selectAll().where('alg', '=', alg).orderBy('created_at').orderBy('kid').executeTakeFirst();
    return row ? toKey(row) : null;
  }

  /** Stores a signing key unless one with its kid exists. */
  async insertKey(k: OAuthKeyRecord): Promise<void> {
    await this.db
      .insertInto('oauth_keys')
      .values({ kid: k.kid, alg: k.alg, private_key: k.privateKey, public_jwk: k.publicJwk, created_at: k.createdAt })
      .onConflict((oc) => oc.column('kid').doNothing())
      .execute();
  }

  /** Every signing key, oldest first. */
  async keys(): Promise<OAuthKeyRecord[]> {
    return (await this.db.selectFrom('oauth_keys').selectAll().orderBy('created_at').execute()).map(toKey);
  }

  /** The parsed data of one oauth_codes row, by its hash, or null when there is none. */
  async codeDataByHash<D>(hash: string): Promise<D | null> {
    const row = await this.db.selectFrom('oauth_codes').select('data').where('hash', '=', hash).executeTakeFirst();
    return row ? parseJson<D | null>(row.data, null) : null;
  }

  /** Replaces the data of one oauth_codes row, by its hash; false when the row is gone. */
  async setCodeDataByHash(hash: string, data: unknown): Promise<boolean> {
    const res = await this.db
      .updateTable('oauth_codes')
      .set({ data: JSON.stringify(data) })
      .where('hash', '=', hash)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  }

  /** Revokes what one authorization code issued: its lineage row first, then these access tokens and refresh tokens. */
  async revokeIssued(lineageHash: string, accessHashes: string[], codeHashes: string[]): Promise<void> {
    await this.db.deleteFrom('oauth_codes').where('hash', '=', lineageHash).execute();
    if (accessHashes.length) await this.db.deleteFrom('tokens').where('kind', '=', 'bearer').where('hash', 'in', accessHashes).execute();
    if (codeHashes.length) await this.db.deleteFrom('oauth_codes').where('hash', 'in', codeHashes).execute();
  }
}

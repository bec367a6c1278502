import { Repo } from './repo.js';
import '../tables/social.js';

/** A provisional account as stored. */
export interface ProvisionalAccountRecord {
  userId: string;
  applicationId: string;
  bannedUserId: string | null;
}

/** An external identity (a provider's id for a player) and the user it belongs to. */
export interface ExternalIdentityRecord {
  applicationId: string;
  providerType: string;
  externalId: string;
  userId: string;
  username: string | null;
}

/** An app's external auth provider, as stored (`algorithms` is JSON text, `strict` 0/1). */
export interface ExternalAuthProviderRow {
  id: string;
  application_id: string;
  type: string;
  issuer: string | null;
  audience: string | null;
  jwks_uri: string | null;
  algorithms: string | null;
  strict: number;
  created_at: number;
  updated_at: number;
}

const toIdentity = (r: any): ExternalIdentityRecord => ({
  applicationId: String(r.application_id),
  providerType: String(r.provider_type),
  externalId: String(r.external_id),
  userId: String(r.user_id),
  username: r.username ?? null,
});

/** Provisional accounts and external identities (the Social SDK's sign-in). */
export class ProvisionalRepo extends Repo {
  /** The provisional account of a user, or null when the user is not provisional. */
  async account(userId: string): Promise<ProvisionalAccountRecord | null> {
    const r = await this.db.selectFrom('provisional_accounts').selectAll().where('user_id', '=', userId).executeTakeFirst();
    return r
      ? { userId: String(r.user_id), applicationId: String(r.application_id), bannedUserId: r.banned_user_id == null ? null : String(r.banned_user_id) }
      : null;
  }

  /** Records that a user is a provisional account of an app. */
  async insertAccount(a: ProvisionalAccountRecord, now: number): Promise<void> {
    await this.db
      .insertInto('provisional_accounts')
      .values({ user_id: a.userId, application_id: a.applicationId, banned_user_id: a.bannedUserId, created_at: now })
      .execute();
  }

  /** Which of these users are provisional. */
  async provisionalAmong(userIds: string[]): Promise<Set<string>> {
    if (!userIds.length) return new Set();
    const rows = await this.db.selectFrom('provisional_accounts').select('user_id').where('user_id', 'in', userIds).execute();
    return new Set(rows.map((r) => String(r.user_id)));
  }

  /** The identity an app knows by this provider type and external id, or null. */
  async identity(applicationId: string, type: string, externalId: string): Promise<ExternalIdentityRecord | null> {
    const r = await this.db
      .selectFrom('external_identities')
      .selectAll()
      .where('application_id', '=', applicationId)
      .where('provider_type', '=', type)
      .where('external_id', '=', externalId)
      .executeTakeFirst();
    return r ? toIdentity(r) : null;
  }

  /** A user's external identities (of one app when given), oldest first. */
  async identitiesOf(userId: string, applicationId?: string): Promise<ExternalIdentityRecord[]> {
    let q = this.db.selectFrom('external_identities').selectAll().where('user_id', '=', userId);
    if (applicationId) q = q.where('application_id', '=', applicationId);
    return (await q.orderBy('created_at').execute()).map(toIdentity);
  }

  /** Links an identity to a user (moving it when it was linked to another). */
  async linkIdentity(ident: Omit<ExternalIdentityRecord, 'username'> & { username: string | null }, now: number): Promise<void> {
    await this.db
      .insertInto('external_identities')
      .values({
        application_id: ident.applicationId,
        provider_type: ident.providerType,
        external_id: ident.externalId,
        user_id: ident.userId,
        username: ident.username,
        created_at: now,
      })
      .onConflict((oc) => oc.columns(['application_id', 'provider_type', 'external_id']).doUpdateSet({ user_id: ident.userId }))
      .execute();
  }

  /** Moves every identity of `from` to `to`. */
  async moveAllIdentities(from: string, to: string): Promise<void> {
    await this.db.updateTable('external_identities').set({ user_id: to }).where('user_id', '=', from).execute();
  }

  /** Moves one identity of an app to a user. */
  async moveIdentity(applicationId: string, providerType: string, externalId: string, to: string): Promise<void> {
    await this.db
      .updateTable('external_identities')
      .set({ user_id: to })
      .where('application_id', '=', applicationId)
      .where('provider_type', '=', providerType)
      .where('external_id', '=', externalId)
      .execute();
  }

  /** The identity behind a live-or-expired bearer token an app issued for a bot-issued identity of `providerType`. */
  async identityOfAppToken(
    tokenHash: string,
    applicationId: string,
    providerType: string,
  ): Promise<{ externalId: string; username: string | null; expiresAt: number | null } | null> {
    const row = await this.db
      .selectFrom('tokens')
      .innerJoin('external_identities', 'external_identities.user_id', 'tokens.user_id')
      .select(['external_identities.external_id', 'external_identities.username', 'tokens.expires_at'])
      .where('tokens.hash', '=', tokenHash)
      .where('tokens.kind', '=', 'bearer')
      .where('tokens.application_id', '=', applicationId)
      .where('external_identities.application_id', '=', applicationId)
      .where('external_identities.provider_type', '=', providerType)
      .executeTakeFirst();
    return row ? { externalId: row.external_id, username: row.username ?? null, expiresAt: row.expires_at == null ? null : Number(row.expires_at) } : null;
  }

  /** Deletes a provisional user for good (tokens, codes, grants, its account row, the user), in one transaction. */
  async deleteUserCompletely(userId: string): Promise<void> {
    const run = async (trx: typeof this.db) => {
      await trx.deleteFrom('tokens').where('user_id', '=', userId).execute();
      await trx.deleteFrom('oauth_codes').where('user_id', '=', userId).execute();
      await trx.deleteFrom('oauth_grants').where('user_id', '=', userId).execute();
      await trx.deleteFrom('provisional_accounts').where('user_id', '=', userId).execute();
      await trx.deleteFrom('users').where('id', '=', userId).execute();
    };
    await (this.db.isTransaction ? run(this.db) : this.db.transaction().execute(run));
  }

  /** An app's external auth providers (of one type when given), by id. */
  async providersOf(applicationId: string, type?: string): Promise<ExternalAuthProviderRow[]> {
    let q = this.db.selectFrom('external_auth_providers').selectAll().where('application_id', '=', applicationId);
    if (type) q = q.where('type', '=', type);
    return (await q.orderBy('id').execute()) as ExternalAuthProviderRow[];
  }

  /** One provider of an app, or null. */
  async provider(applicationId: string, providerId: string): Promise<ExternalAuthProviderRow | null> {
    return ((await this.db
      .selectFrom('external_auth_providers')
      .selectAll()
      .where('id', '=', providerId)
      .where('application_id', '=', applicationId)
      .executeTakeFirst()) ?? null) as ExternalAuthProviderRow | null;
  }

  /** Stores a new provider. */
  async insertProvider(row: ExternalAuthProviderRow): Promise<void> {
    await this.db.insertInto('external_auth_providers').values(row).execute();
  }

  /** Applies a partial to a provider. */
  async updateProvider(providerId: string, values: Partial<Omit<ExternalAuthProviderRow, 'id' | 'application_id'>>): Promise<void> {
    await this.db.updateTable('external_auth_providers').set(values).where('id', '=', providerId).execute();
  }

  /** Deletes a provider. */
  async deleteProvider(providerId: string): Promise<void> {
    await this.db.deleteFrom('external_auth_providers').where('id', '=', providerId).execute();
  }
}

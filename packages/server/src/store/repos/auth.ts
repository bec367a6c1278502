import { Repo } from './repo.js';
import { toUser } from './mappers.js';
import type { UserRecord } from '../records.js';
import '../tables/social.js';

/** A stored token (by the hash of its secret). */
export interface TokenRecord {
  hash: string;
  userId: string;
  kind: 'user' | 'bot' | 'bearer';
  applicationId: string | null;
  scopes: string | null;
  expiresAt: number | null;
}
const toToken = (r: any): TokenRecord => ({
  hash: String(r.hash),
  userId: String(r.user_id),
  kind: r.kind,
  applicationId: r.application_id == null ? null : String(r.application_id),
  scopes: r.scopes ?? null,
  expiresAt: r.expires_at == null ? null : Number(r.expires_at),
});

/** Tokens, passwords, login guards and account bans: how people and bots authenticate. */
export class AuthRepo extends Repo {
  /** What a token (by its hash) grants: its user, kind, application, scopes and expiry; null when unknown. */
  async tokenGrant(
    hash: string,
  ): Promise<{ user_id: string; kind: string; application_id: string | null; scopes: string | null; expires_at: number | null } | null> {
    const t = await this.db
      .selectFrom('tokens')
      .select(['user_id', 'application_id', 'kind', 'scopes', 'expires_at'])
      .where('hash', '=', hash)
      .executeTakeFirst();
    if (!t) return null;
    return {
      user_id: String(t.user_id),
      kind: t.kind,
      application_id: t.application_id == null ? null : String(t.application_id),
      scopes: t.scopes ?? null,
      expires_at: t.expires_at == null ? null : Number(t.expires_at),
    };
  }

  /** The token stored under this hash with its user (one round trip), or null. */
  async tokenWithUser(hash: string): Promise<{ token: TokenRecord; user: UserRecord } | null> {
    const row = await this.db
      .selectFrom('tokens')
      .innerJoin('users', 'users.id', 'tokens.user_id')
      .selectAll('users')
      .select([
        'tokens.hash as token_hash',
        'tokens.kind as token_kind',
        'tokens.application_id as token_app',
        'tokens.scopes as token_scopes',
        'tokens.expires_at as token_expires',
      ])
      .where('tokens.hash', '=', hash)
      .executeTakeFirst();
    if (!row) return null;
    return {
      token: toToken({
        hash: row.token_hash,
        user_id: row.id,
        kind: row.token_kind,
        application_id: row.token_app,
        scopes: row.token_scopes,
        expires_at: row.token_expires,
      }),
      user: toUser(row),
    };
  }

  /** The token stored under this hash, or null. */
  async tokenByHash(hash: string): Promise<TokenRecord | null> {
    const row = await this.db.selectFrom('tokens').selectAll().where('hash', '=', hash).executeTakeFirst();
    return row ? toToken(row) : null;
  }

  /** Stores a token by its hash. */
  async insertToken(t: TokenRecord & { createdAt: number }): Promise<void> {
    await this.db
      .insertInto('tokens')
      .values({
        hash: t.hash,
        user_id: t.userId,
        kind: t.kind,
        application_id: t.applicationId,
        scopes: t.scopes,
        expires_at: t.expiresAt,
        created_at: t.createdAt,
      })
      .execute();
  }

  /** Sets when the token under this hash expires. */
  async setTokenExpiry(hash: string, expiresAt: number): Promise<void> {
    await this.db.updateTable('tokens').set({ expires_at: expiresAt }).where('hash', '=', hash).execute();
  }

  /** Deletes every token of a kind of a user (every kind when `kind` is omitted). */
  async revokeTokens(userId: string, kind?: 'user' | 'bot' | 'bearer'): Promise<void> {
    let q = this.db.deleteFrom('tokens').where('user_id', '=', userId);
    if (kind) q = q.where('kind', '=', kind);
    await q.execute();
  }

  /** Deletes the bearer tokens of one app for one user; returns how many there were. */
  async revokeBearerTokens(applicationId: string, userId: string): Promise<number> {
    const res = await this.db
      .deleteFrom('tokens')
      .where('application_id', '=', applicationId)
      .where('user_id', '=', userId)
      .where('kind', '=', 'bearer')
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }

  /** Deletes the bearer tokens of one app for one user that expired by `now`. */
  async deleteExpiredBearerTokens(applicationId: string, userId: string, now: number): Promise<void> {
    await this.db
      .deleteFrom('tokens')
      .where('user_id', '=', userId)
      .where('application_id', '=', applicationId)
      .where('kind', '=', 'bearer')
      .where('expires_at', '<=', now)
      .execute();
  }

  /** Which of these token hashes still name a token (looked up 500 at a time). */
  async existingTokenHashes(hashes: string[]): Promise<Set<string>> {
    const out = new Set<string>();
    for (let i = 0; i < hashes.length; i += 500) {
      const rows = await this.db
        .selectFrom('tokens')
        .select('hash')
        .where('hash', 'in', hashes.slice(i, i + 500))
        .execute();
      for (const r of rows) out.add(String(r.hash));
    }
    return out;
  }

  /** The human (or email owner) a login names, with the password hash, or null. */
  async loginCandidate(key: string): Promise<{ user: UserRecord; passwordHash: string | null } | null> {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where((eb) => eb.or([eb('email', '=', key), eb.and([eb('username', '=', key), eb('bot', '=', 0)])]))
      .executeTakeFirst();
    return row ? { user: toUser(row), passwordHash: row.password_hash ?? null } : null;
  }

  /** A user's password hash (null: none set or no such user). */
  async passwordHash(userId: string): Promise<string | null> {
    const row = await this.db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst();
    return row?.password_hash ?? null;
  }

  /** Replaces a user's password hash. */
  async setPasswordHash(userId: string, hash: string): Promise<void> {
    await this.db.updateTable('users').set({ password_hash: hash }).where('id', '=', userId).execute();
  }

  /** Whether the account is banned from the platform. */
  async isBanned(userId: string): Promise<boolean> {
    return !!(await this.db.selectFrom('account_bans').select('user_id').where('user_id', '=', userId).executeTakeFirst());
  }

  /** Records a platform ban of an account. */
  async insertBan(userId: string, reason: string | null, now: number): Promise<void> {
    await this.db.insertInto('account_bans').values({ user_id: userId, reason, created_at: now }).execute();
  }

  /** Lifts a platform ban (no-op when there is none). */
  async deleteBan(userId: string): Promise<void> {
    await this.db.deleteFrom('account_bans').where('user_id', '=', userId).execute();
  }

  /** Deletes every token and OAuth2 code of an account (a ban). */
  async revokeEverything(userId: string): Promise<void> {
    await this.db.deleteFrom('tokens').where('user_id', '=', userId).execute();
    await this.db.deleteFrom('oauth_codes').where('user_id', '=', userId).execute();
  }
}

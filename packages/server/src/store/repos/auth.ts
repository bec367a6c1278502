import { Repo } from './repo.js';

/** Tokens, passwords, login guards and account bans: how people and bots authenticate. */
export class AuthRepo extends Repo {

  /** What a token (by its hash) grants: its user, kind, application, scopes and expiry; null when unknown. */
  async tokenGrant(hash: string): Promise<{ user_id: string; kind: string; application_id: string | null; scopes: string | null; expires_at: number | null } | null> {
    const t = await this.db.selectFrom('tokens').select(['user_id', 'application_id', 'kind', 'scopes', 'expires_at']).where('hash', '=', hash).executeTakeFirst();
    if (!t) return null;
    return { user_id: String(t.user_id), kind: t.kind, application_id: t.application_id == null ? null : String(t.application_id), scopes: t.scopes ?? null, expires_at: t.expires_at == null ? null : Number(t.expires_at) };
  }
}

import type { Actor, Ctx } from '../context.js';
import { Errors } from '../../core/errors.js';
import { toUser } from '../../store/repos/mappers.js';
import { hashToken } from './tokens.js';

interface CachedAuth {
  actor: Actor;
  expiresAt: number | null;
}

/**
 * Resolves an Authorization header to an actor. The raw token is the user kind, `Bot x` a bot, `Bearer x` OAuth2.
 * Lookups are cached by token hash; any token change clears the cache (resets are rare).
 */
export class Authenticator {
  private cache = new Map<string, CachedAuth | null>();

  constructor(private readonly ctx: Ctx) {}

  clear(): void {
    this.cache.clear();
  }

  async resolve(header: string | undefined): Promise<Actor | null> {
    return (await this.resolveWithHash(header))?.actor ?? null;
  }

  /**
   * The actor and the hash of the bare token (no `Bot `/`Bearer ` prefix): the key its row is stored under, which a
   * Gateway session keeps to notice when its token is revoked.
   */
  async resolveWithHash(header: string | undefined): Promise<{ actor: Actor; hash: string } | null> {
    if (!header) return null;
    let kind: Actor['kind'] = 'user';
    let token = header.trim();
    if (/^bot\s/i.test(token)) { kind = 'bot'; token = token.slice(4).trim(); }
    else if (/^bearer\s/i.test(token)) { kind = 'bearer'; token = token.slice(7).trim(); }
    if (!token || token.length > 512) throw Errors.unauthorized();
    const hash = hashToken(token);
    const key = `${kind}:${hash}`;
    let hit = this.cache.get(key);
    if (hit === undefined) {
      hit = await this.load(kind, hash);
      if (this.cache.size > 10000) this.cache.clear();
      this.cache.set(key, hit);
    }
    if (!hit || (hit.expiresAt !== null && hit.expiresAt <= this.ctx.clock.now())) throw Errors.unauthorized();
    return { actor: hit.actor, hash };
  }

  private async load(kind: Actor['kind'], hash: string): Promise<CachedAuth | null> {
    const row = await this.ctx.db
      .selectFrom('tokens').innerJoin('users', 'users.id', 'tokens.user_id')
      .selectAll('users')
      .select(['tokens.kind as token_kind', 'tokens.application_id as token_app', 'tokens.scopes as token_scopes', 'tokens.expires_at as token_expires'])
      .where('tokens.hash', '=', hash)
      .executeTakeFirst();
    if (!row || row.token_kind !== kind) return null;
    return {
      actor: {
        user: toUser(row),
        kind,
        applicationId: row.token_app == null ? null : String(row.token_app),
        scopes: row.token_scopes ? String(row.token_scopes).split(' ').filter(Boolean) : [],
      },
      expiresAt: row.token_expires == null ? null : Number(row.token_expires),
    };
  }
}

import type { Actor, Ctx } from '../context.js';
import { Errors } from '../../core/errors.js';
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

  /** Drops the cached lookups of one user (their profile changed: the next request reads it again). */
  forgetUser(userId: string): void {
    for (const [key, hit] of this.cache) if (hit?.actor.user.id === userId) this.cache.delete(key);
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
    if (/^bot\s/i.test(token)) {
      kind = 'bot';
      token = token.slice(4).trim();
    } else if (/^bearer\s/i.test(token)) {
      kind = 'bearer';
      token = token.slice(7).trim();
    }
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
    const row = await this.ctx.repos.auth.tokenWithUser(hash);
    if (!row || row.token.kind !== kind) return null;
    return {
      actor: {
        user: row.user,
        kind,
        applicationId: row.token.applicationId,
        scopes: row.token.scopes ? String(row.token.scopes).split(' ').filter(Boolean) : [],
      },
      expiresAt: row.token.expiresAt,
    };
  }
}

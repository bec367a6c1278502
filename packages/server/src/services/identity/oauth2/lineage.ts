import type { Ctx } from '../../context.js';
import { hashToken } from '../tokens.js';
import { codeHash, peekCode, putCode } from './codes.js';
import { REFRESH_TOKEN_TTL_MS, type TokenResponse } from './issue.js';

/**
 * What an authorization code issued (RFC 6749 §4.1.2: "If an authorization code is used more than once, the
 * authorization server MUST deny the request and SHOULD revoke (when possible) all tokens previously issued based on
 * that authorization code"). Exchanging a code writes a `code_lineage` row, keyed by the code's hash like the code
 * itself: the hashes of the access tokens issued from it and of its current refresh token. Each refresh of that
 * refresh token carries the lineage on (RefreshData.lineage) and adds its tokens. Presenting the code again revokes
 * the whole lineage: the tokens of other sessions of the same user and app stay.
 *
 * A lineage row is written before any token is issued; an exchange or a refresh whose lineage is gone by the time
 * its tokens exist (a replay won the race) revokes them at once and fails.
 */

interface Lineage {
  access: string[];
  refresh: string | null;
}

/** At most this many access-token hashes are kept per lineage (the newest; older ones have long expired). */
const MAX_ACCESS = 200;

/** The lineage row's hash for a code (what refresh tokens carry). */
export const lineageOf = (code: string) => codeHash('code_lineage', code);

/** Opens the (empty) lineage of a code that was just spent, before any token is issued from it. */
export async function openLineage(ctx: Ctx, code: string, applicationId: string, userId: string): Promise<string> {
  await putCode<Lineage>(ctx, 'code_lineage', code, { applicationId, userId, data: { access: [], refresh: null }, ttlMs: REFRESH_TOKEN_TTL_MS });
  return lineageOf(code);
}

/** Adds freshly issued tokens to a lineage; false (and the tokens revoked) when the lineage was revoked meanwhile. */
export async function extendLineage(ctx: Ctx, lineage: string, userId: string, tokens: TokenResponse): Promise<boolean> {
  const access = hashToken(tokens.access_token);
  const refresh = tokens.refresh_token ? codeHash('refresh_token', tokens.refresh_token) : null;
  const data = await ctx.repos.oauth.codeDataByHash<Lineage>(lineage);
  const kept = data && (await ctx.repos.oauth.setCodeDataByHash(lineage, { access: [...data.access, access].slice(-MAX_ACCESS), refresh }));
  if (kept) return true;
  await ctx.repos.oauth.revokeIssued(lineage, [access], refresh ? [refresh] : []);
  ctx.bus.publish({ t: '__TOKENS_CHANGED', d: { user_id: userId } }); // cached actors and Gateway sessions of these tokens end
  return false;
}

/** A spent code presented again: every token issued from it (and refreshed from those) is revoked. */
export async function revokeLineage(ctx: Ctx, code: string): Promise<void> {
  const row = await peekCode<Lineage>(ctx, 'code_lineage', code);
  if (!row) return;
  await ctx.repos.oauth.revokeIssued(lineageOf(code), row.data.access ?? [], row.data.refresh ? [row.data.refresh] : []);
  if (row.userId) ctx.bus.publish({ t: '__TOKENS_CHANGED', d: { user_id: row.userId } }); // cached actors and Gateway sessions end
}

import type { Ctx } from '../../context.js';
import { hashToken } from '../tokens.js';
import { parseJson } from '../../../store/json.js';
import { randomBytes } from '../../../core/random.js';

/**
 * Short- and long-lived OAuth2 secrets kept in `oauth_codes`, by the hash of the secret: authorization codes,
 * refresh tokens, device codes, and the user code that points at a device code. The secret itself is never stored.
 */
export type CodeKind = 'authorization_code' | 'refresh_token' | 'device_code' | 'device_user_code' | 'code_lineage';

export interface CodeRow<D> {
  kind: CodeKind;
  applicationId: string;
  userId: string | null;
  data: D;
  expiresAt: number;
}

/** A URL-safe random secret. 22 bytes make the platform's 30-character token length. */
export const randomSecret = (bytes = 22) => randomBytes(bytes).toString('base64url');

const key = (kind: CodeKind, secret: string) => hashToken(`${kind}:${secret}`);
/** The stored hash of a secret of this kind (the row's key). */
export const codeHash = key;

export async function putCode<D>(
  ctx: Ctx,
  kind: CodeKind,
  secret: string,
  row: { applicationId: string; userId: string | null; data: D; ttlMs: number },
): Promise<void> {
  const now = ctx.clock.now();
  // Housekeeping: expired rows are dead weight; dropping them here keeps the table small without a worker.
  await ctx.repos.oauth.putCode(
    key(kind, secret),
    {
      kind,
      applicationId: row.applicationId,
      userId: row.userId,
      data: JSON.stringify(row.data),
      expiresAt: now + row.ttlMs,
    },
    now,
  );
}

/** Reads a live (unexpired) code; `expired` tells an expired one apart from an unknown one. */
export async function peekCode<D>(ctx: Ctx, kind: CodeKind, secret: string): Promise<(CodeRow<D> & { expired: boolean }) | null> {
  if (!secret || secret.length > 512) return null;
  const row = await ctx.repos.oauth.codeByHash(key(kind, secret));
  if (!row || row.kind !== kind) return null;
  return {
    kind,
    applicationId: row.applicationId,
    userId: row.userId,
    data: parseJson<D>(row.data, {} as D),
    expiresAt: row.expiresAt,
    expired: row.expiresAt <= ctx.clock.now(),
  };
}

/** Removes a code and returns it, once: of two concurrent takers only one gets it (single use). */
export async function takeCode<D>(ctx: Ctx, kind: CodeKind, secret: string): Promise<(CodeRow<D> & { expired: boolean }) | null> {
  const row = await peekCode<D>(ctx, kind, secret);
  if (!row) return null;
  return (await ctx.repos.oauth.takeCode(key(kind, secret))) ? row : null;
}

export async function setCodeData<D>(ctx: Ctx, kind: CodeKind, secret: string, data: D, userId?: string): Promise<void> {
  await ctx.repos.oauth.setCodeData(key(kind, secret), JSON.stringify(data), userId);
}

export async function deleteCode(ctx: Ctx, kind: CodeKind, secret: string): Promise<void> {
  await ctx.repos.oauth.deleteCode(key(kind, secret));
}

/** Every code and refresh token of one app for one user (revocation). */
export async function deleteUserCodes(ctx: Ctx, applicationId: string, userId: string): Promise<void> {
  await ctx.repos.oauth.deleteUserCodes(applicationId, userId);
}

/** Looks a refresh token or code up only by its secret, for revocation where the kind is a hint. */
export async function findAnyCode(ctx: Ctx, secret: string, kinds: CodeKind[]): Promise<CodeRow<unknown> | null> {
  for (const kind of kinds) {
    const row = await peekCode(ctx, kind, secret);
    if (row) return row;
  }
  return null;
}

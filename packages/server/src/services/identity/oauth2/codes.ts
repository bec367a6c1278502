import crypto from 'node:crypto';
import type { Ctx } from '../../context.js';
import { hashToken } from '../tokens.js';
import { parseJson } from '../../../store/json.js';
import { id, idOrNull } from '../../../store/schema.js';

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
export const randomSecret = (bytes = 22) => crypto.randomBytes(bytes).toString('base64url');

const key = (kind: CodeKind, secret: string) => hashToken(`${kind}:${secret}`);
/** The stored hash of a secret of this kind (the row's key). */
export const codeHash = key;

export async function putCode<D>(ctx: Ctx, kind: CodeKind, secret: string, row: { applicationId: string; userId: string | null; data: D; ttlMs: number }): Promise<void> {
  const now = ctx.clock.now();
  // Housekeeping: expired rows are dead weight; dropping them here keeps the table small without a worker.
  await ctx.db.deleteFrom('oauth_codes').where('expires_at', '<=', now).execute();
  await ctx.db.insertInto('oauth_codes').values({
    hash: key(kind, secret), kind, application_id: row.applicationId, user_id: row.userId,
    data: JSON.stringify(row.data), expires_at: now + row.ttlMs,
  }).execute();
}

/** Reads a live (unexpired) code; `expired` tells an expired one apart from an unknown one. */
export async function peekCode<D>(ctx: Ctx, kind: CodeKind, secret: string): Promise<(CodeRow<D> & { expired: boolean }) | null> {
  if (!secret || secret.length > 512) return null;
  const row = await ctx.db.selectFrom('oauth_codes').selectAll().where('hash', '=', key(kind, secret)).executeTakeFirst();
  if (!row || row.kind !== kind) return null;
  return {
    kind, applicationId: id(row.application_id), userId: idOrNull(row.user_id), data: parseJson<D>(row.data, {} as D),
    expiresAt: Number(row.expires_at), expired: Number(row.expires_at) <= ctx.clock.now(),
  };
}

/** Removes a code and returns it, once: of two concurrent takers only one gets it (single use). */
export async function takeCode<D>(ctx: Ctx, kind: CodeKind, secret: string): Promise<(CodeRow<D> & { expired: boolean }) | null> {
  const row = await peekCode<D>(ctx, kind, secret);
  if (!row) return null;
  const res = await ctx.db.deleteFrom('oauth_codes').where('hash', '=', key(kind, secret)).executeTakeFirst();
  return Number(res.numDeletedRows) === 1 ? row : null;
}

export async function setCodeData<D>(ctx: Ctx, kind: CodeKind, secret: string, data: D, userId?: string): Promise<void> {
  await ctx.db.updateTable('oauth_codes')
    .set({ data: JSON.stringify(data), ...(userId ? { user_id: userId } : {}) })
    .where('hash', '=', key(kind, secret)).execute();
}

export async function deleteCode(ctx: Ctx, kind: CodeKind, secret: string): Promise<void> {
  await ctx.db.deleteFrom('oauth_codes').where('hash', '=', key(kind, secret)).execute();
}

/** Every code and refresh token of one app for one user (revocation). */
export async function deleteUserCodes(ctx: Ctx, applicationId: string, userId: string): Promise<void> {
  await ctx.db.deleteFrom('oauth_codes').where('application_id', '=', applicationId).where('user_id', '=', userId).execute();
}

/** Looks a refresh token or code up only by its secret, for revocation where the kind is a hint. */
export async function findAnyCode(ctx: Ctx, secret: string, kinds: CodeKind[]): Promise<CodeRow<unknown> | null> {
  for (const kind of kinds) {
    const row = await peekCode(ctx, kind, secret);
    if (row) return row;
  }
  return null;
}

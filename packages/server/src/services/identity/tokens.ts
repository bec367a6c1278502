import crypto from 'node:crypto';
import type { Ctx } from '../context.js';
import { randomBytes } from '../../core/random.js';

/** Tokens are stored only as this hash: one call where Node has it (20.12 and later), a third of a Hash object's cost. */
export const hashToken: (token: string) => string =
  typeof crypto.hash === 'function'
    ? (token) => crypto.hash('sha256', token, 'base64url')
    : (token) => crypto.createHash('sha256').update(token).digest('base64url');

/** Token shapes follow the platform's: base64 user id, a timestamp part, and an HMAC-sized random part. */
export function mintToken(userId: string): string {
  const a = Buffer.from(userId).toString('base64url');
  const b = randomBytes(4).toString('base64url');
  const c = randomBytes(27).toString('base64url');
  return `${a}.${b}.${c}`;
}

export async function issueToken(
  ctx: Ctx,
  userId: string,
  kind: 'user' | 'bot' | 'bearer',
  opts: { applicationId?: string; scopes?: string[]; expiresAt?: number } = {},
): Promise<string> {
  const token = mintToken(userId);
  await ctx.repos.auth.insertToken({
    hash: hashToken(token),
    userId,
    kind,
    applicationId: opts.applicationId ?? null,
    scopes: opts.scopes?.join(' ') ?? null,
    expiresAt: opts.expiresAt ?? null,
    createdAt: ctx.clock.now(),
  });
  return token;
}

/** Revokes every token of a kind for a user (bot token reset). */
export async function revokeTokens(ctx: Ctx, userId: string, kind: 'user' | 'bot' | 'bearer'): Promise<void> {
  await ctx.repos.auth.revokeTokens(userId, kind);
}

/** Which of these token hashes still name a token (the others were reset, revoked or deleted with their account). */
export async function existingTokenHashes(ctx: Ctx, hashes: string[]): Promise<Set<string>> {
  return ctx.repos.auth.existingTokenHashes(hashes);
}

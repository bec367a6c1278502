import crypto from 'node:crypto';
import type { Ctx } from '../../context.js';
import { ApiError } from '../../../core/errors.js';
import { isSnowflake, snowflakeTime } from '@accord/protocol';

/** Interaction records: one row per interaction, its token stored only as a hash. */

export const TOKEN_TTL_MS = 15 * 60_000;
export const INITIAL_RESPONSE_MS = 3_000;

export const unknownInteraction = () => new ApiError(404, 10062, 'Unknown interaction');
export const alreadyAcknowledged = () => new ApiError(400, 40060, 'Interaction has already been acknowledged');
export const invalidWebhookToken = () => new ApiError(401, 50027, 'Invalid Webhook Token');

/** The interaction records are defined with their repository (store/repos/interactions.ts). */
export type { InteractionState, InteractionData, InteractionRecord } from '../../../store/repos/interactions.js';
import type { InteractionData, InteractionRecord, InteractionState } from '../../../store/repos/interactions.js';
import { randomBytes } from '../../../core/random.js';

export const hashInteractionToken = (token: string) => crypto.createHash('sha256').update(token).digest('base64url');

/** A continuation token: opaque to apps, `interaction:<id>:<secret>` base64url-encoded like the platform's. */
export function mintInteractionToken(interactionId: string): string {
  return Buffer.from(`interaction:${interactionId}:${randomBytes(32).toString('base64url')}`).toString('base64url');
}

/**
 * Stores a new interaction, and purges the rows whose token window (15 minutes of the platform clock) has passed:
 * nothing can use them any more (responses, follow-ups and modal submits all check the window), so they are not kept.
 */
export async function insertInteraction(ctx: Ctx, rec: InteractionRecord, token: string): Promise<void> {
  await purgeExpiredInteractions(ctx);
  await ctx.repos.interactions.insert(rec, hashInteractionToken(token));
}

export async function loadInteraction(ctx: Ctx, interactionId: string): Promise<InteractionRecord | null> {
  if (!isSnowflake(interactionId)) return null;
  return ctx.repos.interactions.byId(interactionId);
}

/** The interaction behind `/interactions/{id}/{token}/callback`: 10062 when either part is wrong. */
export async function interactionByIdAndToken(ctx: Ctx, interactionId: string, token: string): Promise<InteractionRecord> {
  if (!isSnowflake(interactionId) || !token || token.length > 500) throw unknownInteraction();
  const found = await ctx.repos.interactions.byIdWithTokenHash(interactionId);
  if (!found) throw unknownInteraction();
  const a = Buffer.from(found.tokenHash);
  const b = Buffer.from(hashInteractionToken(token));
  if (a.length !== b.length || !crypto.timingSafeEqual(a, b)) throw unknownInteraction();
  return found.record;
}

/** The interaction behind `/webhooks/{application_id}/{token}`, or null. */
export async function interactionByAppToken(ctx: Ctx, applicationId: string, token: string): Promise<InteractionRecord | null> {
  if (!isSnowflake(applicationId) || !token || token.length > 500) return null;
  return ctx.repos.interactions.byAppAndTokenHash(applicationId, hashInteractionToken(token));
}

export const tokenExpired = (ctx: Ctx, rec: InteractionRecord) => ctx.clock.now() >= rec.created_at + TOKEN_TTL_MS;

/**
 * The interaction id inside a token of ours (`interaction:<id>:<secret>`), or null. Lets an expired token be told from a
 * made-up one after its row was purged.
 */
export function interactionIdOfToken(token: string): string | null {
  if (!token || token.length > 500) return null;
  const m = /^interaction:(\d{1,20}):/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  return m && isSnowflake(m[1]) ? m[1] : null;
}

/** Whether a token names an interaction whose 15 minutes are over (its row may be purged already). */
export function tokenPastWindow(ctx: Ctx, token: string): boolean {
  const id = interactionIdOfToken(token);
  return id !== null && ctx.clock.now() >= snowflakeTime(id) + TOKEN_TTL_MS;
}

/** Deletes every interaction whose token has expired (the same bound as `tokenExpired`); returns how many. */
export async function purgeExpiredInteractions(ctx: Ctx): Promise<number> {
  return ctx.repos.interactions.deleteCreatedUntil(ctx.clock.now() - TOKEN_TTL_MS);
}

/**
 * Moves the interaction out of `from` atomically, saving its data; false when another request (or the timeout) got
 * there first.
 */
export async function transition(
  ctx: Ctx,
  rec: InteractionRecord,
  from: InteractionState,
  to: InteractionState,
  data: InteractionData,
  originalMessageId?: string | null,
): Promise<boolean> {
  return ctx.repos.interactions.transition(rec.id, from, to, data, originalMessageId);
}

/** Saves data (and optionally the original message id) without a state change. */
export async function saveInteraction(ctx: Ctx, rec: InteractionRecord, data: InteractionData, originalMessageId?: string | null): Promise<void> {
  await ctx.repos.interactions.save(rec.id, data, originalMessageId);
  rec.data = data;
  if (originalMessageId !== undefined) rec.original_message_id = originalMessageId;
}

/** Counts one more follow-up; false when `max` were already sent. */
export async function takeFollowup(ctx: Ctx, rec: InteractionRecord, max: number | null): Promise<boolean> {
  return ctx.repos.interactions.takeFollowup(rec.id, max);
}

/** Gives back a follow-up counted by `takeFollowup` when it could not be sent. */
export async function returnFollowup(ctx: Ctx, rec: InteractionRecord): Promise<void> {
  await ctx.repos.interactions.returnFollowup(rec.id);
}

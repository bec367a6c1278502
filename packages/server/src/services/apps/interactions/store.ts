import crypto from 'node:crypto';
import type { Ctx } from '../../context.js';
import { ApiError } from '../../../core/errors.js';
import { isSnowflake, snowflakeTime } from '@accord/protocol';
import { id, idOrNull } from '../../../store/schema.js';
import { num, parseJson } from '../../../store/json.js';

/** Interaction records: one row per interaction, its token stored only as a hash. */

export const TOKEN_TTL_MS = 15 * 60_000;
export const INITIAL_RESPONSE_MS = 3_000;

export const unknownInteraction = () => new ApiError(404, 10062, 'Unknown interaction');
export const alreadyAcknowledged = () => new ApiError(400, 40060, 'Interaction has already been acknowledged');
export const invalidWebhookToken = () => new ApiError(401, 50027, 'Invalid Webhook Token');

/** pending: delivered, waiting for the initial response; acknowledged: answered; failed: timed out or refused. */
export type InteractionState = 'pending' | 'acknowledged' | 'failed';

/** What later steps (responses, follow-ups, modal submits) need to know about the interaction. */
export interface InteractionData {
  nonce: string | null;
  session_id: string | null;
  context: 0 | 1 | 2;
  /** authorizing_integration_owners, string values. */
  owners: Record<string, string>;
  /** The app acts only through the user's installation here (owners has only "1"): follow-up cap applies. */
  user_install_only: boolean;
  /** USE_EXTERNAL_APPS denied for a user-installed app: every response is ephemeral. */
  force_ephemeral: boolean;
  /** Application commands: the command invoked (name includes subcommands, for the deprecated `interaction`). */
  command?: { id: string; name: string; full_name: string; type: number; target_id?: string };
  /** Component interactions (and modal submits opened from one): the message holding the component. */
  message_id?: string;
  custom_id?: string;
  /** Modal submits: the interaction that opened the modal and its metadata. */
  triggering?: Record<string, unknown>;
  /** The `message` field delivered with the interaction (component interactions). */
  message?: Record<string, unknown>;
  /** The callback type of the initial response. */
  response_type?: number;
  /** The deferred (loading) response has not been filled yet. */
  loading?: boolean;
  ephemeral?: boolean;
  /** An opened modal, until it is submitted. */
  modal?: { custom_id: string; title: string; components: unknown[] };
  /** interaction_metadata of response messages (without original_response_message_id). */
  metadata: Record<string, unknown>;
  /** The deprecated `interaction` field of response messages: {id, type, name, user, member?}. */
  legacy?: Record<string, unknown>;
  activity_instance_id?: string;
}

export interface InteractionRecord {
  id: string;
  application_id: string;
  type: number;
  user_id: string;
  guild_id: string | null;
  channel_id: string | null;
  state: InteractionState;
  original_message_id: string | null;
  followups: number;
  data: InteractionData;
  created_at: number;
}

export const hashInteractionToken = (token: string) => crypto.createHash('sha256').update(token).digest('base64url');

/** A continuation token: opaque to apps, `interaction:<id>:<secret>` base64url-encoded like the platform's. */
export function mintInteractionToken(interactionId: string): string {
  return Buffer.from(`interaction:${interactionId}:${crypto.randomBytes(32).toString('base64url')}`).toString('base64url');
}

function toRecord(r: any): InteractionRecord {
  return {
    id: id(r.id),
    application_id: id(r.application_id),
    type: num(r.type),
    user_id: id(r.user_id),
    guild_id: idOrNull(r.guild_id),
    channel_id: idOrNull(r.channel_id),
    state: r.state as InteractionState,
    original_message_id: idOrNull(r.original_message_id),
    followups: num(r.followups),
    data: parseJson<InteractionData>(r.data, {} as InteractionData),
    created_at: num(r.created_at),
  };
}

/**
 * Stores a new interaction, and purges the rows whose token window (15 minutes of the platform clock) has passed:
 * nothing can use them any more (responses, follow-ups and modal submits all check the window), so they are not kept.
 */
export async function insertInteraction(ctx: Ctx, rec: InteractionRecord, token: string): Promise<void> {
  await purgeExpiredInteractions(ctx);
  await ctx.db.insertInto('interactions').values({
    id: rec.id,
    application_id: rec.application_id,
    token_hash: hashInteractionToken(token),
    type: rec.type,
    user_id: rec.user_id,
    guild_id: rec.guild_id,
    channel_id: rec.channel_id,
    state: rec.state,
    original_message_id: rec.original_message_id,
    followups: 0,
    data: JSON.stringify(rec.data),
    created_at: rec.created_at,
  }).execute();
}

export async function loadInteraction(ctx: Ctx, interactionId: string): Promise<InteractionRecord | null> {
  if (!isSnowflake(interactionId)) return null;
  const row = await ctx.db.selectFrom('interactions').selectAll().where('id', '=', interactionId).executeTakeFirst();
  return row ? toRecord(row) : null;
}

/** The interaction behind `/interactions/{id}/{token}/callback`: 10062 when either part is wrong. */
export async function interactionByIdAndToken(ctx: Ctx, interactionId: string, token: string): Promise<InteractionRecord> {
  if (!isSnowflake(interactionId) || !token || token.length > 500) throw unknownInteraction();
  const row = await ctx.db.selectFrom('interactions').selectAll().where('id', '=', interactionId).executeTakeFirst();
  if (!row) throw unknownInteraction();
  const a = Buffer.from(row.token_hash);
  const b = Buffer.from(hashInteractionToken(token));
  if (a.length !== b.length || !crypto.timingSafeEqual(a, b)) throw unknownInteraction();
  return toRecord(row);
}

/** The interaction behind `/webhooks/{application_id}/{token}`, or null. */
export async function interactionByAppToken(ctx: Ctx, applicationId: string, token: string): Promise<InteractionRecord | null> {
  if (!isSnowflake(applicationId) || !token || token.length > 500) return null;
  const row = await ctx.db.selectFrom('interactions').selectAll()
    .where('token_hash', '=', hashInteractionToken(token)).where('application_id', '=', applicationId).executeTakeFirst();
  return row ? toRecord(row) : null;
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
  const r = await ctx.db.deleteFrom('interactions').where('created_at', '<=', ctx.clock.now() - TOKEN_TTL_MS).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/**
 * Moves the interaction out of `from` atomically, saving its data; false when another request (or the timeout) got
 * there first.
 */
export async function transition(ctx: Ctx, rec: InteractionRecord, from: InteractionState, to: InteractionState, data: InteractionData, originalMessageId?: string | null): Promise<boolean> {
  const values: Record<string, unknown> = { state: to, data: JSON.stringify(data) };
  if (originalMessageId !== undefined) values.original_message_id = originalMessageId;
  const r = await ctx.db.updateTable('interactions').set(values).where('id', '=', rec.id).where('state', '=', from).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Saves data (and optionally the original message id) without a state change. */
export async function saveInteraction(ctx: Ctx, rec: InteractionRecord, data: InteractionData, originalMessageId?: string | null): Promise<void> {
  const values: Record<string, unknown> = { data: JSON.stringify(data) };
  if (originalMessageId !== undefined) values.original_message_id = originalMessageId;
  await ctx.db.updateTable('interactions').set(values).where('id', '=', rec.id).execute();
  rec.data = data;
  if (originalMessageId !== undefined) rec.original_message_id = originalMessageId;
}

/** Counts one more follow-up; false when `max` were already sent. */
export async function takeFollowup(ctx: Ctx, rec: InteractionRecord, max: number | null): Promise<boolean> {
  let q = ctx.db.updateTable('interactions').set((eb) => ({ followups: eb('followups', '+', 1) })).where('id', '=', rec.id);
  if (max !== null) q = q.where('followups', '<', max);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

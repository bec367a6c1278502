import type { Ctx } from '../../context.js';
import type { ApplicationRecord } from '../../../store/records.js';
import { postSigned, signedRequest } from './signing.js';
import { INTERACTION_REPLY_BYTES, OutgoingError } from '../../../core/outgoing.js';
import { INITIAL_RESPONSE_MS, loadInteraction, transition, type InteractionRecord } from './store.js';

/**
 * Delivery of an interaction to its app, over the Gateway (INTERACTION_CREATE to the bot's sessions) or over HTTP to
 * `interactions_endpoint_url`, and the invoking user's side of it: INTERACTION_CREATE / SUCCESS / FAILURE.
 */

export const FailureReason = { UNKNOWN: 1, TIMEOUT: 2 } as const;

/** Real-time deadlines for the initial response (the dev clock moves token expiry, not this 3 s window). */
const deadlines = new WeakMap<Ctx, Map<string, { at: number; timer: NodeJS.Timeout }>>();

function deadlineMap(ctx: Ctx) {
  let m = deadlines.get(ctx);
  if (!m) deadlines.set(ctx, (m = new Map()));
  return m;
}

/** The initial-response window of this interaction has passed (or it is not tracked by this process). */
export function pastDeadline(ctx: Ctx, rec: InteractionRecord): boolean {
  const d = deadlineMap(ctx).get(rec.id);
  if (d) return performance.now() >= d.at;
  // Another process delivered it, or this one restarted: judge by age.
  return ctx.clock.now() - rec.created_at >= INITIAL_RESPONSE_MS + 1000;
}

export function clearDeadline(ctx: Ctx, id: string): void {
  const m = deadlineMap(ctx);
  const d = m.get(id);
  if (d) clearTimeout(d.timer);
  m.delete(id);
}

/** Events of the invoking user's own sessions. */
export function userEvent(ctx: Ctx, rec: InteractionRecord, t: string, d: Record<string, unknown>): void {
  ctx.bus.publish({ t, d, user_ids: [rec.user_id] });
}

export function notifySuccess(ctx: Ctx, rec: InteractionRecord): void {
  userEvent(ctx, rec, 'INTERACTION_SUCCESS', { id: rec.id, nonce: rec.data.nonce });
}

/** Fails a still-pending interaction (timeout or a refused answer) and tells the user; later callbacks get 10062. */
export async function failInteraction(ctx: Ctx, id: string, reason: number): Promise<void> {
  clearDeadline(ctx, id);
  try {
    const rec = await loadInteraction(ctx, id);
    if (!rec || rec.state !== 'pending') return;
    if (await transition(ctx, rec, 'pending', 'failed', rec.data)) {
      userEvent(ctx, rec, 'INTERACTION_FAILURE', { id: rec.id, nonce: rec.data.nonce, reason_code: reason });
    }
  } catch {
    // The store may be closed when a timer outlives the server.
  }
}

function startDeadline(ctx: Ctx, rec: InteractionRecord): void {
  const timer = setTimeout(() => void failInteraction(ctx, rec.id, FailureReason.TIMEOUT), INITIAL_RESPONSE_MS);
  timer.unref();
  deadlineMap(ctx).set(rec.id, { at: performance.now() + INITIAL_RESPONSE_MS, timer });
}

/** Processes an inline HTTP answer exactly like the callback route; set by the responder (avoids an import cycle). */
export type InlineResponder = (ctx: Ctx, rec: InteractionRecord, body: unknown) => Promise<void>;
let inline: InlineResponder | null = null;
export function setInlineResponder(fn: InlineResponder): void {
  inline = fn;
}

/**
 * Sends the interaction to the app: the user's INTERACTION_CREATE first, then the app's copy, with the 3 s window
 * for the initial response starting now.
 */
export async function deliver(ctx: Ctx, app: ApplicationRecord, rec: InteractionRecord, payload: Record<string, unknown>): Promise<void> {
  userEvent(ctx, rec, 'INTERACTION_CREATE', { id: rec.id, ...(rec.data.nonce != null ? { nonce: rec.data.nonce } : {}) });
  startDeadline(ctx, rec);
  if (app.interactions_endpoint_url) {
    void deliverHttp(ctx, app, app.interactions_endpoint_url, rec, payload);
    return;
  }
  if (!app.bot_user_id) {
    await failInteraction(ctx, rec.id, FailureReason.UNKNOWN);
    return;
  }
  ctx.bus.publish({ t: 'INTERACTION_CREATE', d: payload, guild_id: rec.guild_id, user_ids: [app.bot_user_id] });
}

async function deliverHttp(ctx: Ctx, app: ApplicationRecord, url: string, rec: InteractionRecord, payload: Record<string, unknown>): Promise<void> {
  try {
    const req = await signedRequest(ctx, app.id, payload);
    if (!req) return failInteraction(ctx, rec.id, FailureReason.UNKNOWN);
    const fault = ctx.faults?.delivery('interactions_endpoint', app.id) ?? null; // dev faults (--dev)
    const res = await postSigned(ctx, url, req, INITIAL_RESPONSE_MS, INTERACTION_REPLY_BYTES, fault);
    if (res instanceof OutgoingError) return failInteraction(ctx, rec.id, FailureReason.TIMEOUT);
    if (res.status === 202) return; // the app answered through the callback route
    if (res.status !== 200 || !res.json || typeof res.json !== 'object' || !inline) return failInteraction(ctx, rec.id, FailureReason.UNKNOWN);
    const fresh = await loadInteraction(ctx, rec.id);
    if (!fresh) return;
    if (fresh.state !== 'pending') return; // already answered through the callback route
    await inline(ctx, fresh, res.json);
  } catch {
    await failInteraction(ctx, rec.id, FailureReason.UNKNOWN);
  }
}

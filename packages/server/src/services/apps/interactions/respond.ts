import { z } from 'zod';
import type { Ctx } from '../../context.js';
import { ApiError, fieldError } from '../../../core/errors.js';
import type { UploadedFile } from '../../../core/uploads.js';
import { parseBody } from '../../../core/validation.js';
import type { ApplicationRecord, MessageRecord } from '../../../store/records.js';
import { validateModal } from '../components/index.js';
import { messageWire } from '../../messages/view.js';
import { parseResponseEdit, parseResponseMessage, toEditInput } from './bodies.js';
import { clearDeadline, failInteraction, FailureReason, notifySuccess, pastDeadline, setInlineResponder, userEvent } from './deliver.js';
import { createLoadingMessage, createResponseMessage, editResponseMessage, EPHEMERAL, loadRawMessage } from './messages.js';
import {
  alreadyAcknowledged,
  interactionByIdAndToken,
  loadInteraction,
  tokenExpired,
  transition,
  unknownInteraction,
  type InteractionData,
  type InteractionRecord,
} from './store.js';
import { loadApplication } from './where.js';
import { premiumSkuCheck } from '../../commerce/skus.js';
import { checkLaunch, launchActivity } from '../../activities/instances.js';
import { loadChannel } from '../../messages/channel.js';

/** The initial response to an interaction: `POST /interactions/{id}/{token}/callback`, or an HTTP endpoint's 200 body. */

export const CallbackType = {
  PONG: 1,
  CHANNEL_MESSAGE_WITH_SOURCE: 4,
  DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: 5,
  DEFERRED_UPDATE_MESSAGE: 6,
  UPDATE_MESSAGE: 7,
  APPLICATION_COMMAND_AUTOCOMPLETE_RESULT: 8,
  MODAL: 9,
  PREMIUM_REQUIRED: 10,
  LAUNCH_ACTIVITY: 12,
  SOCIAL_LAYER_SKU_PURCHASE_ELIGIBILITY: 13,
} as const;
const CALLBACK_TYPES = Object.values(CallbackType) as number[];
const EMBEDDED = 1n << 17n;

const CallbackBody = z.object({
  type: z.preprocess((v) => (typeof v === 'string' && /^\d{1,3}$/.test(v) ? Number(v) : v), z.number().int()),
  data: z.unknown().optional(),
});

const Choice = z.object({
  name: z.string().min(1).max(100),
  name_localizations: z.record(z.string(), z.string().min(1).max(100)).nullish(),
  value: z.union([z.string().max(100), z.number()]),
});
const AutocompleteData = z.object({ data: z.object({ choices: z.array(Choice).max(25) }) });
const DeferData = z.object({ data: z.object({ flags: z.number().int().nullish() }).nullish() });

const invalidType = () => fieldError('type', 'INTERACTION_RESPONSE_TYPE_INVALID', 'Interaction response type is invalid for this interaction.');

/** Which callback types answer which interaction types (interactions.md §4). */
function allowed(rec: InteractionRecord, type: number): boolean {
  const fromComponent = rec.type === 3 || (rec.type === 5 && !!rec.data.message_id);
  switch (type) {
    case CallbackType.PONG:
      return rec.type === 1;
    case CallbackType.CHANNEL_MESSAGE_WITH_SOURCE:
    case CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE:
    case CallbackType.PREMIUM_REQUIRED:
    case CallbackType.LAUNCH_ACTIVITY:
      return rec.type === 2 || rec.type === 3 || rec.type === 5;
    case CallbackType.DEFERRED_UPDATE_MESSAGE:
    case CallbackType.UPDATE_MESSAGE:
      return fromComponent;
    case CallbackType.APPLICATION_COMMAND_AUTOCOMPLETE_RESULT:
      return rec.type === 4;
    case CallbackType.MODAL:
      return rec.type === 2 || rec.type === 3;
    case CallbackType.SOCIAL_LAYER_SKU_PURCHASE_ELIGIBILITY:
      return rec.type === 6;
    default:
      return false;
  }
}

/** Throws what a callback gets when the interaction can no longer take an initial response. */
async function assertOpen(ctx: Ctx, rec: InteractionRecord): Promise<void> {
  if (rec.state === 'failed' || tokenExpired(ctx, rec)) throw unknownInteraction();
  if (rec.state === 'acknowledged') throw alreadyAcknowledged();
  if (pastDeadline(ctx, rec)) {
    await failInteraction(ctx, rec.id, FailureReason.TIMEOUT);
    throw unknownInteraction();
  }
}

/** A validated response, ready to apply once the interaction is claimed. */
interface Plan {
  type: number;
  apply: (rec: InteractionRecord, app: ApplicationRecord) => Promise<Applied>;
  data: Partial<InteractionData>;
}
interface Applied {
  messageId?: string | null;
  message?: MessageRecord;
  loading?: boolean;
  ephemeral?: boolean;
  activityInstanceId?: string;
  /** Original response message id to record. */
  original?: string | null;
}

async function plan(ctx: Ctx, app: ApplicationRecord, rec: InteractionRecord, body: unknown, files: UploadedFile[]): Promise<Plan> {
  const b = parseBody(CallbackBody, body);
  if (!CALLBACK_TYPES.includes(b.type)) throw fieldError('type', 'BASE_TYPE_CHOICES', `Value must be one of (${CALLBACK_TYPES.join(', ')}).`);
  if (!allowed(rec, b.type)) throw invalidType();

  switch (b.type) {
    case CallbackType.CHANNEL_MESSAGE_WITH_SOURCE: {
      const msg = parseResponseMessage(
        b.data,
        files,
        ['data'],
        await premiumSkuCheck(ctx, (b.data as { components?: unknown } | undefined)?.components, app.id),
      );
      const ephemeral = ((msg.flags ?? 0) & EPHEMERAL) !== 0 || rec.data.force_ephemeral;
      return {
        type: b.type,
        data: { ephemeral },
        apply: async (r, a) => {
          const m = await createResponseMessage(ctx, a, r, msg, files, { ephemeral });
          return { message: m, messageId: m.id, original: m.id, ephemeral };
        },
      };
    }
    case CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: {
      const d = parseBody(DeferData, { data: b.data ?? undefined });
      const flags = d.data?.flags ?? 0;
      if (flags & ~EPHEMERAL) throw fieldError(['data', 'flags'], 'MESSAGE_FLAGS_INVALID', 'Only the EPHEMERAL flag may be set on a deferred response.');
      const ephemeral = (flags & EPHEMERAL) !== 0 || rec.data.force_ephemeral;
      return {
        type: b.type,
        data: { ephemeral, loading: true },
        apply: async (r, a) => {
          const m = await createLoadingMessage(ctx, a, r, ephemeral);
          return { messageId: m.id, original: m.id, loading: true, ephemeral };
        },
      };
    }
    case CallbackType.DEFERRED_UPDATE_MESSAGE:
      return { type: b.type, data: {}, apply: async () => ({ original: rec.data.message_id ?? null }) };
    case CallbackType.UPDATE_MESSAGE: {
      const target = rec.data.message_id ? await loadRawMessage(ctx, rec.data.message_id) : null;
      if (!target) throw new ApiError(404, 10008, 'Unknown Message');
      const edit = parseResponseEdit(
        b.data,
        files,
        ['data'],
        target,
        await premiumSkuCheck(ctx, (b.data as { components?: unknown } | undefined)?.components, app.id),
      );
      if (edit.poll) throw fieldError(['data', 'poll'], 'POLL_EDIT_NOT_ALLOWED', 'A poll cannot be added to an existing message.');
      return {
        type: b.type,
        data: {},
        apply: async (r, a) => {
          const m = await editResponseMessage(ctx, a, r, target, toEditInput(edit), files);
          return { message: m, messageId: m.id, original: m.id, ephemeral: (m.flags & EPHEMERAL) !== 0 };
        },
      };
    }
    case CallbackType.APPLICATION_COMMAND_AUTOCOMPLETE_RESULT: {
      const { data } = parseBody(AutocompleteData, { data: b.data ?? {} });
      return {
        type: b.type,
        data: {},
        apply: async (r) => {
          userEvent(ctx, r, 'APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE', { choices: data.choices, nonce: r.data.nonce });
          return {};
        },
      };
    }
    case CallbackType.MODAL: {
      const modal = validateModal(b.data, ['data']);
      return {
        type: b.type,
        data: { modal: { custom_id: modal.custom_id, title: modal.title, components: modal.components } },
        apply: async (r, a) => {
          userEvent(ctx, r, 'INTERACTION_MODAL_CREATE', {
            id: r.id,
            channel_id: r.channel_id,
            custom_id: modal.custom_id,
            application: { id: a.id, name: a.name, icon: a.icon },
            title: modal.title,
            components: modal.components,
            nonce: r.data.nonce,
          });
          return {};
        },
      };
    }
    case CallbackType.PREMIUM_REQUIRED:
      // Deprecated, still accepted: the official client shows an upsell; nothing is posted in the channel.
      return { type: b.type, data: {}, apply: async () => ({}) };
    case CallbackType.LAUNCH_ACTIVITY: {
      if (!(app.flags & EMBEDDED))
        throw fieldError('type', 'INTERACTION_APPLICATION_NOT_EMBEDDED', 'This application does not have an Activity (EMBEDDED flag).');
      // The invoking person's session launches (or joins) the app's instance in the interaction's channel.
      return { type: b.type, data: {}, apply: async (r) => ({ activityInstanceId: (await launchForInteraction(ctx, app, r)).instance_id }) };
    }
    default:
      throw invalidType();
  }
}

/** Launches the app's Activity for the interaction's user and session; a new instance takes the interaction's id. */
export async function launchForInteraction(ctx: Ctx, app: ApplicationRecord, rec: InteractionRecord) {
  const channel = await loadChannel(ctx, rec.channel_id!);
  await checkLaunch(ctx, app, rec.user_id, channel);
  return launchActivity(ctx, { app, userId: rec.user_id, channel, sessionId: rec.data.session_id ?? '', nonce: rec.data.nonce, launchId: rec.id });
}

export interface RespondResult {
  interaction: Record<string, unknown>;
  resource?: Record<string, unknown>;
}

/**
 * Applies an initial response: validates it, claims the interaction (one initial response only: 40060), applies it,
 * and tells the user. Returns the `with_response` body.
 */
export async function respond(ctx: Ctx, rec: InteractionRecord, body: unknown, files: UploadedFile[]): Promise<RespondResult> {
  await assertOpen(ctx, rec);
  const app = await loadApplication(ctx, rec.application_id);
  const p = await plan(ctx, app, rec, body, files);

  const before = rec.data;
  const data: InteractionData = { ...rec.data, ...p.data, response_type: p.type };
  if (!(await transition(ctx, rec, 'pending', 'acknowledged', data))) {
    const fresh = await loadInteraction(ctx, rec.id);
    if (fresh?.state === 'acknowledged') throw alreadyAcknowledged();
    throw unknownInteraction();
  }
  const claimed: InteractionRecord = { ...rec, state: 'acknowledged', data };
  let applied: Applied;
  try {
    applied = await p.apply(claimed, app);
  } catch (err) {
    // Give the app its chance again (within the window): the response was refused, not delivered.
    await transition(ctx, claimed, 'acknowledged', 'pending', before);
    if (pastDeadline(ctx, rec)) await failInteraction(ctx, rec.id, FailureReason.TIMEOUT);
    throw err;
  }
  clearDeadline(ctx, rec.id);
  if (applied.original !== undefined) {
    await ctx.repos.interactions.setOriginalMessage(rec.id, applied.original);
  }
  if (p.type !== CallbackType.APPLICATION_COMMAND_AUTOCOMPLETE_RESULT) notifySuccess(ctx, claimed);

  const interaction: Record<string, unknown> = { id: rec.id, type: rec.type };
  if (applied.activityInstanceId) interaction.activity_instance_id = applied.activityInstanceId;
  if (applied.messageId) {
    interaction.response_message_id = applied.messageId;
    interaction.response_message_loading = !!applied.loading;
    interaction.response_message_ephemeral = !!applied.ephemeral;
  }
  const out: RespondResult = { interaction };
  if (applied.message) out.resource = { type: p.type, message: await messageWire(ctx, applied.message, null) };
  else if (applied.activityInstanceId) out.resource = { type: p.type, activity_instance: { id: applied.activityInstanceId } };
  else if (applied.messageId) out.resource = { type: p.type };
  return out;
}

/** The callback route: 10062 for an unknown id or a wrong token. */
export async function respondByToken(ctx: Ctx, interactionId: string, token: string, body: unknown, files: UploadedFile[]): Promise<RespondResult> {
  const rec = await interactionByIdAndToken(ctx, interactionId, token);
  return respond(ctx, rec, body, files);
}

// An HTTP endpoint's 200 answer is processed exactly as the callback route would; a refused one fails the interaction.
setInlineResponder(async (ctx, rec, body) => {
  try {
    await respond(ctx, rec, body, []);
  } catch (err) {
    if (err instanceof ApiError && err.code === 40060) return;
    await failInteraction(ctx, rec.id, FailureReason.UNKNOWN);
  }
});

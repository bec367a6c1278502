import type { Ctx } from '../../context.js';
import { ApiError, Errors } from '../../../core/errors.js';
import type { UploadedFile } from '../../../core/uploads.js';
import type { MessageRecord } from '../../../store/records.js';
import { messageWire } from '../../messages/view.js';
import { parseResponseEdit, parseResponseMessage, toEditInput } from './bodies.js';
import { appAuthor, createResponseMessage, deleteResponseMessage, editResponseMessage, EPHEMERAL, LOADING, loadRawMessage } from './messages.js';
import {
  interactionByAppToken,
  invalidWebhookToken,
  returnFollowup,
  saveInteraction,
  takeFollowup,
  tokenExpired,
  tokenPastWindow,
  type InteractionRecord,
} from './store.js';
import { premiumSkuCheck } from '../../commerce/skus.js';
import { loadApplication } from './where.js';

/**
 * The interaction webhook: `/webhooks/{application_id}/{token}` with its `@original` and follow-up messages, usable
 * for 15 minutes (by the server clock) once the interaction has been answered.
 */

export const MAX_USER_APP_FOLLOWUPS = 5;
const tooManyFollowups = () => new ApiError(400, 40094, 'This interaction has hit the maximum number of follow up messages');

/** Follow-up operations of one interaction run one at a time (the first after a defer fills the loading message). */
const locks = new Map<string, Promise<unknown>>();
async function serialized<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const prev = locks.get(key) ?? Promise.resolve();
  const run = prev.then(fn, fn);
  const tail = run.catch(() => undefined);
  locks.set(key, tail);
  try {
    return await run;
  } finally {
    if (locks.get(key) === tail) locks.delete(key);
  }
}

/**
 * Whether `/webhooks/{id}/{token}` names an interaction of application `id`, or an interaction token whose 15 minutes
 * are over (its row is purged then, and the answer is still 50027).
 */
export async function ownsInteractionWebhook(ctx: Ctx, applicationId: string, token: string): Promise<boolean> {
  return !!(await interactionByAppToken(ctx, applicationId, token)) || tokenPastWindow(ctx, token);
}

/** No row for the token: 50027 when it is an interaction token past its window (purged), else 10015. */
const noInteraction = (ctx: Ctx, token: string) => (tokenPastWindow(ctx, token) ? invalidWebhookToken() : Errors.unknownWebhook());

/** The live interaction behind the token: 50027 once the 15 minutes are over, 10015 before it was answered. */
async function live(ctx: Ctx, applicationId: string, token: string): Promise<InteractionRecord> {
  const rec = await interactionByAppToken(ctx, applicationId, token);
  if (!rec) throw noInteraction(ctx, token);
  if (tokenExpired(ctx, rec)) throw invalidWebhookToken();
  if (rec.state !== 'acknowledged') throw Errors.unknownWebhook();
  return rec;
}

/** `@original`, or a message this interaction created (its original response or a follow-up). */
async function messageOf(ctx: Ctx, rec: InteractionRecord, messageId: string): Promise<MessageRecord> {
  const id = messageId === '@original' ? rec.original_message_id : messageId;
  const m = id ? await loadRawMessage(ctx, id) : null;
  if (!m) throw Errors.unknownMessage();
  const ours = m.id === rec.original_message_id || m.extra.interaction_metadata?.id === rec.id;
  if (!ours) throw Errors.unknownMessage();
  return m;
}

/** GET /webhooks/{application_id}/{token}: the app's webhook as an interaction token shows it. */
export async function interactionWebhook(ctx: Ctx, applicationId: string, token: string): Promise<Record<string, unknown>> {
  const rec = await interactionByAppToken(ctx, applicationId, token);
  if (!rec) throw noInteraction(ctx, token);
  if (tokenExpired(ctx, rec)) throw invalidWebhookToken();
  const app = await loadApplication(ctx, applicationId);
  const { webhook } = await appAuthor(ctx, app);
  return {
    application_id: app.id,
    avatar: webhook.avatar,
    channel_id: rec.channel_id,
    guild_id: rec.guild_id,
    id: app.id,
    name: webhook.name,
    type: 3,
  };
}

/**
 * POST /webhooks/{application_id}/{token}: a follow-up (always `wait`). Right after a deferred response the first one
 * fills the loading message instead (its ephemeral flag ignored, the defer's kept). User-installed apps acting outside
 * their installations get 5 (40094).
 */
export async function executeFollowup(ctx: Ctx, applicationId: string, token: string, body: unknown, files: UploadedFile[]) {
  return serialized(`${applicationId}:${token}`, async () => {
    const rec = await live(ctx, applicationId, token);
    const app = await loadApplication(ctx, applicationId);
    const msg = parseResponseMessage(body, files, [], await premiumSkuCheck(ctx, (body as { components?: unknown } | undefined)?.components, app.id));
    if (rec.data.loading && rec.original_message_id) {
      const original = await loadRawMessage(ctx, rec.original_message_id);
      if (original && original.flags & LOADING) {
        const edit = {
          content: msg.content,
          embeds: msg.embeds,
          components: msg.components,
          attachments: msg.attachments,
          allowed_mentions: msg.allowed_mentions,
          flags: msg.flags,
        };
        const next = await editResponseMessage(ctx, app, rec, original, edit, files, { poll: msg.poll ? pollOf(ctx, msg.poll) : null, automod: true });
        await saveInteraction(ctx, rec, { ...rec.data, loading: false });
        return messageWire(ctx, next, null);
      }
    }
    if (!(await takeFollowup(ctx, rec, rec.data.user_install_only ? MAX_USER_APP_FOLLOWUPS : null))) throw tooManyFollowups();
    try {
      const ephemeral = ((msg.flags ?? 0) & EPHEMERAL) !== 0;
      const m = await createResponseMessage(ctx, app, rec, msg, files, { ephemeral, followup: true, followupOf: rec.original_message_id });
      return messageWire(ctx, m, null);
    } catch (err) {
      await returnFollowup(ctx, rec);
      throw err;
    }
  });
}

export async function getInteractionMessage(ctx: Ctx, applicationId: string, token: string, messageId: string) {
  const rec = await live(ctx, applicationId, token);
  return messageWire(ctx, await messageOf(ctx, rec, messageId), null);
}

/**
 * PATCH of `@original` or a follow-up. Editing the deferred (loading) response fills it and may add a poll; AutoMod
 * keyword rules that block the new content give 400 (200000).
 */
export async function editInteractionMessage(ctx: Ctx, applicationId: string, token: string, messageId: string, body: unknown, files: UploadedFile[]) {
  return serialized(`${applicationId}:${token}`, async () => {
    const rec = await live(ctx, applicationId, token);
    const app = await loadApplication(ctx, applicationId);
    const message = await messageOf(ctx, rec, messageId);
    const edit = parseResponseEdit(body, files, [], message, await premiumSkuCheck(ctx, (body as { components?: unknown } | undefined)?.components, app.id));
    const wasLoading = (message.flags & LOADING) !== 0;
    const next = await editResponseMessage(ctx, app, rec, message, toEditInput(edit), files, {
      poll: edit.poll ? pollOf(ctx, edit.poll) : null,
      automod: true,
    });
    if (wasLoading && message.id === rec.original_message_id) await saveInteraction(ctx, rec, { ...rec.data, loading: false });
    return messageWire(ctx, next, null);
  });
}

export async function deleteInteractionMessage(ctx: Ctx, applicationId: string, token: string, messageId: string): Promise<void> {
  const rec = await live(ctx, applicationId, token);
  const message = await messageOf(ctx, rec, messageId);
  await deleteResponseMessage(ctx, rec, message);
}

/** A poll request as the message stores it (the same shape Create Message gives a poll). */
function pollOf(
  ctx: Ctx,
  poll: {
    question: { text: string };
    answers: { poll_media: { text: string; emoji?: { id?: string | null; name?: string | null } | null } }[];
    duration?: number | null;
    allow_multiselect?: boolean | null;
  },
) {
  return {
    question: { text: poll.question.text },
    answers: poll.answers.map((a, i) => ({
      answer_id: i + 1,
      poll_media: {
        text: a.poll_media.text,
        ...(a.poll_media.emoji ? { emoji: { id: a.poll_media.emoji.id ?? null, name: a.poll_media.emoji.name ?? null } } : {}),
      },
    })),
    expiry: new Date(ctx.clock.now() + (poll.duration ?? 24) * 3600_000).toISOString(),
    allow_multiselect: poll.allow_multiselect ?? false,
    layout_type: 1,
    results: { is_finalized: false, answer_counts: [] },
  };
}

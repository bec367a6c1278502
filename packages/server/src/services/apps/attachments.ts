import type { Actor, Ctx } from '../context.js';
import { Errors, fieldError } from '../../core/errors.js';
import { isSnowflake } from '@accord/protocol';
import type { UploadedFile } from '../../core/uploads.js';
import { getApplication } from '../identity/applications.js';
import { planAttachments } from '../messages/attachments.js';

/**
 * POST /applications/{id}/attachment: an Activity uploads one file (multipart field `file`) to share later (the
 * Embedded App SDK's share moments). Answers `{attachment}` with `ephemeral: true`; the bytes are served by the CDN at
 * `/ephemeral-attachments/{application_id}/{attachment_id}/{filename}`. The app's Bot token or a Bearer token of the
 * same app may upload.
 */
export async function uploadApplicationAttachment(ctx: Ctx, actor: Actor, applicationId: string, files: UploadedFile[]) {
  const app = isSnowflake(applicationId) ? await getApplication(ctx, applicationId) : null;
  if (!app) throw Errors.unknownApplication();
  const own = actor.kind === 'bot' ? app.bot_user_id === actor.user.id : actor.kind === 'bearer' && actor.applicationId === app.id;
  if (!own) throw Errors.notAppOwner();
  const file = files.find((f) => f.field === 'file');
  if (!file) throw fieldError('file', 'BASE_TYPE_REQUIRED', 'This field is required');
  const plan = planAttachments(ctx, app.id, [{ ...file, field: 'files[0]' }], undefined, null);
  await ctx.repos.files.insert(plan.rows);
  const a = plan.attachments[0];
  const url = a.url.replace(`/attachments/${app.id}/`, `/ephemeral-attachments/${app.id}/`);
  const out: Record<string, unknown> = { id: a.id, filename: a.filename, size: a.size, url, proxy_url: url, ephemeral: true };
  if (a.content_type) out.content_type = a.content_type;
  if (a.width != null && a.height != null) Object.assign(out, { width: a.width, height: a.height });
  return { attachment: out };
}

import type { Ctx } from '../context.js';
import { Errors, fieldError } from '../../core/errors.js';
import { isSnowflake } from '@accord/protocol';
import type { UploadedFile } from '../../core/uploads.js';
import type { AttachmentRecord } from '../../store/records.js';
import type { NewFile as FilesTable } from '../../store/repos/messages.js';
import type { AttachmentRequestInput } from './schema.js';
import { imageSize } from './image-size.js';

export const MAX_ATTACHMENTS = 10;
const IS_SPOILER = 1 << 3;
const SPOILER_PREFIX = 'SPOILER_';

const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  json: 'application/json',
  csv: 'text/csv; charset=utf-8',
  html: 'text/html; charset=utf-8',
  pdf: 'application/pdf',
  zip: 'application/zip',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
};

/** The multipart index of an upload: `files[n]` (or `file[n]`) gives n; other names count by position. */
export function fileIndex(file: UploadedFile, position: number): string {
  const m = /\[(\d{1,3})\]$/.exec(file.field) ?? /^files?(\d{1,3})$/.exec(file.field);
  return m ? String(Number(m[1])) : String(position);
}

/** A file name as the platform stores it: no path, no control characters, spaces as underscores. */
function cleanName(name: string): string {
  const base = (name.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').replace(/\s/g, '_');
  return (base || 'file').slice(0, 1024);
}

function contentType(file: UploadedFile, filename: string): string | undefined {
  const given = file.contentType && file.contentType !== 'application/octet-stream' ? file.contentType : undefined;
  const ext = /\.([a-z0-9]{1,8})$/i.exec(filename)?.[1]?.toLowerCase();
  return given ?? (ext && TYPES[ext]) ?? file.contentType ?? undefined;
}

export const attachmentUrl = (ctx: Ctx, channelId: string, fileId: string, filename: string) =>
  `${ctx.publicUrl}/attachments/${channelId}/${fileId}/${encodeURIComponent(filename)}`;

export interface AttachmentPlan {
  /** The message's attachments after the change, in order. */
  attachments: AttachmentRecord[];
  /** New files to insert with the message. */
  rows: FilesTable[];
  /** Ids of files no longer referenced (edits), to delete with the change. */
  removed: string[];
}

/** Turns one upload plus its request metadata into a stored file and its attachment record. */
function newAttachment(
  ctx: Ctx,
  channelId: string,
  file: UploadedFile,
  meta: AttachmentRequestInput | undefined,
): { record: AttachmentRecord; row: FilesTable } {
  const id = ctx.ids.next();
  let filename = cleanName(meta?.filename ?? file.filename);
  if (meta?.is_spoiler && !filename.startsWith(SPOILER_PREFIX)) filename = SPOILER_PREFIX + filename;
  const type = contentType(file, filename);
  const dims = type?.startsWith('image/') ? imageSize(file.data) : null;
  const url = attachmentUrl(ctx, channelId, id, filename);
  const record: AttachmentRecord = {
    id,
    filename,
    size: file.data.length,
    url,
    proxy_url: url,
    ...(type ? { content_type: type } : {}),
    ...(meta?.description ? { description: meta.description } : {}),
    ...(meta?.title ? { title: meta.title } : {}),
    width: dims?.width ?? null,
    height: dims?.height ?? null,
    flags: filename.startsWith(SPOILER_PREFIX) ? IS_SPOILER : 0,
    ...(meta?.duration_secs != null ? { duration_secs: meta.duration_secs } : {}),
    ...(meta?.waveform ? { waveform: meta.waveform } : {}),
  };
  const row: FilesTable = {
    id,
    channel_id: channelId,
    filename,
    content_type: type ?? null,
    size: file.data.length,
    data: file.data,
    created_at: ctx.clock.now(),
  };
  return { record, row };
}

/** Applies `description` / `is_spoiler` edits to an attachment being kept. */
function keepAttachment(a: AttachmentRecord, meta: AttachmentRequestInput): AttachmentRecord {
  const out = { ...a };
  if (meta.description !== undefined) {
    if (meta.description) out.description = meta.description;
    else delete out.description;
  }
  if (meta.is_spoiler != null) out.flags = meta.is_spoiler ? (a.flags ?? 0) | IS_SPOILER : (a.flags ?? 0) & ~IS_SPOILER;
  return out;
}

/**
 * Works out a message's attachments from uploads and the request's `attachments` array. On create (`existing` null)
 * every upload is attached and request entries name uploads by index. On edit, listed existing attachments are kept,
 * unlisted ones removed, and uploads added. Validates everything before anything is written.
 */
export function planAttachments(
  ctx: Ctx,
  channelId: string,
  files: UploadedFile[],
  requests: AttachmentRequestInput[] | null | undefined,
  existing: AttachmentRecord[] | null,
): AttachmentPlan {
  const uploads = new Map<string, UploadedFile>();
  files.forEach((f, i) => {
    const idx = fileIndex(f, i);
    uploads.set(uploads.has(idx) ? String(i) : idx, f);
  });
  const metaFor = new Map<string, AttachmentRequestInput>();
  const kept: AttachmentRecord[] = [];
  const keptIds = new Set<string>();
  (requests ?? []).forEach((req, i) => {
    const old = existing?.find((a) => a.id === req.id);
    if (old) {
      if (!keptIds.has(old.id)) kept.push(keepAttachment(old, req));
      keptIds.add(old.id);
    } else if (uploads.has(req.id)) {
      if (!metaFor.has(req.id)) metaFor.set(req.id, req);
    } else {
      throw fieldError(['attachments', i, 'id'], 'ATTACHMENT_NOT_FOUND', 'Unknown attachment or file reference.');
    }
  });
  // On edit without an `attachments` array, everything already there stays.
  if (existing && requests === undefined)
    for (const a of existing)
      if (!keptIds.has(a.id)) {
        kept.push(a);
        keptIds.add(a.id);
      }

  const rows: FilesTable[] = [];
  const added: AttachmentRecord[] = [];
  const order = [...uploads.keys()].sort((a, b) => Number(a) - Number(b));
  for (const idx of order) {
    const { record, row } = newAttachment(ctx, channelId, uploads.get(idx)!, metaFor.get(idx));
    added.push(record);
    rows.push(row);
  }
  const attachments = [...kept, ...added];
  if (attachments.length > MAX_ATTACHMENTS) throw Errors.maxAttachments();
  const removed = (existing ?? []).filter((a) => !keptIds.has(a.id)).map((a) => a.id);
  return { attachments, rows, removed };
}

/** A stored file for the CDN, when channel, id and name all match. */
export async function readAttachment(
  ctx: Ctx,
  channelId: string,
  fileId: string,
  filename: string,
): Promise<{ data: Buffer; contentType: string; size: number } | null> {
  if (!isSnowflake(channelId) || !isSnowflake(fileId)) return null;
  const file = await ctx.repos.files.byId(fileId);
  if (!file || file.channel_id !== channelId || file.filename !== filename) return null;
  return { data: file.data, contentType: file.content_type ?? 'application/octet-stream', size: file.data.length };
}

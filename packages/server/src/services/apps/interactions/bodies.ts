import { z } from 'zod';
import type { UploadedFile } from '../../../core/uploads.js';
import { parseBody } from '../../../core/validation.js';
import type { MessageRecord } from '../../../store/records.js';
import { fileIndex } from '../../messages/attachments.js';
import { validateMessageComponents, IS_COMPONENTS_V2, type AttachmentRef } from '../components/index.js';
import { crossFieldRules, MessageCreateFields, MessageEditBody, Poll, type MessageCreateInput, type MessageEditInput } from '../../messages/schema.js';
import { EPHEMERAL } from './messages.js';

/** Message bodies of interaction responses, follow-ups and their edits, validated like the platform does. */

/** SUPPRESS_EMBEDS, EPHEMERAL, SUPPRESS_NOTIFICATIONS, IS_VOICE_MESSAGE, IS_COMPONENTS_V2. */
export const RESPONSE_FLAGS = (1 << 2) | EPHEMERAL | (1 << 12) | (1 << 13) | IS_COMPONENTS_V2;

const ResponseMessage = MessageCreateFields.superRefine((b, c) => crossFieldRules(b, c, RESPONSE_FLAGS));
export const ResponseEdit = MessageEditBody.extend({ poll: Poll.nullish() });
export type ResponseEditInput = z.infer<typeof ResponseEdit>;

type Path = (string | number)[];

/** Parses `value` as if it sat at `prefix` in the request body, so 50035 paths read `data.content`, … */
function parseAt<T extends z.ZodType>(schema: T, value: unknown, prefix: Path): z.infer<T> {
  if (!prefix.length) return parseBody(schema, value ?? {});
  let wrapped: z.ZodType = schema;
  let input: unknown = value ?? {};
  for (const key of [...prefix].reverse()) {
    wrapped = z.object({ [String(key)]: wrapped });
    input = { [String(key)]: input };
  }
  return dig(parseBody(wrapped, input), prefix);
}

function dig(v: any, path: Path): any {
  for (const k of path) v = v?.[k];
  return v;
}

/** The attachments a message will have, for `attachment://` references in components. */
function uploads(files: UploadedFile[], body: { attachments?: { id: string; filename?: string | null }[] | null }): AttachmentRef[] {
  return files.map((f, i) => {
    const idx = fileIndex(f, i);
    const meta = body.attachments?.find((a) => a.id === idx);
    return { filename: (meta?.filename ?? f.filename).split(/[\\/]/).pop()!.replace(/\s/g, '_'), content_type: f.contentType, size: f.data.length };
  });
}

/** A response or follow-up message body; its components are validated and normalized. */
export function parseResponseMessage(value: unknown, files: UploadedFile[], prefix: Path, skuExists?: (id: string) => boolean): MessageCreateInput {
  const body = parseAt(ResponseMessage, value, prefix);
  if (body.components != null) {
    const v = validateMessageComponents(
      body.components,
      {
        flags: body.flags ?? 0,
        attachments: uploads(files, body),
        hasContent: !!body.content,
        hasEmbeds: !!body.embeds?.length,
        hasPoll: !!body.poll,
        hasStickers: !!body.sticker_ids?.length,
        skuExists,
      },
      [...prefix, 'components'],
    );
    body.components = v.components;
  }
  return body;
}

/** An edit of a response message (UPDATE_MESSAGE data, PATCH of @original or a follow-up). */
export function parseResponseEdit(
  value: unknown,
  files: UploadedFile[],
  prefix: Path,
  current: MessageRecord | null,
  skuExists?: (id: string) => boolean,
): ResponseEditInput {
  const body = parseAt(ResponseEdit, value, prefix);
  if (body.components != null) {
    const flags = (current?.flags ?? 0) | ((body.flags ?? 0) & IS_COMPONENTS_V2);
    const kept = (current?.attachments ?? []).map((a) => ({
      filename: a.filename,
      id: a.id,
      url: a.url,
      proxy_url: a.proxy_url,
      content_type: a.content_type,
      width: a.width,
      height: a.height,
      size: a.size,
    }));
    const content = body.content !== undefined ? body.content : current?.content;
    const embeds = body.embeds !== undefined ? body.embeds : current?.embeds;
    const v = validateMessageComponents(
      body.components,
      {
        flags,
        attachments: [...kept, ...uploads(files, body as { attachments?: { id: string; filename?: string | null }[] | null })],
        hasContent: !!content,
        hasEmbeds: !!embeds?.length,
        hasPoll: !!(body.poll ?? current?.extra.poll),
        hasStickers: !!current?.sticker_items?.length,
        skuExists,
      },
      [...prefix, 'components'],
    );
    body.components = v.components;
  }
  return body;
}

export const toEditInput = (b: ResponseEditInput): MessageEditInput => {
  const { poll: _poll, ...rest } = b;
  return rest;
};

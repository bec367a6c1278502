import { z } from 'zod';
import { snowflake } from '../../core/validation.js';
import { EmbedList } from './embeds.js';

export const MessageFlags = {
  SUPPRESS_EMBEDS: 1 << 2,
  SUPPRESS_NOTIFICATIONS: 1 << 12,
  IS_VOICE_MESSAGE: 1 << 13,
  HAS_SNAPSHOT: 1 << 14,
  IS_COMPONENTS_V2: 1 << 15,
} as const;

/** The only flags a create request may set. */
export const CREATE_FLAGS = MessageFlags.SUPPRESS_EMBEDS | MessageFlags.SUPPRESS_NOTIFICATIONS | MessageFlags.IS_VOICE_MESSAGE | MessageFlags.IS_COMPONENTS_V2;

/** Multipart form fields arrive as strings; accept the usual spellings of a boolean. */
const bool = z.preprocess((v) => (v === 'true' || v === 'True' ? true : v === 'false' || v === 'False' ? false : v), z.boolean());
const int = z.preprocess((v) => (typeof v === 'string' && /^\d{1,10}$/.test(v) ? Number(v) : v), z.number().int());

/** Integer or string of at most 25 characters; kept as a string. */
const Nonce = z.unknown().transform((v, c) => {
  if (v == null) return undefined;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return String(v);
  if (typeof v === 'string') {
    if (v.length > 25) c.addIssue({ code: 'custom', message: 'Must be 25 or fewer in length.', params: { code: 'BASE_TYPE_MAX_LENGTH' } });
    return v;
  }
  c.addIssue({ code: 'custom', message: 'Nonce must be an integer or a string.', params: { code: 'BASE_TYPE_INVALID' } });
  return z.NEVER;
});

export const AllowedMentions = z
  .object({
    parse: z.array(z.enum(['users', 'roles', 'everyone'])).nullish(),
    users: z.array(snowflake).max(100).nullish(),
    roles: z.array(snowflake).max(100).nullish(),
    replied_user: z.boolean().nullish(),
  })
  .superRefine((a, c) => {
    for (const kind of ['users', 'roles'] as const) {
      if (a.parse?.includes(kind) && a[kind]?.length) {
        c.addIssue({
          code: 'custom',
          message: `parse:["${kind}"] and ${kind}: [ids] are mutually exclusive.`,
          params: { code: 'MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE' },
        });
      }
    }
  });
export type AllowedMentionsInput = z.infer<typeof AllowedMentions>;

export const MessageReference = z.object({
  type: z.literal([0, 1]).nullish(),
  message_id: snowflake.nullish(),
  channel_id: snowflake.nullish(),
  guild_id: snowflake.nullish(),
  fail_if_not_exists: z.boolean().nullish(),
});

/** Attachment request object: `id` is a `files[n]` index, or (on edit) the id of an attachment to keep. */
export const AttachmentRequest = z.object({
  id: snowflake,
  filename: z.string().min(1).max(1024).nullish(),
  description: z.string().max(1024).nullish(),
  title: z.string().max(1024).nullish(),
  is_spoiler: z.boolean().nullish(),
  duration_secs: z.number().min(0).nullish(),
  waveform: z.string().max(400).nullish(),
});
export type AttachmentRequestInput = z.infer<typeof AttachmentRequest>;

const PollMedia = z.object({
  text: z.string().min(1).max(55),
  emoji: z.object({ id: snowflake.nullish(), name: z.string().max(64).nullish() }).nullish(),
});

export const Poll = z.object({
  question: z.object({ text: z.string().min(1).max(300) }),
  answers: z
    .array(z.object({ poll_media: PollMedia }))
    .min(1)
    .max(10),
  duration: z.number().int().min(1).max(768).nullish(),
  allow_multiselect: z.boolean().nullish(),
  layout_type: z.literal(1).nullish(),
});

/** Components are stored as given (deep validation is a separate concern); only the top-level count is checked. */
const Components = z.array(z.record(z.string(), z.unknown())).max(40);

/** Rules that span fields: allowed flags, component count by mode, and Components V2 excluding legacy fields. */
export function crossFieldRules(
  b: { flags?: number | null; components?: unknown[] | null; content?: string | null; embeds?: unknown[] | null },
  c: z.RefinementCtx,
  allowedFlags: number,
) {
  const flags = b.flags ?? 0;
  if (flags & ~allowedFlags) c.addIssue({ code: 'custom', path: ['flags'], message: 'Invalid flags.', params: { code: 'MESSAGE_FLAGS_INVALID' } });
  const v2 = (flags & MessageFlags.IS_COMPONENTS_V2) !== 0;
  if (!v2 && (b.components?.length ?? 0) > 5)
    c.addIssue({ code: 'custom', path: ['components'], message: 'Must be 5 or fewer in length.', params: { code: 'BASE_TYPE_MAX_LENGTH' } });
  if (v2 && (b.content || b.embeds?.length)) {
    c.addIssue({
      code: 'custom',
      path: [b.content ? 'content' : 'embeds'],
      message: "The 'content' and 'embeds' fields cannot be used when using the IS_COMPONENTS_V2 flag.",
      params: { code: 'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2' },
    });
  }
}

/**
 * The fields of a create body, unrefined, for callers that add their own (webhook `username`, `thread_name`, …):
 * `MessageCreateFields.extend({...}).superRefine((b, c) => crossFieldRules(b, c, CREATE_FLAGS))`.
 */
export const MessageCreateFields = z.object({
  content: z.string().max(2000).nullish(),
  nonce: Nonce.optional(),
  tts: bool.nullish(),
  embeds: EmbedList.nullish(),
  allowed_mentions: AllowedMentions.nullish(),
  message_reference: MessageReference.nullish(),
  components: Components.nullish(),
  sticker_ids: z.array(snowflake).max(3).nullish(),
  attachments: z.array(AttachmentRequest).max(10).nullish(),
  flags: int.nullish(),
  enforce_nonce: bool.nullish(),
  poll: Poll.nullish(),
});

/** The body of POST /channels/{id}/messages; webhooks and interactions reuse it. Unknown keys are stripped. */
export const MessageCreateBody = MessageCreateFields.superRefine((b, c) => crossFieldRules(b, c, CREATE_FLAGS));
export type MessageCreateInput = z.infer<typeof MessageCreateFields>;

/**
 * The body of PATCH /channels/{id}/messages/{id}. `null` clears a field; an absent key leaves it alone. Flags are not
 * checked here: clients echo a message's flags back, and the edit service keeps the bits that cannot change.
 */
export const MessageEditBody = z.object({
  content: z.string().max(2000).nullish(),
  embeds: EmbedList.nullish(),
  flags: int.nullish(),
  allowed_mentions: AllowedMentions.nullish(),
  components: Components.nullish(),
  attachments: z.array(AttachmentRequest).max(10).nullish(),
});
export type MessageEditInput = z.infer<typeof MessageEditBody>;

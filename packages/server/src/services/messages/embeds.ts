import { z } from 'zod';
import type { AttachmentRecord } from '../../store/records.js';

/** A URL the platform accepts in an embed: well formed, http(s), and `attachment://` where an upload can stand in. */
const embedUrl = (allowAttachment: boolean) =>
  z
    .string()
    .max(2048)
    .superRefine((v, c) => {
      const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(v)?.[1]?.toLowerCase();
      if (!scheme) {
        c.addIssue({ code: 'custom', message: 'Not a well formed URL.', params: { code: 'URL_TYPE_INVALID_URL' } });
        return;
      }
      const allowed = allowAttachment ? ['http', 'https', 'attachment'] : ['http', 'https'];
      if (!allowed.includes(scheme)) {
        c.addIssue({
          code: 'custom',
          message: `Scheme "${scheme}" is not supported. Scheme must be one of (${allowed.map((s) => `'${s}'`).join(', ')}).`,
          params: { code: 'URL_TYPE_INVALID_SCHEME' },
        });
        return;
      }
      if (scheme !== 'attachment' && !URL.canParse(v))
        c.addIssue({ code: 'custom', message: 'Not a well formed URL.', params: { code: 'URL_TYPE_INVALID_URL' } });
    });

const Media = z.object({
  url: embedUrl(true),
  proxy_url: z.string().max(2048).nullish(),
  width: z.number().int().min(0).nullish(),
  height: z.number().int().min(0).nullish(),
});

/** Text the platform requires: blank (after trimming) is "This field is required". */
const requiredText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((v) => v.trim().length > 0, { message: 'This field is required', params: { code: 'BASE_TYPE_REQUIRED' } });

const Timestamp = z.string().refine((v) => !Number.isNaN(Date.parse(v)), { message: 'Could not parse timestamp.', params: { code: 'DATE_TYPE_PARSE' } });

export const Embed = z.object({
  title: z.string().max(256).nullish(),
  type: z.string().max(32).nullish(),
  description: z.string().max(4096).nullish(),
  url: embedUrl(false).nullish(),
  timestamp: Timestamp.nullish(),
  color: z.number().int().min(0).max(0xffffff).nullish(),
  footer: z.object({ text: requiredText(2048), icon_url: embedUrl(true).nullish() }).nullish(),
  image: Media.nullish(),
  thumbnail: Media.nullish(),
  video: Media.nullish(),
  provider: z.object({ name: z.string().max(256).nullish(), url: z.string().max(2048).nullish() }).nullish(),
  author: z.object({ name: requiredText(256), url: embedUrl(false).nullish(), icon_url: embedUrl(true).nullish() }).nullish(),
  fields: z
    .array(z.object({ name: requiredText(256), value: requiredText(1024), inline: z.boolean().nullish() }))
    .max(25)
    .nullish(),
});
export type EmbedInput = z.infer<typeof Embed>;

const MAX_TOTAL = 6000;
const len = (s: string | null | undefined) => (s ? s.trim().length : 0);

/** Characters the 6000 limit counts, summed over all embeds of a message. */
export function embedsSize(embeds: EmbedInput[]): number {
  let n = 0;
  for (const e of embeds) {
    n += len(e.title) + len(e.description) + len(e.footer?.text) + len(e.author?.name);
    for (const f of e.fields ?? []) n += len(f.name) + len(f.value);
  }
  return n;
}

/** Up to 10 embeds whose text together stays within 6000 characters. */
export const EmbedList = z
  .array(Embed)
  .max(10)
  .superRefine((embeds, c) => {
    if (embedsSize(embeds) > MAX_TOTAL) {
      c.addIssue({ code: 'custom', message: `Embed size exceeds maximum size of ${MAX_TOTAL}`, params: { code: 'MAX_EMBED_SIZE_EXCEEDED' } });
    }
  });

/** Drops null/undefined keys so stored embeds carry only what was set. */
function compact<T extends Record<string, unknown>>(o: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v != null) out[k] = v;
  return out as Partial<T>;
}

/**
 * The stored (and returned) form of a request embed: always `rich`, empty keys dropped, timestamps normalized and
 * `attachment://name` links resolved to the uploaded file, as the platform does.
 */
export function normalizeEmbed(e: EmbedInput, attachments: AttachmentRecord[]): Record<string, unknown> {
  const byName = new Map(attachments.map((a) => [a.filename, a]));
  const resolve = (url: string) => {
    const m = /^attachment:\/\/(.+)$/i.exec(url);
    return m ? (byName.get(m[1]) ?? null) : null;
  };
  const media = (m: z.infer<typeof Media> | null | undefined) => {
    if (!m) return undefined;
    const att = resolve(m.url);
    if (att) return compact({ url: att.url, proxy_url: att.proxy_url, width: att.width, height: att.height, content_type: att.content_type });
    return compact({ url: m.url, proxy_url: m.url, width: m.width, height: m.height });
  };
  const icon = (url: string | null | undefined) => {
    if (!url) return {};
    const att = resolve(url);
    return { icon_url: att ? att.url : url, proxy_icon_url: att ? att.proxy_url : url };
  };
  return compact({
    type: 'rich',
    title: e.title,
    description: e.description,
    url: e.url,
    timestamp: e.timestamp ? new Date(e.timestamp).toISOString() : undefined,
    color: e.color,
    footer: e.footer ? { text: e.footer.text, ...icon(e.footer.icon_url) } : undefined,
    image: media(e.image),
    thumbnail: media(e.thumbnail),
    video: media(e.video),
    provider: e.provider ? compact(e.provider) : undefined,
    author: e.author ? compact({ name: e.author.name, url: e.author.url, ...icon(e.author.icon_url) }) : undefined,
    fields: e.fields?.map((f) => ({ name: f.name, value: f.value, inline: f.inline ?? false })),
  });
}

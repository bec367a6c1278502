import { z } from 'zod';
import { parseBody } from '../../../../core/validation.js';

/**
 * Slack's incoming-webhook payload turned into an execute body, as the platform's `/slack` endpoint does: `text` is the
 * content, `username` and `icon_url` name the sender, each attachment becomes an embed (title and its link, text,
 * colour, pretext, footer and its icon, author with link and icon, image, thumbnail, fields, `ts` as the timestamp).
 * Slack's `channel`, `icon_emoji`, `mrkdwn` and `mrkdwn_in` are not supported (docs) and are ignored.
 */
const Field = z.object({
  title: z.string().nullish(),
  name: z.string().nullish(),
  value: z.string().nullish(),
  short: z.boolean().nullish(),
  inline: z.boolean().nullish(),
});
const Attachment = z.object({
  title: z.string().nullish(),
  title_link: z.string().nullish(),
  text: z.string().nullish(),
  fallback: z.string().nullish(),
  color: z.string().nullish(),
  ts: z.union([z.number(), z.string()]).nullish(),
  pretext: z.string().nullish(),
  footer: z.string().nullish(),
  footer_icon: z.string().nullish(),
  author_name: z.string().nullish(),
  author_link: z.string().nullish(),
  author_icon: z.string().nullish(),
  image_url: z.string().nullish(),
  thumb_url: z.string().nullish(),
  fields: z.array(Field).max(25).nullish(),
});
export const SlackBody = z.object({
  text: z.string().nullish(),
  username: z.string().nullish(),
  icon_url: z.string().nullish(),
  attachments: z.array(Attachment).max(10).nullish(),
});

/** Slack's named colours, and `#rrggbb`. */
const NAMED: Record<string, number> = { good: 0x2eb886, warning: 0xdaa038, danger: 0xa30200 };
function colour(c: string | null | undefined): number | undefined {
  if (!c) return undefined;
  if (c in NAMED) return NAMED[c];
  const m = /^#?([0-9a-f]{6})$/i.exec(c);
  return m ? parseInt(m[1], 16) : undefined;
}

const defined = <T extends Record<string, unknown>>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null && v !== '')) as Partial<T>;

export function slackToExecute(body: unknown): Record<string, unknown> {
  const b = parseBody(SlackBody, body ?? {});
  const embeds = (b.attachments ?? []).map((a) => {
    const ts = a.ts == null ? undefined : Number(a.ts);
    const description = [a.pretext, a.text ?? (a.title ? undefined : a.fallback)].filter(Boolean).join('\n');
    return defined({
      title: a.title ?? undefined,
      url: a.title_link ?? undefined,
      description: description || undefined,
      color: colour(a.color),
      timestamp: ts !== undefined && Number.isFinite(ts) ? new Date(ts * 1000).toISOString() : undefined,
      footer: a.footer ? defined({ text: a.footer, icon_url: a.footer_icon ?? undefined }) : undefined,
      author: a.author_name ? defined({ name: a.author_name, url: a.author_link ?? undefined, icon_url: a.author_icon ?? undefined }) : undefined,
      image: a.image_url ? { url: a.image_url } : undefined,
      thumbnail: a.thumb_url ? { url: a.thumb_url } : undefined,
      fields: a.fields?.length
        ? a.fields.map((f) => ({ name: f.title ?? f.name ?? '\u200b', value: f.value || '\u200b', inline: f.short ?? f.inline ?? false }))
        : undefined,
    });
  });
  return defined({
    content: b.text ?? undefined,
    username: b.username ?? undefined,
    avatar_url: b.icon_url ?? undefined,
    embeds: embeds.length ? embeds : undefined,
  });
}

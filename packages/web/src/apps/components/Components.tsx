import type { ReactNode } from 'react';
import type { Channel, Message } from '../../lib/api/types.js';
import { Markdown } from '../../lib/markdown/Markdown.js';
import { useStore } from '../../lib/session.js';
import { Icon } from '../../lib/ui/index.js';
import { ComponentButton } from './ComponentButton.js';
import { SelectMenu } from './SelectMenu.js';

/**
 * An app's message components, legacy (action rows of buttons and selects) and V2 (sections, text displays,
 * thumbnails, media galleries, files, separators, containers). Interactive ones send component interactions;
 * a failure shows "This interaction failed" under them, as the official client does.
 */
export function Components({ message, channel }: { message: Message; channel: Channel }) {
  const failed = useStore((s) => {
    let last: { state: string; error?: string } | null = null;
    for (const p of s.interactions.values()) if (p.messageId === message.id && p.kind === 'component') last = p;
    return last?.state === 'failed' ? (last.error ?? 'This interaction failed') : null;
  });
  return (
    <div className="components">
      {(message.components as any[]).map((c, i) => (
        <Component key={c.id ?? i} c={c} message={message} channel={channel} />
      ))}
      {failed ? (
        <div className="components__failed" role="alert">
          <Icon name="warn" size={16} /> {failed}
        </div>
      ) : null}
    </div>
  );
}

type Props = { c: any; message: Message; channel: Channel };

function Component({ c, message, channel }: Props): ReactNode {
  switch (c.type) {
    case 1:
      return (
        <div className="crow">
          {(c.components ?? []).map((x: any, i: number) => (
            <Component key={x.custom_id ?? x.url ?? i} c={x} message={message} channel={channel} />
          ))}
        </div>
      );
    case 2:
      return <ComponentButton button={c} message={message} channel={channel} />;
    case 3:
    case 5:
    case 6:
    case 7:
    case 8:
      return <SelectMenu select={c} message={message} channel={channel} />;
    case 9:
      return (
        <div className="csection">
          <div className="csection__texts">
            {(c.components ?? []).map((x: any, i: number) => (
              <Component key={i} c={x} message={message} channel={channel} />
            ))}
          </div>
          {c.accessory ? (
            <div className="csection__accessory">
              <Component c={c.accessory} message={message} channel={channel} />
            </div>
          ) : null}
        </div>
      );
    case 10:
      return <Markdown className="ctext" text={c.content ?? ''} />;
    case 11:
      return <img className="cthumb" src={media(c.media?.url, message)} alt={c.description ?? ''} loading="lazy" />;
    case 12:
      return (
        <div className={`cgallery cgallery--${Math.min(4, c.items?.length ?? 1)}`}>
          {(c.items ?? []).map((it: any, i: number) => (
            <img key={i} src={media(it.media?.url, message)} alt={it.description ?? ''} loading="lazy" />
          ))}
        </div>
      );
    case 13: {
      const a = attachmentOf(c.file?.url, message);
      return (
        <div className="attach__file">
          <Icon name="file" size={28} />
          <a className="attach__name ellipsis" href={a?.url ?? c.file?.url} target="_blank" rel="noreferrer noopener">
            {a?.filename ?? fileName(c.file?.url)}
          </a>
        </div>
      );
    }
    case 14:
      return <div className={c.divider === false ? 'csep' : 'csep csep--line'} style={{ margin: c.spacing === 2 ? '16px 0' : '8px 0' }} role="separator" />;
    case 17:
      return (
        <div
          className={c.spoiler ? 'ccontainer ccontainer--spoiler' : 'ccontainer'}
          style={{ borderLeftColor: c.accent_color != null ? `#${Number(c.accent_color).toString(16).padStart(6, '0')}` : undefined }}
        >
          {(c.components ?? []).map((x: any, i: number) => (
            <Component key={i} c={x} message={message} channel={channel} />
          ))}
        </div>
      );
    default:
      return null;
  }
}

/** The message's upload a media URL points at: `attachment://name`, or the CDN URL the server resolved it to. */
function attachmentOf(url: string | undefined, m: Message) {
  if (!url) return null;
  if (url.startsWith('attachment://')) {
    const name = url.slice('attachment://'.length);
    return m.attachments?.find((a) => a.filename === name) ?? null;
  }
  return m.attachments?.find((a) => a.url === url || a.proxy_url === url) ?? null;
}

const fileName = (url: string | undefined) => decodeURIComponent(url?.split('?')[0].split('/').pop() ?? 'file');

/** `attachment://name` points at the message's own upload; other URLs are used as they are (http/https only). */
function media(url: string | undefined, m: Message): string | undefined {
  const a = attachmentOf(url, m);
  if (a) return a.proxy_url || a.url;
  return url && /^https?:\/\//.test(url) ? url : undefined;
}

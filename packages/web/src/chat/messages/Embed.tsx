import type { APIEmbed } from '../../lib/api/types.js';
import { Markdown } from '../../lib/markdown/Markdown.js';
import { fullTime } from '../../lib/markdown/timestamp.js';

const hex = (c?: number) => (c == null ? undefined : `#${c.toString(16).padStart(6, '0')}`);
const safe = (u?: string) => (u && /^https?:\/\//i.test(u) ? u : u?.startsWith('/') ? u : undefined);

/** A rich embed: colored bar, author, title link, description and fields in markdown, image, thumbnail, footer. */
export function Embed({ embed: e }: { embed: APIEmbed }) {
  const image = safe(e.image?.proxy_url ?? e.image?.url);
  const thumb = safe(e.thumbnail?.proxy_url ?? e.thumbnail?.url);
  if (e.type === 'image' && thumb) return <img className="embed__media" src={thumb} alt="" loading="lazy" />;
  return (
    <div className="embed" style={{ borderLeftColor: hex(e.color) ?? 'var(--bg-rail)' }}>
      <div className="embed__grid">
        <div className="embed__main">
          {e.provider?.name ? <div className="embed__provider">{e.provider.name}</div> : null}
          {e.author?.name ? (
            <div className="embed__author">
              {safe(e.author.icon_url) ? <img src={safe(e.author.icon_url)} alt="" width={24} height={24} /> : null}
              {safe(e.author.url) ? (
                <a href={safe(e.author.url)} target="_blank" rel="noreferrer noopener">
                  {e.author.name}
                </a>
              ) : (
                <span>{e.author.name}</span>
              )}
            </div>
          ) : null}
          {e.title ? (
            <div className="embed__title">
              {safe(e.url) ? (
                <a href={safe(e.url)} target="_blank" rel="noreferrer noopener">
                  <Markdown text={e.title} />
                </a>
              ) : (
                <Markdown text={e.title} />
              )}
            </div>
          ) : null}
          {e.description ? <Markdown className="embed__desc" text={e.description} /> : null}
          {e.fields?.length ? (
            <div className="embed__fields">
              {e.fields.map((f, i) => (
                <div key={i} className={f.inline ? 'embed__field embed__field--inline' : 'embed__field'}>
                  <Markdown className="embed__fname" text={f.name} />
                  <Markdown className="embed__fvalue" text={f.value} />
                </div>
              ))}
            </div>
          ) : null}
          {image ? <img className="embed__image" src={image} alt="" loading="lazy" /> : null}
        </div>
        {thumb ? <img className="embed__thumb" src={thumb} alt="" loading="lazy" /> : null}
      </div>
      {e.footer?.text || e.timestamp ? (
        <div className="embed__footer">
          {safe(e.footer?.icon_url) ? <img src={safe(e.footer?.icon_url)} alt="" width={20} height={20} /> : null}
          <span>{[e.footer?.text, e.timestamp ? fullTime(e.timestamp) : null].filter(Boolean).join(' • ')}</span>
        </div>
      ) : null}
    </div>
  );
}

import { useState } from 'react';
import type { APIAttachment } from '../../lib/api/types.js';
import { Icon } from '../../lib/ui/index.js';
import { ImageViewer } from './ImageViewer.js';

const isImage = (a: APIAttachment) => /^image\//.test(a.content_type ?? '') || /\.(png|jpe?g|gif|webp|avif)$/i.test(a.filename);
const isVideo = (a: APIAttachment) => /^video\//.test(a.content_type ?? '');

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(2)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

/** Uploaded files: images as previews (click to enlarge), videos inline, anything else as a download card. */
export function Attachments({ attachments }: { attachments: APIAttachment[] }) {
  const [open, setOpen] = useState<APIAttachment | null>(null);
  return (
    <div className="attachments">
      {attachments.map((a) => {
        const spoiler = a.filename.startsWith('SPOILER_');
        if (isImage(a)) {
          const w = a.width ?? 400;
          const h = a.height ?? 300;
          const scale = Math.min(1, 400 / w, 300 / h);
          return (
            <button
              key={a.id}
              type="button"
              className={spoiler ? 'attach__image attach--spoiler' : 'attach__image'}
              onClick={() => setOpen(a)}
              aria-label={`Open image ${a.filename}`}
            >
              <img src={a.proxy_url || a.url} alt={a.description ?? a.filename} width={Math.round(w * scale)} height={Math.round(h * scale)} loading="lazy" />
            </button>
          );
        }
        if (isVideo(a)) return <video key={a.id} className="attach__video" src={a.url} controls preload="metadata" />;
        return (
          <div key={a.id} className="attach__file">
            <Icon name="file" size={30} />
            <div className="grow" style={{ minWidth: 0 }}>
              <a className="attach__name ellipsis" href={a.url} download={a.filename} target="_blank" rel="noreferrer noopener">
                {a.filename}
              </a>
              <div className="attach__size">{size(a.size)}</div>
            </div>
            <a className="icon-btn" href={a.url} download={a.filename} aria-label={`Download ${a.filename}`}>
              <Icon name="upload" size={18} className="flip" />
            </a>
          </div>
        );
      })}
      {open ? <ImageViewer attachment={open} onClose={() => setOpen(null)} /> : null}
    </div>
  );
}

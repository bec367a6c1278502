import { useEffect, useMemo } from 'react';
import { Icon } from '../../lib/ui/index.js';

/** Files waiting to be sent: a thumbnail for images, a card for the rest, each removable. */
export function FilePreviews({ files, onRemove }: { files: File[]; onRemove: (i: number) => void }) {
  const urls = useMemo(() => files.map((f) => (f.type.startsWith('image/') ? URL.createObjectURL(f) : null)), [files]);
  useEffect(() => () => urls.forEach((u) => u && URL.revokeObjectURL(u)), [urls]);
  return (
    <ul className="previews" aria-label="Attachments">
      {files.map((f, i) => (
        <li key={i} className="preview">
          {urls[i] ? (
            <img src={urls[i]!} alt="" className="preview__img" />
          ) : (
            <div className="preview__file">
              <Icon name="file" size={36} />
            </div>
          )}
          <div className="preview__name ellipsis">{f.name}</div>
          <button type="button" className="preview__remove" aria-label={`Remove ${f.name}`} onClick={() => onRemove(i)}>
            <Icon name="trash" size={16} />
          </button>
        </li>
      ))}
    </ul>
  );
}

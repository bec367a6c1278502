import { useEffect } from 'react';
import { createPortal } from 'react-dom';
import type { APIAttachment } from '../../lib/api/types.js';

/** An image at full size over a dimmed page; Escape or a click closes it. */
export function ImageViewer({ attachment: a, onClose }: { attachment: APIAttachment; onClose: () => void }) {
  useEffect(() => {
    const k = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', k);
    return () => window.removeEventListener('keydown', k);
  }, [onClose]);
  return createPortal(
    <div className="overlay viewer" onClick={onClose} role="dialog" aria-label={a.filename}>
      <img src={a.url} alt={a.description ?? a.filename} />
      <a href={a.url} target="_blank" rel="noreferrer noopener" className="viewer__link" onClick={(e) => e.stopPropagation()}>
        Open original
      </a>
    </div>,
    document.body,
  );
}

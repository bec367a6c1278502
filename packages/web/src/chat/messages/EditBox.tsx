import { useState } from 'react';
import type { Message } from '../../lib/api/types.js';
import { readableError } from '../../lib/api/errors.js';
import { useApi } from '../../lib/session.js';

/** Inline edit: Enter saves, Escape cancels, as in the official client. */
export function EditBox({ message: m, onDone }: { message: Message; onDone: () => void }) {
  const api = useApi();
  const [text, setText] = useState(m.content ?? '');
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    if (text.trim() === (m.content ?? '').trim()) return onDone();
    try {
      await api.channels.edit(m.channel_id, m.id, { content: text });
      onDone();
    } catch (err) {
      setError(readableError(err));
    }
  };
  return (
    <div className="editbox">
      <textarea
        className="editbox__input"
        value={text}
        autoFocus
        aria-label="Edit message"
        rows={Math.min(8, text.split('\n').length)}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onDone();
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            void save();
          }
        }}
      />
      <div className="editbox__hint">
        escape to{' '}
        <button type="button" className="linklike" onClick={onDone}>
          cancel
        </button>{' '}
        • enter to{' '}
        <button type="button" className="linklike" onClick={() => void save()}>
          save
        </button>
      </div>
      {error ? <div className="msg__failure">{error}</div> : null}
    </div>
  );
}

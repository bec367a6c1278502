import { useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useStore } from '../../lib/session.js';

const COMMON = ['👍', '👎', '❤️', '😂', '😮', '😢', '😡', '🎉', '🔥', '👀', '✅', '❌', '🙏', '💯', '🚀', '🤔', '😄', '😍', '🥳', '😎', '👏', '💜', '⭐', '🍕'];

/** A small emoji grid: common Unicode emoji and the guild's own. The value is what the reaction route wants. */
export function EmojiPicker({
  x,
  y,
  guildId,
  onPick,
  onClose,
}: {
  x: number;
  y: number;
  guildId?: string;
  onPick: (emoji: string) => void;
  onClose: () => void;
}) {
  const custom = useStore((s) => (guildId ? s.guilds.get(guildId)?.emojis : undefined));
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const out = (e: MouseEvent) => {
      if (!ref.current?.contains(e.target as Node)) onClose();
    };
    const esc = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('mousedown', out);
    window.addEventListener('keydown', esc);
    return () => {
      window.removeEventListener('mousedown', out);
      window.removeEventListener('keydown', esc);
    };
  }, [onClose]);
  return createPortal(
    <div
      className="emojipicker"
      ref={ref}
      style={{ left: Math.max(8, Math.min(x, window.innerWidth - 300)), top: Math.min(y, window.innerHeight - 260) }}
      role="dialog"
      aria-label="Emoji picker"
    >
      <div className="emojipicker__grid">
        {COMMON.map((e) => (
          <button key={e} type="button" className="emojipicker__e" aria-label={e} onClick={() => onPick(e)}>
            {e}
          </button>
        ))}
        {(custom ?? []).map((e) => (
          <button key={e.id} type="button" className="emojipicker__e" aria-label={`:${e.name}:`} onClick={() => onPick(`${e.name}:${e.id}`)}>
            <img src={`/emojis/${e.id}.webp?size=32`} alt={e.name} width={24} height={24} />
          </button>
        ))}
      </div>
    </div>,
    document.body,
  );
}

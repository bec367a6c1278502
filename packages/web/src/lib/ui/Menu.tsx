import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

export interface MenuItem {
  label: string;
  onSelect: () => void;
  danger?: boolean;
  hint?: ReactNode;
}

export type MenuEntry = MenuItem | 'separator' | { heading: string };

/**
 * A context menu at a point; any click outside or Escape closes it. On a phone (styles/phone.css) it is an action
 * sheet from the bottom of the screen over a scrim, which takes the tap that closes it so nothing under it acts.
 */
export function Menu({ x, y, items, onClose, label }: { x: number; y: number; items: MenuEntry[]; onClose: () => void; label?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const scrim = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState({ left: x, top: y });
  useLayoutEffect(() => {
    const r = ref.current?.getBoundingClientRect();
    if (!r) return;
    setPos({ left: Math.min(x, window.innerWidth - r.width - 8), top: Math.min(y, window.innerHeight - r.height - 8) });
  }, [x, y]);
  useEffect(() => {
    const close = (e: Event) => {
      if (e instanceof KeyboardEvent && e.key !== 'Escape') return;
      // The scrim closes on its click, so the press that lands on it does not reach what is under it.
      if (e instanceof MouseEvent && (ref.current?.contains(e.target as Node) || e.target === scrim.current)) return;
      onClose();
    };
    window.addEventListener('mousedown', close);
    window.addEventListener('keydown', close);
    window.addEventListener('blur', onClose);
    return () => {
      window.removeEventListener('mousedown', close);
      window.removeEventListener('keydown', close);
      window.removeEventListener('blur', onClose);
    };
  }, [onClose]);
  return createPortal(
    <>
      <div className="menu-scrim" aria-hidden ref={scrim} onClick={onClose} />
      <div className="menu" role="menu" aria-label={label} ref={ref} style={pos}>
        {items.map((it, i) => {
          if (it === 'separator') return <div key={i} className="menu__sep" />;
          if ('heading' in it)
            return (
              <div key={i} className="menu__label">
                {it.heading}
              </div>
            );
          return (
            <button
              key={i}
              type="button"
              role="menuitem"
              className={it.danger ? 'menu__item menu__item--danger' : 'menu__item'}
              onClick={() => {
                onClose();
                it.onSelect();
              }}
            >
              <span>{it.label}</span>
              {it.hint}
            </button>
          );
        })}
      </div>
    </>,
    document.body,
  );
}

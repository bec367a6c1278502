import { useEffect, useRef, type RefObject } from 'react';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), textarea:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Keeps Tab inside a modal while it is open, closes it on Escape, and gives focus back to what had it before
 * (a menu item or button the person used to open it).
 */
export function useFocusTrap(ref: RefObject<HTMLElement | null>, onEscape: () => void, initial?: string): void {
  // The latest handler, so a parent re-rendering with a new closure does not move focus back to the start.
  const escape = useRef(onEscape);
  escape.current = onEscape;
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    const root = ref.current;
    const pick = initial ? root?.querySelector<HTMLElement>(initial) : null;
    (pick ?? root?.querySelector<HTMLElement>(FOCUSABLE) ?? root)?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        escape.current();
        return;
      }
      if (e.key !== 'Tab' || !root) return;
      const items = [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null);
      if (!items.length) return e.preventDefault();
      const first = items[0]!;
      const last = items[items.length - 1]!;
      const inside = root.contains(document.activeElement);
      if (e.shiftKey && (document.activeElement === first || !inside)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && (document.activeElement === last || !inside)) {
        e.preventDefault();
        first.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      if (before?.isConnected) before.focus();
    };
  }, [ref, initial]);
}

import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { Icon } from '../lib/ui/index.js';

/** Below this width (styles/phone.css uses the same) the lists become drawers over the chat. */
export const PHONE_QUERY = '(max-width: 767.98px)';

export type DrawerSide = 'nav' | 'members' | null;

interface Drawers {
  open: DrawerSide;
  setOpen: (side: DrawerSide) => void;
}

const DrawerContext = createContext<Drawers>({ open: null, setOpen: () => undefined });

export const useDrawers = () => useContext(DrawerContext);

export function DrawerProvider({ value, children }: { value: Drawers; children: ReactNode }) {
  return <DrawerContext.Provider value={value}>{children}</DrawerContext.Provider>;
}

/** Whether the phone layout is in effect, following the window as it is resized or turned. */
export function usePhone(): boolean {
  const [phone, setPhone] = useState(() => matchMedia(PHONE_QUERY).matches);
  useEffect(() => {
    const mq = matchMedia(PHONE_QUERY);
    const on = () => setPhone(mq.matches);
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, []);
  return phone;
}

/** The header button that opens the servers and channels drawer; shown on phones only (phone.css). */
export function NavDrawerButton() {
  const { open, setOpen } = useDrawers();
  return (
    <button
      type="button"
      className="icon-btn phone-only"
      aria-label="Open servers and channels"
      aria-expanded={open === 'nav'}
      onClick={() => setOpen(open === 'nav' ? null : 'nav')}
    >
      <Icon name="menu" />
    </button>
  );
}

/** Covers the chat while a drawer is open; a tap on it closes the drawer. */
export function DrawerScrim() {
  const { open, setOpen } = useDrawers();
  if (!open) return null;
  return <div className="drawer-scrim" aria-hidden onClick={() => setOpen(null)} />;
}

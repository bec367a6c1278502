import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useSession, useStore } from '../../lib/session.js';
import { confirmInPage, Icon } from '../../lib/ui/index.js';
import { AccountSection } from './AccountSection.js';
import { ProfileSection } from './ProfileSection.js';
import { ServerProfileSection } from './ServerProfileSection.js';
import { userSettingsApi } from './api.js';
import './user-settings.css';

type Section = 'account' | 'profile' | 'servers';
const SECTIONS: { id: Section; label: string }[] = [
  { id: 'account', label: 'My Account' },
  { id: 'profile', label: 'Profiles' },
  { id: 'servers', label: 'Server Profiles' },
];

/**
 * User Settings, over the whole client as in the official one: My Account (username, email, password), Profiles
 * (avatar, display name, about me, banner color), Server Profiles (a nickname per server) and Log Out. The chat under
 * it is inert while it is open; Escape closes it unless a dialog of its own is open.
 */
export function UserSettings({ onClose, initial = 'account' }: { onClose: () => void; initial?: Section }) {
  const { api, store, signOut } = useSession();
  const me = useStore((s) => s.me);
  const [section, setSection] = useState<Section>(initial);
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    // The fields READY leaves out (bio, email) come from GET /users/@me.
    userSettingsApi(api)
      .me()
      .then((u) => store.state.me && store.set({ me: { ...store.state.me, ...u } }))
      .catch(() => undefined);
    const root = document.getElementById('root');
    const before = document.activeElement as HTMLElement | null;
    root?.setAttribute('inert', '');
    ref.current?.querySelector<HTMLElement>('[aria-current="page"]')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !ref.current?.parentElement?.querySelector('[aria-modal="true"]:not(.usettings)')) onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      root?.removeAttribute('inert');
      if (before?.isConnected) before.focus();
    };
  }, []);

  const logOut = async () => {
    if (await confirmInPage({ title: 'Log Out', body: 'Are you sure you want to log out?', confirmLabel: 'Log Out', danger: true })) signOut();
  };
  if (!me) return null;
  const title = SECTIONS.find((s) => s.id === section)!.label;

  return createPortal(
    <div className="usettings" role="dialog" aria-modal="true" aria-label="User Settings" ref={ref}>
      <nav className="usettings__nav" aria-label="Settings sections">
        <div className="usettings__navhead">User Settings</div>
        {SECTIONS.map((s) => (
          <button key={s.id} type="button" className="usettings__tab" aria-current={s.id === section ? 'page' : undefined} onClick={() => setSection(s.id)}>
            {s.label}
          </button>
        ))}
        <div className="usettings__sep" />
        <button type="button" className="usettings__tab usettings__tab--danger" onClick={() => void logOut()}>
          <span className="usettings__logout">Log Out</span> <Icon name="logout" size={16} />
        </button>
      </nav>
      <div className="usettings__content">
        <div className="usettings__page">
          <h2 className="usettings__title">{title}</h2>
          {section === 'account' ? (
            <AccountSection onEditProfile={() => setSection('profile')} />
          ) : section === 'profile' ? (
            <ProfileSection />
          ) : (
            <ServerProfileSection />
          )}
        </div>
        <button type="button" className="usettings__close" aria-label="Close User Settings" onClick={onClose}>
          <Icon name="x" />
        </button>
      </div>
    </div>,
    document.body,
  );
}

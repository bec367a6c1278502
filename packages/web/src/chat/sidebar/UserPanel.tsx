import { useState } from 'react';
import { useStore, useSession } from '../../lib/session.js';
import { Avatar, displayName, Icon } from '../../lib/ui/index.js';
import { VoiceControls } from '../../voice/VoiceControls.js';
import { UserSettings } from '../../settings/user/UserSettings.js';

/** The person's own card at the bottom of the sidebar, with User Settings and log out (and the voice connection above it while in voice). */
export function UserPanel() {
  const me = useStore((s) => s.me);
  const status = useStore((s) => s.status);
  const { signOut } = useSession();
  const [settings, setSettings] = useState(false);
  if (!me) return null;
  return (
    <>
      <VoiceControls />
      <div className="userpanel">
        <Avatar user={me} size={32} status={status === 'ready' ? 'online' : 'offline'} ring="var(--bg-panel)" />
        <div className="userpanel__names grow">
          <div className="userpanel__name ellipsis">{displayName(me)}</div>
          <div className="userpanel__tag ellipsis">{me.username}</div>
        </div>
        <a className="icon-btn" href="/developers/applications" title="Developer Portal" aria-label="Developer Portal">
          <Icon name="code" size={18} />
        </a>
        <button type="button" className="icon-btn" title="User Settings" aria-label="User Settings" onClick={() => setSettings(true)}>
          <Icon name="gear" size={18} />
        </button>
        <button type="button" className="icon-btn" title="Log Out" aria-label="Log Out" onClick={signOut}>
          <Icon name="logout" size={18} />
        </button>
      </div>
      {settings ? <UserSettings onClose={() => setSettings(false)} /> : null}
    </>
  );
}

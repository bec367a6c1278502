import '../oauth/consent.css';
import './desktop-link.css';
import { AppIcon } from '../lib/oauth/AppIcon.js';
import { Button, Dialog } from '../lib/ui/index.js';
import { ScopeList } from '../oauth/ScopeList.js';
import { useDesktopLink } from './useDesktopLink.js';

/**
 * Mounted once in the app shell: when Accord's local client runs on this computer for the same account, an app's
 * AUTHORIZE request (a game, a tool) is asked here instead of on the terminal.
 */
export function DesktopLink() {
  const { current, answer } = useDesktopLink();
  if (!current) return null;
  const { application: app, scopes, user } = current.request;
  const who = user.global_name ? `${user.global_name} (@${user.username})` : `@${user.username}`;
  return (
    <Dialog
      title={`Authorize ${app.name}?`}
      label="Authorize an app on this computer"
      onClose={() => answer(current.id, false)}
      footer={
        <>
          <Button variant="link" onClick={() => answer(current.id, false)}>
            Cancel
          </Button>
          <span className="grow" />
          <Button onClick={() => answer(current.id, true)}>Authorize</Button>
        </>
      }
    >
      <div className="desktop-consent">
        <div className="desktop-consent__head">
          <AppIcon app={app} size={56} radius={16} />
          <div className="grow">
            <div className="desktop-consent__kicker">An app on this computer</div>
            <div className="desktop-consent__name">{app.name}</div>
            <div className="desktop-consent__who">
              wants to connect to your account <strong>{who}</strong> through the Accord app running here (
              {current.request.transport === 'ipc' ? 'local socket' : 'local WebSocket'}).
            </div>
          </div>
        </div>
        <ScopeList scopes={scopes} appName={app.name} userInstall={false} />
        <p className="desktop-consent__note">Only authorize apps you started yourself. You can remove it later from your authorized apps.</p>
      </div>
    </Dialog>
  );
}

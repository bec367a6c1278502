import { useLocation } from 'react-router';
import { AppIcon } from '../lib/oauth/AppIcon.js';
import { Icon } from '../lib/ui/index.js';
import { ConsentShell } from './ConsentShell.js';

interface Done {
  application?: { id: string; name: string; icon: string | null };
  guild?: { id: string; name: string } | null;
  userInstall?: boolean;
}

/** /oauth2/authorized: where an authorization without a redirect URI ends (a bot added from its install link). */
export default function AuthorizedPage() {
  const done = (useLocation().state ?? {}) as Done;
  const app = done.application;
  return (
    <ConsentShell label="Authorized">
      <div className="consent__done">
        {app ? (
          <span className="consent__badged">
            <AppIcon app={app} size={80} radius={24} />
            <span className="consent__badge">
              <Icon name="check" size={16} />
            </span>
          </span>
        ) : (
          <div className="consent__done-icon">
            <Icon name="check" size={32} />
          </div>
        )}
        <h1 className="consent__title">Authorized</h1>
        <p className="consent__sub">
          {app && done.guild ? (
            <>
              <strong>{app.name}</strong> has been added to <strong>{done.guild.name}</strong>.
            </>
          ) : app && done.userInstall ? (
            <>
              <strong>{app.name}</strong> has been added to your apps. Its commands are ready wherever you chat.
            </>
          ) : app ? (
            <>
              <strong>{app.name}</strong> is authorized.
            </>
          ) : (
            'You may now close this window.'
          )}
        </p>
        <div className="row">
          {done.guild ? (
            <a className="btn" href={`/channels/${done.guild.id}`}>
              Go to {done.guild.name}
            </a>
          ) : null}
          <a className={done.guild ? 'btn btn--secondary' : 'btn'} href="/channels/@me">
            Open Accord
          </a>
        </div>
      </div>
    </ConsentShell>
  );
}

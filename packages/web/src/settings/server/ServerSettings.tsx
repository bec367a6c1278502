import { useEffect, useMemo, type ReactNode } from 'react';
import { Link, Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { useSession, useStore } from '../../lib/session.js';
import { ErrorState, Icon, Loading } from '../../lib/ui/index.js';
import { useLater } from '../../lib/use-later.js';
import { usePhone } from '../../chat/drawers.js';
import { allowedSections, settingsPath, type SectionId } from './access.js';
import { settingsApi } from './api.js';
import { OPEN_PARAM } from './use-open-item.js';
import type { SectionProps } from './section-props.js';
import { Overview } from './Overview.js';
import { Roles } from './Roles.js';
import { Channels } from './Channels.js';
import { Invites } from './Invites.js';
import { Bans } from './Bans.js';
import { AuditLogSection } from './AuditLog.js';
import { Expressions } from './Expressions.js';
import './server-settings.css';

const SCREENS: Record<SectionId, (p: SectionProps) => ReactNode> = {
  overview: Overview,
  roles: Roles,
  channels: Channels,
  invites: Invites,
  bans: Bans,
  'audit-log': AuditLogSection,
  emojis: Expressions,
};

/**
 * /settings/server/{guild}/{section}: the server's settings, full screen, sections on the left (on a phone the
 * section list is its own screen, as in the official mobile client). Escape or the close button goes back to
 * the server. Each section shows only to people with its permission.
 */
export default function ServerSettings() {
  const { guildId = '', section } = useParams();
  const { api } = useSession();
  const me = useStore((s) => s.me);
  const guild = useStore((s) => s.guilds.get(guildId));
  const nav = useNavigate();
  const phone = usePhone();
  const late = useLater(guildId, 5000);
  const calls = useMemo(() => settingsApi(api, guildId), [api, guildId]);
  const back = `/channels/${guildId}`;
  const inItem = useSearchParams()[0].has(OPEN_PARAM);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && !document.querySelector('[aria-modal="true"], .menu') && nav(back);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [back]);

  if (!me || !guild || guild.unavailable)
    return late && me ? (
      <ErrorState title="Server not found" message="This server does not exist or you are not a member." />
    ) : (
      <Loading label="Loading server…" />
    );
  const sections = allowedSections(guild, me.id);
  if (!sections.length) return <ErrorState title="No access" message="You do not have permission to manage this server." />;
  const current = sections.find((s) => s.id === section);
  if (section && !current) return <Navigate to={settingsPath(guildId)} replace />;
  if (!current && !phone) return <Navigate to={settingsPath(guildId, sections[0].id)} replace />;
  const Screen = current ? SCREENS[current.id] : null;

  return (
    <div className={current ? 'ss ss--section' : 'ss ss--nav'}>
      <nav className="ss__nav" aria-label="Server settings">
        <div className="ss__nav-inner">
          <div className="ss__nav-title ellipsis">{guild.name}</div>
          {sections.map((s) => (
            <Link
              key={s.id}
              to={settingsPath(guildId, s.id)}
              className={s.id === current?.id ? 'ss__tab ss__tab--active' : 'ss__tab'}
              aria-current={s.id === current?.id ? 'page' : undefined}
            >
              {s.label}
            </Link>
          ))}
          <Link to={back} className="ss__tab phone-only-block">
            Back to the server
          </Link>
        </div>
      </nav>
      {current && Screen ? (
        <main className="ss__main" aria-labelledby="ss-title">
          <div className="ss__content">
            <header className="ss__head">
              <Link
                to={inItem ? settingsPath(guildId, current.id) : settingsPath(guildId)}
                className="icon-btn phone-only"
                aria-label={inItem ? `Back to ${current.label}` : 'All settings'}
              >
                <Icon name="chevron" className="ss__back-icon" />
              </Link>
              <h1 id="ss-title" className="ss__title">
                {current.label}
              </h1>
            </header>
            <Screen guild={guild} me={me} api={calls} />
          </div>
          <Link to={back} className="ss__close">
            <Icon name="x" />
            <span className="sr-only">Close settings</span>
            <span className="ss__esc">ESC</span>
          </Link>
        </main>
      ) : null}
    </div>
  );
}

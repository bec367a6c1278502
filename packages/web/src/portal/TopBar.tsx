import './portal.css';
import './portal-phone.css';
import { Link, NavLink } from 'react-router';
import type { APIUser } from '../lib/api/types.js';
import { Avatar, displayName, Icon } from '../lib/ui/index.js';

/** The bar over the developer portal and the dev tools. */
export function TopBar({ me, devTools }: { me: APIUser | null; devTools: boolean }) {
  return (
    <header className="portal__top">
      <Link to="/developers/applications" className="portal__brand" aria-label="Accord Developers">
        <svg width="24" height="24" viewBox="0 0 32 32" aria-hidden>
          <rect width="32" height="32" rx="10" fill="#5865f2" />
          <path d="M9 22l7-13 7 13" stroke="white" strokeWidth="3" fill="none" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        <span>
          Accord <b>Developers</b>
        </span>
      </Link>
      <nav className="portal__topnav" aria-label="Portal">
        <NavLink to="/developers/applications">Applications</NavLink>
        {devTools ? <NavLink to="/developers/dev">Dev tools</NavLink> : null}
        <a href="/channels/@me">
          Open Accord <Icon name="external" size={14} />
        </a>
      </nav>
      <span className="grow" />
      {me ? (
        <span className="portal__me">
          <Avatar user={me} size={28} />
          <span>{displayName(me)}</span>
        </span>
      ) : null}
    </header>
  );
}

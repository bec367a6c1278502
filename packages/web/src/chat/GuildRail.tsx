import { Link } from 'react-router';
import { useStore } from '../lib/session.js';
import { Icon } from '../lib/ui/index.js';

/** The server list on the far left: Direct Messages, each guild, and "Add a Server". */
export function GuildRail({ active, onAdd }: { active: string; onAdd?: () => void }) {
  const order = useStore((s) => s.guildOrder);
  const guilds = useStore((s) => s.guilds);
  return (
    <nav className="rail" aria-label="Servers">
      <Link
        to="/channels/@me"
        className={active === '@me' ? 'rail__item rail__item--active rail__home' : 'rail__item rail__home'}
        aria-label="Direct Messages"
        title="Direct Messages"
      >
        <Icon name="home" size={24} />
      </Link>
      <div className="rail__sep" />
      {order.map((id) => {
        const g = guilds.get(id);
        if (!g || g.unavailable) return null;
        return (
          <Link key={id} to={`/channels/${id}`} className={active === id ? 'rail__item rail__item--active' : 'rail__item'} aria-label={g.name} title={g.name}>
            <span className="rail__initials" data-initials={initials(g.name)} aria-hidden />
          </Link>
        );
      })}
      <button type="button" className="rail__item rail__add" aria-label="Add a Server" title="Add a Server" onClick={onAdd}>
        <Icon name="plus" size={24} />
      </button>
    </nav>
  );
}

export const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 3)
    .map((w) => w[0])
    .join('')
    .toUpperCase() || '?';

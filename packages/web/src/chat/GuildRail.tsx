import { Link } from 'react-router';
import { useStore } from '../lib/session.js';
import { Icon } from '../lib/ui/index.js';
import { guildSummary, unreadDmCount } from '../lib/state/read-states.js';
import { MentionBadge } from './read-states/MentionBadge.js';
import { plural } from '../lib/plural.js';

/** The server list on the far left: Direct Messages, each guild, and "Add a Server". */
export function GuildRail({ active, onAdd }: { active: string; onAdd?: () => void }) {
  const order = useStore((s) => s.guildOrder);
  const guilds = useStore((s) => s.guilds);
  const readStates = useStore((s) => s.readStates);
  const privateChannels = useStore((s) => s.privateChannels);
  const state = { readStates, privateChannels, guilds };
  return (
    <nav className="rail" aria-label="Servers">
      <Link
        to="/channels/@me"
        className={active === '@me' ? 'rail__item rail__item--active rail__home' : 'rail__item rail__home'}
        aria-label="Direct Messages"
        title="Direct Messages"
      >
        <Icon name="home" size={24} />
        <MentionBadge count={unreadDmCount(state)} />
      </Link>
      <div className="rail__sep" />
      {order.map((id) => {
        const g = guilds.get(id);
        if (!g || g.unavailable) return null;
        const { unread, mentions } = guildSummary(state, g);
        return (
          <Link
            key={id}
            to={`/channels/${id}`}
            className={`rail__item${active === id ? ' rail__item--active' : ''}${unread ? ' rail__item--unread' : ''}`}
            aria-label={mentions ? `${g.name}, ${plural(mentions, 'mention', 'mentions')}` : unread ? `${g.name}, unread` : g.name}
            title={g.name}
            data-unread={unread || undefined}
          >
            {g.icon ? (
              <img className="rail__icon" src={`/icons/${id}/${g.icon}.png?size=96`} alt="" />
            ) : (
              <span className="rail__initials" data-initials={initials(g.name)} aria-hidden />
            )}
            <MentionBadge count={mentions} />
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

import { useState } from 'react';
import { readableError } from '../../lib/api/errors.js';
import { useAction } from '../../lib/use-action.js';
import { Avatar, Banner, Button, displayName, Empty, ErrorState, Loading } from '../../lib/ui/index.js';
import type { SectionProps } from './section-props.js';
import { useLoad } from './use-load.js';

/** Banned people with the reason given; unbanning lets them join again with an invite. */
export function Bans({ api }: SectionProps) {
  const list = useLoad(() => api.bans(), [api]);
  const [query, setQuery] = useState('');
  const unban = useAction(async (id: string) => {
    await api.unban(id);
    await list.reload();
  });
  if (list.error) return <ErrorState message={readableError(list.error)} onRetry={() => void list.reload()} />;
  if (!list.data) return <Loading />;
  if (!list.data.length)
    return (
      <Empty icon="users" title="No bans">
        Nobody is banned from this server.
      </Empty>
    );
  const q = query.trim().toLowerCase();
  const shown = list.data.filter((b) => !q || b.user.username.toLowerCase().includes(q) || displayName(b.user).toLowerCase().includes(q) || b.user.id === q);
  return (
    <div>
      <input
        className="input ss-search"
        type="search"
        aria-label="Search bans by user"
        placeholder="Search bans by user"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      {unban.error ? <Banner>{readableError(unban.error)}</Banner> : null}
      <ul className="ss-list" aria-label="Banned users">
        {shown.map((b) => (
          <li key={b.user.id} className="ss-row ss-row--tall" data-ban={b.user.id}>
            <Avatar user={b.user} size={32} />
            <div className="grow ss-row__text">
              <div className="ellipsis">
                <strong>{displayName(b.user)}</strong> <span className="muted">{b.user.username}</span>
              </div>
              <div className="muted ss-row__reason">{b.reason ? `Reason: ${b.reason}` : 'No reason given'}</div>
            </div>
            <Button variant="secondary" size="sm" aria-label={`Unban ${displayName(b.user)}`} busy={unban.busy} onClick={() => void unban.run(b.user.id)}>
              Unban
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}

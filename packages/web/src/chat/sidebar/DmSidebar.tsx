import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import type { Channel } from '../../lib/api/types.js';
import { compareIds } from '../../lib/state/snowflake.js';
import { useStore } from '../../lib/session.js';
import { Avatar, displayName, Icon } from '../../lib/ui/index.js';
import { NewGroupDialog } from './NewGroupDialog.js';
import { UserPanel } from './UserPanel.js';
import { plural } from '../../lib/plural.js';
import { isUnread } from '../../lib/state/read-states.js';
import { MentionBadge } from '../read-states/MentionBadge.js';

/** Direct messages and group DMs, the most recent conversation first. */
export function DmSidebar({ activeId }: { activeId?: string }) {
  const channels = useStore((s) => s.privateChannels);
  const presences = useStore((s) => s.presences);
  const [creating, setCreating] = useState(false);
  const list = useMemo(() => [...channels.values()].sort((a, b) => compareIds(b.last_message_id ?? b.id, a.last_message_id ?? a.id)), [channels]);
  return (
    <aside className="sidebar" aria-label="Direct Messages">
      <div className="sidebar__header sidebar__header--plain">Direct Messages</div>
      <div className="sidebar__scroll">
        <div className="cat__head cat__head--static">
          <span className="grow">Conversations</span>
          <button type="button" className="icon-btn icon-btn--xs" aria-label="Create DM" title="Create DM" onClick={() => setCreating(true)}>
            <Icon name="plus" size={16} />
          </button>
        </div>
        {list.length === 0 ? <p className="sidebar__empty">No conversations yet. Message someone from a server's member list.</p> : null}
        {list.map((c) => (
          <DmRow
            key={c.id}
            channel={c}
            active={c.id === activeId}
            status={c.type === 1 ? (presences.get(c.recipients?.[0]?.id ?? '')?.status ?? 'offline') : null}
          />
        ))}
      </div>
      <UserPanel />
      {creating ? <NewGroupDialog onClose={() => setCreating(false)} /> : null}
    </aside>
  );
}

export function dmName(c: Channel): string {
  if (c.name) return c.name;
  return (c.recipients ?? []).map((u) => displayName(u)).join(', ') || 'Empty group';
}

function DmRow({ channel, active, status }: { channel: Channel; active: boolean; status: string | null }) {
  const group = channel.type === 3;
  const rs = useStore((s) => s.readStates.get(channel.id));
  const unread = isUnread(channel, rs);
  return (
    <Link to={`/channels/@me/${channel.id}`} className={`dm${active ? ' dm--active' : ''}${unread ? ' dm--unread' : ''}`} data-unread={unread || undefined}>
      {group ? (
        <span className="dm__group" aria-hidden>
          <Icon name="users" size={18} />
        </span>
      ) : (
        <Avatar user={channel.recipients?.[0]} size={32} status={status} />
      )}
      <span className="grow" style={{ minWidth: 0 }}>
        <span className="dm__name ellipsis">{dmName(channel)}</span>
        {group ? <span className="dm__sub">{plural((channel.recipients?.length ?? 0) + 1, 'Member', 'Members')}</span> : null}
      </span>
      {unread ? <MentionBadge count={rs?.mentionCount ?? 0} /> : null}
    </Link>
  );
}

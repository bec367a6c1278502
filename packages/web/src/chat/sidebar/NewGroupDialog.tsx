import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { readableError } from '../../lib/api/errors.js';
import { useSession, useStore } from '../../lib/session.js';
import { useAction } from '../../lib/use-action.js';
import { Avatar, Banner, Button, Dialog, displayName } from '../../lib/ui/index.js';

/** "Select Friends": people you share a server with; one opens a DM, several a group DM. */
export function NewGroupDialog({ onClose }: { onClose: () => void }) {
  const { api } = useSession();
  const nav = useNavigate();
  const me = useStore((s) => s.me)!;
  const users = useStore((s) => s.users);
  const [query, setQuery] = useState('');
  const [picked, setPicked] = useState<string[]>([]);
  const people = useMemo(
    () =>
      [...users.values()]
        .filter((u) => u.id !== me.id && !u.bot)
        .filter((u) => !query || `${u.username} ${u.global_name ?? ''}`.toLowerCase().includes(query.toLowerCase()))
        .sort((a, b) => displayName(a).localeCompare(displayName(b)))
        .slice(0, 50),
    [users, query],
  );
  const { busy, error, run } = useAction(async () => {
    const c = picked.length === 1 ? await api.users.openDm(picked[0]) : await api.users.openGroupDm(picked);
    onClose();
    nav(`/channels/@me/${c.id}`);
  });
  const toggle = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : p.length >= 9 ? p : [...p, id]));
  return (
    <Dialog
      title="Select Friends"
      subtitle={`You can add ${9 - picked.length} more.`}
      onClose={onClose}
      footer={
        <Button block busy={busy} disabled={!picked.length} onClick={() => void run()}>
          {picked.length > 1 ? 'Create Group DM' : 'Create DM'}
        </Button>
      }
    >
      {error ? (
        <div style={{ marginBottom: 12 }}>
          <Banner>{readableError(error)}</Banner>
        </div>
      ) : null}
      <input
        className="input"
        placeholder="Type the username of a friend"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        aria-label="Search people"
      />
      <ul className="picklist">
        {people.length === 0 ? (
          <li className="muted" style={{ padding: 12 }}>
            Nobody here yet. People you share a server with show up here.
          </li>
        ) : null}
        {people.map((u) => (
          <li key={u.id}>
            <label className="picklist__row">
              <Avatar user={u} size={32} />
              <span className="grow">
                <strong>{displayName(u)}</strong> <span className="muted">{u.username}</span>
              </span>
              <input type="checkbox" checked={picked.includes(u.id)} onChange={() => toggle(u.id)} aria-label={displayName(u)} />
            </label>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}

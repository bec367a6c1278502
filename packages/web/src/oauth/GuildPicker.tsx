import { useId } from 'react';
import type { ConsentGuild } from './api.js';

/** The server to install into: only servers where the person has Manage Server are offered. */
export function GuildPicker({ guilds, value, onChange, locked }: { guilds: ConsentGuild[]; value: string; onChange: (id: string) => void; locked: boolean }) {
  const id = useId();
  if (!guilds.length) {
    return (
      <div className="consent__section">
        <div className="consent__label">Add to server</div>
        <div className="consent__empty">
          You don't manage any server yet. You need the <strong>Manage Server</strong> permission in a server to add an app to it.{' '}
          <a href="/channels/@me">Create a server</a> and come back to this link.
        </div>
      </div>
    );
  }
  return (
    <div className="consent__section">
      <label className="consent__label" htmlFor={id}>
        Add to server
      </label>
      <select id={id} className="select consent__select" value={value} onChange={(e) => onChange(e.target.value)} disabled={locked}>
        {guilds.map((g) => (
          <option key={g.id} value={g.id}>
            {g.name}
          </option>
        ))}
      </select>
      <p className="consent__hint">
        This requires you to have the <strong>Manage Server</strong> permission in the server.
      </p>
    </div>
  );
}

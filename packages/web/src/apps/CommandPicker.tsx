import { useEffect, useMemo, useRef } from 'react';
import { Icon, Spinner } from '../lib/ui/index.js';
import type { CommandEntry } from './command-index.js';

/** The list above the composer while typing "/…": commands whose name starts with (or contains) the query. */
export function CommandPicker({
  entries,
  loading,
  query,
  selected,
  onHover,
  onPick,
}: {
  entries: CommandEntry[];
  loading: boolean;
  query: string;
  selected: number;
  onHover: (i: number) => void;
  onPick: (e: CommandEntry) => void;
}) {
  const list = useMemo(() => filterCommands(entries, query), [entries, query]);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [selected]);
  return (
    <div className="picker" role="listbox" aria-label="Commands" ref={ref}>
      <div className="picker__head">
        {query ? (
          <>
            Commands matching <strong>/{query}</strong>
          </>
        ) : (
          'Commands'
        )}
      </div>
      {loading ? (
        <div className="picker__empty">
          <Spinner small /> Loading commands…
        </div>
      ) : null}
      {!loading && !list.length ? (
        <div className="picker__empty">No commands match. Apps added to this server or to your account show their commands here.</div>
      ) : null}
      {list.map((e, i) => (
        <div
          key={e.key}
          role="option"
          aria-selected={i === selected}
          className={i === selected ? 'picker__item picker__item--on' : 'picker__item'}
          onMouseEnter={() => onHover(i)}
          onMouseDown={(ev) => {
            ev.preventDefault();
            onPick(e);
          }}
        >
          <span className="picker__app" aria-hidden>
            <Icon name="bot" size={16} />
          </span>
          <span className="picker__name">/{e.fullName}</span>
          {e.options
            .filter((o) => o.required)
            .map((o) => (
              <span key={o.name} className="picker__opt">
                {o.name}
              </span>
            ))}
          <span className="picker__desc ellipsis grow">{e.description}</span>
          <span className="picker__appname">{e.app.name}</span>
        </div>
      ))}
    </div>
  );
}

export function filterCommands(entries: CommandEntry[], query: string): CommandEntry[] {
  const q = query.trim().toLowerCase();
  if (!q) return entries.slice(0, 25);
  const starts = entries.filter((e) => e.fullName.toLowerCase().startsWith(q));
  const contains = entries.filter((e) => !starts.includes(e) && e.fullName.toLowerCase().includes(q));
  return [...starts, ...contains].slice(0, 25);
}

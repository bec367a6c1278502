import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { readableError } from '../lib/api/errors.js';
import { dev, type DevApplication, type InspectorEntry } from '../lib/dev/client.js';
import { AppIcon } from '../lib/oauth/AppIcon.js';
import { Button, Empty, ErrorState, Loading } from '../lib/ui/index.js';
import { EntryRow } from './EntryRow.js';

type Kind = 'all' | 'http' | 'gateway';
const KEEP = 500;

/** A live feed of one application: every API request it made and every Gateway event it was sent. */
export function Inspector() {
  const [params, setParams] = useSearchParams();
  const [apps, setApps] = useState<DevApplication[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [entries, setEntries] = useState<InspectorEntry[]>([]);
  const [status, setStatus] = useState<'connecting' | 'live' | 'lost'>('connecting');
  const [kind, setKind] = useState<Kind>('all');
  const [filter, setFilter] = useState('');
  const [paused, setPaused] = useState(false);
  const [open, setOpen] = useState<number | null>(null);
  const pending = useRef<InspectorEntry[]>([]);
  const pausedRef = useRef(false);
  pausedRef.current = paused;

  const loadApps = () => {
    setError(null);
    dev.applications().then(setApps).catch(setError);
  };
  useEffect(loadApps, []);
  const appId = params.get('app') ?? apps?.[0]?.id ?? null;
  const app = apps?.find((a) => a.id === appId) ?? null;

  // Entries arrive in bursts (a READY, a GUILD_CREATE per guild): they are buffered and drawn a few times a second.
  useEffect(() => {
    if (!appId) return;
    setEntries([]);
    setOpen(null);
    pending.current = [];
    const stop = dev.inspect(appId, { entry: (e) => pending.current.push(e), status: setStatus });
    const flush = setInterval(() => {
      if (!pending.current.length || pausedRef.current) return;
      const batch = pending.current.reverse();
      pending.current = [];
      setEntries((list) => [...batch, ...list].slice(0, KEEP));
    }, 150);
    return () => {
      stop();
      clearInterval(flush);
    };
  }, [appId]);

  const shown = useMemo(() => {
    const q = filter.trim().toLowerCase();
    return entries.filter(
      (e) =>
        (kind === 'all' || e.kind === kind) &&
        (!q || (e.kind === 'http' ? `${e.method} ${e.path} ${e.route} ${e.status}` : `${e.t} ${e.guild_id ?? ''}`).toLowerCase().includes(q)),
    );
  }, [entries, kind, filter]);
  const counts = useMemo(
    () => ({ http: entries.filter((e) => e.kind === 'http').length, gateway: entries.filter((e) => e.kind === 'gateway').length }),
    [entries],
  );

  if (error)
    return (
      <main className="inspector">
        <ErrorState title="Could not load applications" message={readableError(error)} onRetry={loadApps} />
      </main>
    );
  if (!apps)
    return (
      <main className="inspector">
        <Loading label="Loading applications…" />
      </main>
    );
  if (!apps.length)
    return (
      <main className="inspector">
        <Empty icon="bot" title="No applications yet">
          Create one in the portal; its traffic shows up here.
        </Empty>
      </main>
    );

  return (
    <main className="inspector" aria-label="Inspector">
      <header className="inspector__head">
        <div className="inspector__app">
          {app ? <AppIcon app={app} size={36} radius={10} /> : null}
          <div>
            <h1 className="inspector__title">Inspector</h1>
            <label className="sr-only" htmlFor="inspector-app">
              Application
            </label>
            <select id="inspector-app" className="inspector__select" value={appId ?? ''} onChange={(e) => setParams({ app: e.target.value })}>
              {apps.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name} ({a.id})
                </option>
              ))}
            </select>
          </div>
        </div>
        <span className={`live live--${paused ? 'paused' : status}`}>
          {paused ? 'Paused' : status === 'live' ? 'Live' : status === 'lost' ? 'Reconnecting…' : 'Connecting…'}
        </span>
        <span className="grow" />
        <div className="seg" role="group" aria-label="Show">
          {(['all', 'http', 'gateway'] as const).map((k) => (
            <button key={k} type="button" aria-pressed={kind === k} className="seg__btn" onClick={() => setKind(k)}>
              {k === 'all' ? `All ${entries.length}` : k === 'http' ? `HTTP ${counts.http}` : `Gateway ${counts.gateway}`}
            </button>
          ))}
        </div>
        <input
          className="input inspector__filter"
          placeholder="Filter: route, status, event"
          aria-label="Filter"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
        />
        <Button variant="secondary" size="sm" onClick={() => setPaused(!paused)}>
          {paused ? 'Resume' : 'Pause'}
        </Button>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => {
            setEntries([]);
            setOpen(null);
          }}
        >
          Clear
        </Button>
      </header>
      <div className="feed" role="log" aria-label={`Traffic of ${app?.name ?? 'the application'}`}>
        <div className="feed__cols" aria-hidden>
          <span>Time</span>
          <span>Kind</span>
          <span>Request or event</span>
          <span>Result</span>
          <span>Bucket / seq</span>
          <span className="feed__num">Time taken / size</span>
        </div>
        {shown.length ? (
          shown.map((e) => <EntryRow key={e.id} entry={e} open={open === e.id} onToggle={() => setOpen(open === e.id ? null : e.id)} />)
        ) : (
          <div className="feed__empty">
            <Empty icon="search" title={entries.length ? 'Nothing matches' : `Waiting for ${app?.name ?? 'the app'}`}>
              {entries.length
                ? 'Change the filter to see more.'
                : 'Start the bot with its token, or call the API as the app: each request and each Gateway event it is sent appears here as it happens.'}
            </Empty>
          </div>
        )}
      </div>
    </main>
  );
}

import type { InspectorEntry } from '../lib/dev/client.js';

const time = (iso: string) => {
  const d = new Date(iso);
  return `${d.toLocaleTimeString(undefined, { hour12: false })}.${String(d.getMilliseconds()).padStart(3, '0')}`;
};
const statusClass = (s: number) => (s < 300 ? 'ok' : s < 400 ? 'info' : s === 429 ? 'warn' : s < 500 ? 'warn' : 'bad');
const size = (b: number) => (b < 1024 ? `${b} B` : `${(b / 1024).toFixed(1)} KB`);

/** One line of the feed; a click opens its detail (the route template, or the event's payload with secrets redacted). */
export function EntryRow({ entry: e, open, onToggle }: { entry: InspectorEntry; open: boolean; onToggle: () => void }) {
  return (
    <div className={open ? 'entry entry--open' : 'entry'}>
      <button type="button" className="entry__line" aria-expanded={open} onClick={onToggle}>
        <span className="entry__time">{time(e.at)}</span>
        {e.kind === 'http' ? (
          <>
            <span className="badge badge--http">HTTP</span>
            <span className="entry__what">
              <b className={`method method--${e.method.toLowerCase()}`}>{e.method}</b> {e.path}
            </span>
            <span>
              <span className={`code code--${statusClass(e.status)}`}>{e.status}</span>
            </span>
            <span className="entry__mono">{e.bucket}</span>
            <span className="feed__num">{e.duration_ms.toFixed(1)} ms</span>
          </>
        ) : (
          <>
            <span className="badge badge--gw">GW</span>
            <span className="entry__what">
              <b>{e.t}</b>
              {e.guild_id ? <span className="muted"> guild {e.guild_id}</span> : null}
            </span>
            <span className="muted">
              shard {e.shard[0]}/{e.shard[1]}
            </span>
            <span className="entry__mono">seq {e.seq}</span>
            <span className="feed__num">{size(e.bytes)}</span>
          </>
        )}
      </button>
      {open ? (
        <div className="entry__detail">
          {e.kind === 'http' ? (
            <dl className="entry__dl">
              <dt>Route</dt>
              <dd>
                <code>
                  {e.method} {e.route}
                </code>
              </dd>
              <dt>Authenticated by</dt>
              <dd>
                {e.via === 'bot' ? 'bot token' : e.via === 'bearer' ? 'OAuth2 bearer token' : e.via === 'interaction' ? 'interaction token' : 'webhook token'}
              </dd>
              <dt>Rate-limit bucket</dt>
              <dd>
                <code>{e.bucket}</code>
              </dd>
            </dl>
          ) : e.d === null ? (
            <p className="muted">The payload ({size(e.bytes)}) is too large to keep.</p>
          ) : (
            <pre className="entry__json">{JSON.stringify(e.d, null, 2)}</pre>
          )}
        </div>
      ) : null}
    </div>
  );
}

import { useEffect, useState } from 'react';
import { readableError } from '../lib/api/errors.js';
import { dev, type DevClock } from '../lib/dev/client.js';
import { Button, Spinner } from '../lib/ui/index.js';

const STEPS = [
  { label: '+1 min', ms: 60_000 },
  { label: '+1 hour', ms: 3_600_000 },
  { label: '+1 day', ms: 86_400_000 },
  { label: '+7 days', ms: 7 * 86_400_000 },
];

function offsetText(ms: number): string {
  if (Math.abs(ms) < 1000) return 'in step with real time';
  const abs = Math.abs(ms);
  const d = Math.floor(abs / 86_400_000);
  const h = Math.floor((abs % 86_400_000) / 3_600_000);
  const m = Math.floor((abs % 3_600_000) / 60_000);
  const parts = [d && `${d}d`, h && `${h}h`, m && `${m}m`].filter(Boolean).join(' ') || `${Math.round(abs / 1000)}s`;
  return `${parts} ${ms > 0 ? 'ahead of' : 'behind'} real time`;
}

/** The server clock (it drives expiries, renewals, polls, rate-limit windows), ticking, with buttons to move it. */
export function ClockCard() {
  const [clock, setClock] = useState<{ at: number; server: DevClock } | null>(null);
  const [now, setNow] = useState(Date.now());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const load = () =>
    dev
      .clock()
      .then((c) => setClock({ at: Date.now(), server: c }))
      .catch((e) => setError(readableError(e)));
  useEffect(() => {
    void load();
    const tick = setInterval(() => setNow(Date.now()), 1000);
    const sync = setInterval(() => void load(), 15_000); // someone else may move it (a test, curl)
    return () => {
      clearInterval(tick);
      clearInterval(sync);
    };
  }, []);
  const move = async (call: () => Promise<DevClock>) => {
    setBusy(true);
    setError(null);
    try {
      setClock({ at: Date.now(), server: await call() });
    } catch (e) {
      setError(readableError(e));
    } finally {
      setBusy(false);
    }
  };
  const serverNow = clock ? new Date(Date.parse(clock.server.now) + (now - clock.at)) : null;

  return (
    <section className="dev-card" aria-label="Server clock">
      <h2 className="dev-card__title">Server clock</h2>
      {serverNow ? (
        <>
          <div className="clock__time" aria-live="off">
            {serverNow.toLocaleTimeString(undefined, { hour12: false })}
          </div>
          <div className="clock__date">{serverNow.toLocaleDateString(undefined, { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric' })}</div>
          <div className={clock!.server.offset_ms ? 'clock__offset clock__offset--moved' : 'clock__offset'}>{offsetText(clock!.server.offset_ms)}</div>
        </>
      ) : error ? null : (
        <Spinner />
      )}
      <div className="clock__buttons">
        {STEPS.map((s) => (
          <Button key={s.label} variant="secondary" size="sm" disabled={busy || !clock} onClick={() => void move(() => dev.advanceClock(s.ms))}>
            {s.label}
          </Button>
        ))}
      </div>
      <Button
        variant="link"
        size="sm"
        disabled={busy || !clock || !clock.server.offset_ms}
        onClick={() => void move(() => dev.setClock(new Date().toISOString()))}
      >
        Back to real time
      </Button>
      {error ? (
        <div className="dev-card__error" role="alert">
          {error}
        </div>
      ) : null}
    </section>
  );
}

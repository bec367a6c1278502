import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { readableError } from '../lib/api/errors.js';
import { dev, type DevApplication, type DevFault } from '../lib/dev/client.js';
import { Button } from '../lib/ui/index.js';
import { FAULT_KINDS, describeFault, faultBody, type FaultField } from './faultForm.js';

/**
 * Faults for one application (the one the inspector shows, `?app=`): pick a kind and its parameters, apply it, and
 * see the active rules with a way to remove each. One-shot kinds (Gateway close, RECONNECT, INVALID_SESSION) act at
 * once and say how many sessions they reached.
 */
export function FaultsCard() {
  const [params, setParams] = useSearchParams();
  const [apps, setApps] = useState<DevApplication[]>([]);
  const [kind, setKind] = useState(FAULT_KINDS[0].kind);
  const [values, setValues] = useState<Record<string, string>>({});
  const [rules, setRules] = useState<DevFault[]>([]);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const appId = params.get('app') ?? apps[0]?.id ?? null;
  const spec = FAULT_KINDS.find((k) => k.kind === kind)!;

  useEffect(() => {
    dev
      .applications()
      .then(setApps)
      .catch((e) => setError(readableError(e)));
  }, []);
  const load = () =>
    appId
      ? dev
          .faults(appId)
          .then(setRules)
          .catch((e) => setError(readableError(e)))
      : Promise.resolve();
  useEffect(() => {
    void load();
    const poll = setInterval(() => void load(), 3000); // rules are used up and expire on the server
    return () => clearInterval(poll);
  }, [appId]);

  const run = async (call: () => Promise<string | null>) => {
    setBusy(true);
    setError(null);
    setNote(null);
    try {
      setNote(await call());
      await load();
    } catch (e) {
      setError(readableError(e));
    } finally {
      setBusy(false);
    }
  };
  const apply = () =>
    run(async () => {
      const made = await dev.addFault(faultBody(appId!, kind, values));
      return made.sessions !== undefined ? `Done: ${made.sessions} session${made.sessions === 1 ? '' : 's'} reached.` : null;
    });
  const set = (name: string, v: string) => setValues((s) => ({ ...s, [name]: v }));
  const input = (f: FaultField) => {
    const id = `fault-${f.name}`;
    if (f.type === 'checkbox') {
      return (
        <label key={f.name} className="faults__check">
          <input type="checkbox" checked={!!values[f.name]} onChange={(e) => set(f.name, e.target.checked ? 'true' : '')} /> {f.label}
        </label>
      );
    }
    return (
      <label key={f.name} className={f.type === 'text' ? 'faults__field faults__field--wide' : 'faults__field'} htmlFor={id}>
        <span>{f.label}</span>
        {f.type === 'select' ? (
          <select id={id} className="select input" value={values[f.name] ?? f.options![0]} onChange={(e) => set(f.name, e.target.value)}>
            {f.options!.map((o) => (
              <option key={o} value={o}>
                {o || '(latency only)'}
              </option>
            ))}
          </select>
        ) : (
          <input
            id={id}
            className="input"
            type={f.type}
            step="any"
            placeholder={f.placeholder}
            value={values[f.name] ?? ''}
            onChange={(e) => set(f.name, e.target.value)}
          />
        )}
      </label>
    );
  };

  return (
    <section className="dev-card" aria-label="Faults">
      <h2 className="dev-card__title">Faults</h2>
      <select className="select input" aria-label="Application" value={appId ?? ''} onChange={(e) => setParams({ app: e.target.value })}>
        {apps.map((a) => (
          <option key={a.id} value={a.id}>
            {a.name}
          </option>
        ))}
      </select>
      <select
        className="select input"
        aria-label="Fault kind"
        value={kind}
        onChange={(e) => {
          setKind(e.target.value);
          setValues({});
        }}
      >
        {FAULT_KINDS.map((k) => (
          <option key={k.kind} value={k.kind}>
            {k.label}
          </option>
        ))}
      </select>
      <div className="faults__fields">
        {spec.fields.map(input)}
        {spec.oneShot
          ? null
          : [
              { name: 'count', label: 'Uses', type: 'number' as const, placeholder: 'unlimited' },
              { name: 'ttl_s', label: 'Lasts (s)', type: 'number' as const, placeholder: 'until removed' },
            ].map(input)}
      </div>
      <Button size="sm" busy={busy} disabled={!appId || busy} onClick={() => void apply()}>
        {spec.oneShot ? 'Do it now' : 'Add rule'}
      </Button>
      {note ? (
        <div className="dev-card__hint" role="status">
          {note}
        </div>
      ) : null}
      {error ? (
        <div className="dev-card__error" role="alert">
          {error}
        </div>
      ) : null}
      {rules.length ? (
        <ul className="faults__list" aria-label="Active faults">
          {rules.map((r) => (
            <li key={r.id} className="faults__rule">
              <span className="faults__what">{describeFault(r)}</span>
              <Button
                size="sm"
                variant="secondary"
                disabled={busy}
                aria-label={`Remove fault ${r.id}`}
                onClick={() => void run(async () => (await dev.deleteFault(r.id), null))}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="dev-card__hint">No active fault for this application.</p>
      )}
    </section>
  );
}

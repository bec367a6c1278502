import { useEffect, useState } from 'react';
import { readableError } from '../../lib/api/errors.js';
import { Button, Empty, ErrorState, Loading } from '../../lib/ui/index.js';
import { useOpenApp } from '../context.js';
import type { Delivery } from '../types.js';
import { Section } from '../ui/Section.js';

/** Every delivery attempt of webhook events, newest first. */
export function DeliveryLog() {
  const { app, api } = useOpenApp();
  const [rows, setRows] = useState<Delivery[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const load = () => {
    setError(null);
    api.deliveries(app.id).then(setRows).catch(setError);
  };
  useEffect(load, [app.id]);
  return (
    <Section
      title="Delivery log"
      description="The last 50 attempts to deliver events to your endpoint."
      actions={
        <Button variant="secondary" size="sm" onClick={load}>
          Refresh
        </Button>
      }
    >
      {error ? (
        <ErrorState title="Could not load deliveries" message={readableError(error)} onRetry={load} />
      ) : !rows ? (
        <Loading label="Loading deliveries…" />
      ) : !rows.length ? (
        <div className="p-empty p-empty--small">
          <Empty icon="link" title="No deliveries yet">
            Deliveries appear here once events are enabled and something happens.
          </Empty>
        </div>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th>Event</th>
                <th>Attempt</th>
                <th>Result</th>
                <th>Time</th>
                <th>When</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <tr key={d.id}>
                  <td>
                    <code>{d.event_type}</code>
                  </td>
                  <td>{d.attempt}</td>
                  <td>
                    <span className={d.ok ? 'pill pill--ok' : 'pill pill--bad'}>{d.status_code ?? 'no answer'}</span>
                    {d.error ? <span className="muted"> {d.error}</span> : null}
                  </td>
                  <td>{d.duration_ms} ms</td>
                  <td>{new Date(d.timestamp).toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}

import { useEffect, useState } from 'react';
import { ApiError, readableError } from '../../lib/api/errors.js';
import { Banner, Button, TextField } from '../../lib/ui/index.js';
import { useAppForm } from '../context.js';
import { EVENT_TYPES } from '../types.js';
import { Checkbox } from '../ui/Checkbox.js';
import { PageHead, Section } from '../ui/Section.js';
import { Switch } from '../ui/Switch.js';
import { DeliveryLog } from './DeliveryLog.js';

/** The interactions endpoint and the webhook events endpoint, each verified by the server when saved. */
export function EndpointsPage() {
  return (
    <>
      <PageHead title="Endpoints">Receive interactions and events over HTTP. When you save a URL, Accord calls it to check it before using it.</PageHead>
      <InteractionsEndpoint />
      <EventWebhooks />
    </>
  );
}

type Result = { ok: true; text: string } | { ok: false; text: string; detail: string | null } | null;

/** What a save attempt says: saved, refused by the verification, or another error. */
function useResult(save: { busy: boolean; error: unknown }, field: string) {
  const [result, setResult] = useState<Result>(null);
  const [ran, setRan] = useState(false);
  useEffect(() => {
    if (!ran || save.busy) return;
    setRan(false);
    if (!save.error) return setResult({ ok: true, text: 'Saved.' });
    const f = save.error instanceof ApiError ? save.error.fields.find((x) => x.path === field) : undefined;
    setResult({ ok: false, text: f ? f.message : readableError(save.error), detail: f ? f.code : null });
  }, [save.busy, save.error, ran]);
  return {
    result,
    started: () => {
      setResult(null);
      setRan(true);
    },
  };
}

function InteractionsEndpoint() {
  const form = useAppForm<{ url: string }>(
    (a) => ({ url: a.interactions_endpoint_url ?? '' }),
    (d) => ({ interactions_endpoint_url: d.url.trim() || null }),
  );
  const { result, started } = useResult(form.save, 'interactions_endpoint_url');
  const save = () => {
    started();
    void form.save.run();
  };
  return (
    <Section title="Interactions Endpoint URL" description="With a URL set, interactions come to it as signed HTTP POSTs instead of over the Gateway.">
      <TextField
        label="Interactions endpoint URL"
        placeholder="https://example.com/interactions"
        value={form.draft.url}
        onChange={(e) => form.set({ url: e.target.value })}
      />
      <div className="p-row">
        <Button onClick={save} busy={form.save.busy} disabled={!form.dirty}>
          Save
        </Button>
        {form.dirty ? (
          <Button variant="link" onClick={form.reset}>
            Reset
          </Button>
        ) : null}
      </div>
      {result?.ok ? (
        <Banner kind="info">
          {form.draft.url ? 'Verified: your endpoint answered both checks. Saved.' : 'Removed: interactions come over the Gateway again.'}
        </Banner>
      ) : null}
      {result && !result.ok ? (
        <div className="verify" role="alert">
          <div className="verify__title">Verification failed — nothing was saved</div>
          <div className="verify__msg">
            {result.text}
            {result.detail ? <code className="verify__code">{result.detail}</code> : null}
          </div>
          <ul className="verify__checks">
            <li>
              A PING signed with your app's key must be answered <code>200</code> with JSON <code>{'{"type": 1}'}</code>.
            </li>
            <li>
              A PING with a bad signature must be refused with <code>401</code>.
            </li>
            <li>
              The URL must be reachable from the Accord server within 5 seconds: https, or plain http and private addresses only where the operator allows them.
            </li>
          </ul>
        </div>
      ) : null}
    </Section>
  );
}

interface Events {
  enabled: boolean;
  url: string;
  types: string[];
}

function EventWebhooks() {
  const form = useAppForm<Events>(
    (a) => ({ enabled: a.event_webhooks_status === 2, url: a.event_webhooks_url ?? '', types: a.event_webhooks_types }),
    (d) => ({ event_webhooks_status: d.enabled ? 2 : 1, event_webhooks_url: d.url.trim() || null, event_webhooks_types: d.types }),
  );
  const { result, started } = useResult(form.save, 'event_webhooks_url');
  const save = () => {
    started();
    void form.save.run();
  };
  const { draft } = form;
  const toggle = (t: string, on: boolean) => form.set({ types: on ? [...draft.types, t] : draft.types.filter((x) => x !== t) });
  return (
    <>
      <Section
        title="Webhook Events"
        description="Events about your app (authorizations, entitlements, lobbies) are POSTed to this URL, signed like interactions."
      >
        <Switch
          label="Events enabled"
          checked={draft.enabled}
          onChange={(v) => form.set({ enabled: v })}
          description="Deliveries start once the URL is verified and events are chosen."
        />
        <TextField label="Endpoint URL" placeholder="https://example.com/events" value={draft.url} onChange={(e) => form.set({ url: e.target.value })} />
        <div className="field__label">Events</div>
        <div className="scope-grid" role="group" aria-label="Event types">
          {EVENT_TYPES.map((t) => (
            <Checkbox key={t} label={t} checked={draft.types.includes(t)} onChange={(v) => toggle(t, v)} />
          ))}
        </div>
        <div className="p-row">
          <Button onClick={save} busy={form.save.busy} disabled={!form.dirty}>
            Save
          </Button>
          {form.dirty ? (
            <Button variant="link" onClick={form.reset}>
              Reset
            </Button>
          ) : null}
        </div>
        {result?.ok ? <Banner kind="info">Saved.</Banner> : null}
        {result && !result.ok ? (
          <div className="verify" role="alert">
            <div className="verify__title">Not saved</div>
            <div className="verify__msg">
              {result.text}
              {result.detail ? <code className="verify__code">{result.detail}</code> : null}
            </div>
            <ul className="verify__checks">
              <li>
                A signed PING event must be answered <code>204</code>; a badly signed one must be refused with <code>401</code>.
              </li>
            </ul>
          </div>
        ) : null}
      </Section>
      <DeliveryLog />
    </>
  );
}

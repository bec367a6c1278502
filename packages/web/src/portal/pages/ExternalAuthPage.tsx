import { useEffect, useId, useState, type FormEvent } from 'react';
import { ApiError, readableError } from '../../lib/api/errors.js';
import { Button, Dialog, Empty, ErrorState, Icon, Loading, TextField, toast } from '../../lib/ui/index.js';
import { useAction } from '../../lib/use-action.js';
import { useOpenApp } from '../context.js';
import type { ExternalAuthProvider } from '../types.js';
import { ConfirmDialog } from '../ui/ConfirmDialog.js';
import { PageHead, Section } from '../ui/Section.js';

/** Why the server refused a provider, on the field it named (with its code), or as a whole. */
function Refusal({ error }: { error: unknown }) {
  if (!error) return null;
  const f = error instanceof ApiError ? error.fields[0] : undefined;
  return (
    <div className="verify" role="alert">
      <div className="verify__title">
        Not saved
        {f?.path ? (
          <>
            {' '}
            — <code>{f.path}</code>
          </>
        ) : null}
      </div>
      <div className="verify__msg">
        {f ? f.message : readableError(error)}
        {f?.code ? <code className="verify__code">{f.code}</code> : null}
      </div>
      {f?.path === 'issuer' ? (
        <ul className="verify__checks">
          <li>
            The issuer is an <code>https://</code> URL on a public host name (no IP address, no <code>.local</code>, <code>.internal</code> or{' '}
            <code>.localhost</code>), without query, fragment or credentials.
          </li>
          <li>
            Accord reads <code>{'<issuer>'}/.well-known/openid-configuration</code> and its JWKS, without following redirects; the document must name the same
            issuer.
          </li>
        </ul>
      ) : null}
    </div>
  );
}

/**
 * External Auth (Social SDK): the identity providers whose proof gives a player a provisional account. OIDC issuers
 * are checked when saved (discovery and JWKS); DEVICE_ID takes a device id as the identity, for guest play.
 */
export function ExternalAuthPage() {
  const { app, api } = useOpenApp();
  const [list, setList] = useState<ExternalAuthProvider[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<ExternalAuthProvider | null>(null);
  const [deleting, setDeleting] = useState<ExternalAuthProvider | null>(null);
  const load = () => {
    setError(null);
    api.providers(app.id).then(setList).catch(setError);
  };
  useEffect(load, [app.id]);
  const remove = useAction(async () => {
    await api.deleteProvider(app.id, deleting!.id);
    setList((l) => (l ?? []).filter((p) => p.id !== deleting!.id));
    toast('Provider deleted');
    setDeleting(null);
  });

  return (
    <>
      <PageHead title="External Auth">
        Let players sign in to your game with your own accounts: a provisional Accord account is made for each identity a provider proves, and can later be
        merged into a full account.
      </PageHead>
      <Section
        title="Providers"
        description="OIDC issuers are checked when you save: their discovery document and keys must be reachable, with no redirects."
        actions={adding ? null : <Button onClick={() => setAdding(true)}>Add Provider</Button>}
      >
        {adding ? (
          <NewProvider
            onDone={(p) => {
              setList((l) => [...(l ?? []), p]);
              setAdding(false);
              toast(`${p.type} provider added`);
            }}
            onCancel={() => setAdding(false)}
          />
        ) : null}
        {error ? (
          <ErrorState title="Could not load the providers" message={readableError(error)} onRetry={load} />
        ) : !list ? (
          <Loading label="Loading providers…" />
        ) : !list.length ? (
          <div className="p-empty p-empty--small">
            <Empty icon="users" title="No providers yet">
              Add an OIDC issuer or device ids to create provisional accounts.
            </Empty>
          </div>
        ) : (
          <div className="table-wrap">
            <table className="table" aria-label="External auth providers">
              <thead>
                <tr>
                  <th>Type</th>
                  <th>Issuer</th>
                  <th>Client ID</th>
                  <th>Validation</th>
                  <th aria-label="Actions" />
                </tr>
              </thead>
              <tbody>
                {list.map((p) => (
                  <tr key={p.id}>
                    <td>
                      <span className="pill">{p.type}</span>
                    </td>
                    <td className="ellipsis provider-issuer" title={p.issuer ?? ''}>
                      {p.issuer ? <code>{p.issuer}</code> : <span className="muted">—</span>}
                    </td>
                    <td className="ellipsis">{p.client_id ? <code>{p.client_id}</code> : <span className="muted">—</span>}</td>
                    <td>
                      {p.type !== 'OIDC' ? (
                        <span className="muted">—</span>
                      ) : p.strict_validation ? (
                        <span className="pill pill--ok" title={`Signing algorithms: ${p.algorithms.join(', ')}`}>
                          Strict
                        </span>
                      ) : (
                        <span className="pill pill--bad" title="Saved before the strict issuer rules: it keeps working until edited.">
                          Legacy
                        </span>
                      )}
                    </td>
                    <td className="table__actions">
                      {p.type === 'OIDC' ? (
                        <Button variant="secondary" size="sm" onClick={() => setEditing(p)}>
                          Edit
                        </Button>
                      ) : null}
                      <button type="button" className="icon-btn" aria-label={`Delete ${p.type} provider`} onClick={() => setDeleting(p)}>
                        <Icon name="trash" size={18} />
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Section>
      {editing ? (
        <EditProvider
          provider={editing}
          onClose={() => setEditing(null)}
          onSaved={(p) => {
            setList((l) => (l ?? []).map((x) => (x.id === p.id ? p : x)));
            setEditing(null);
            toast('Provider saved');
          }}
        />
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title="Delete this provider?"
          confirm="Delete"
          danger
          busy={remove.busy}
          onConfirm={() => void remove.run()}
          onClose={() => setDeleting(null)}
        >
          Players can no longer sign in with {deleting.issuer ?? deleting.type}. Their provisional accounts stay, but cannot be reached through it.
          {remove.error ? <p className="field__label--error">{readableError(remove.error)}</p> : null}
        </ConfirmDialog>
      ) : null}
    </>
  );
}

function NewProvider({ onDone, onCancel }: { onDone: (p: ExternalAuthProvider) => void; onCancel: () => void }) {
  const { app, api } = useOpenApp();
  const typeId = useId();
  const [type, setType] = useState<'OIDC' | 'DEVICE_ID'>('OIDC');
  const [issuer, setIssuer] = useState('');
  const [clientId, setClientId] = useState('');
  const create = useAction(async () =>
    onDone(await api.createProvider(app.id, type === 'OIDC' ? { type, issuer: issuer.trim(), client_id: clientId.trim() } : { type })),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void create.run();
  };
  return (
    <form className="inline-form" onSubmit={submit} aria-label="New provider">
      <div className="inline-form__title">New provider</div>
      <div className="inline-form__row">
        <div className="field">
          <label className="field__label" htmlFor={typeId}>
            Type
          </label>
          <select id={typeId} className="input" value={type} onChange={(e) => setType(e.target.value as 'OIDC' | 'DEVICE_ID')}>
            <option value="OIDC">OpenID Connect (OIDC)</option>
            <option value="DEVICE_ID">Device ID (guest play)</option>
          </select>
        </div>
      </div>
      {type === 'OIDC' ? (
        <div className="inline-form__row">
          <TextField
            label="Issuer URL"
            placeholder="https://accounts.example.com"
            className="input input--mono"
            value={issuer}
            onChange={(e) => setIssuer(e.target.value)}
          />
          <TextField
            label="Client ID"
            placeholder="The audience of your ID tokens"
            className="input input--mono"
            value={clientId}
            onChange={(e) => setClientId(e.target.value)}
          />
        </div>
      ) : (
        <div className="p-muted-box">A device id proves nothing: anyone with it plays as that guest. Use it for guest play only.</div>
      )}
      <Refusal error={create.error} />
      <div className="p-row">
        <span className="grow" />
        <Button variant="link" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" busy={create.busy} disabled={type === 'OIDC' && (!issuer.trim() || !clientId.trim())}>
          Add Provider
        </Button>
      </div>
    </form>
  );
}

function EditProvider({ provider, onClose, onSaved }: { provider: ExternalAuthProvider; onClose: () => void; onSaved: (p: ExternalAuthProvider) => void }) {
  const { app, api } = useOpenApp();
  const [issuer, setIssuer] = useState(provider.issuer ?? '');
  const [clientId, setClientId] = useState(provider.client_id ?? '');
  const save = useAction(async () => onSaved(await api.editProvider(app.id, provider.id, { issuer: issuer.trim(), client_id: clientId.trim() })));
  return (
    <Dialog
      title="Edit OIDC provider"
      subtitle={provider.strict_validation ? undefined : 'Saving checks it under the strict issuer rules.'}
      onClose={onClose}
      wide
      footer={
        <>
          <Button variant="link" onClick={onClose}>
            Cancel
          </Button>
          <Button busy={save.busy} onClick={() => void save.run()} disabled={!issuer.trim() || !clientId.trim()}>
            Save
          </Button>
        </>
      }
    >
      <TextField label="Issuer URL" className="input input--mono" value={issuer} onChange={(e) => setIssuer(e.target.value)} />
      <TextField label="Client ID" className="input input--mono" value={clientId} onChange={(e) => setClientId(e.target.value)} />
      <Refusal error={save.error} />
    </Dialog>
  );
}

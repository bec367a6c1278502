import { useState } from 'react';
import { useAction } from '../../lib/use-action.js';
import { readableError } from '../../lib/api/errors.js';
import { Banner, Button, Icon } from '../../lib/ui/index.js';
import { useAppForm, useOpenApp } from '../context.js';
import { AppFlag } from '../types.js';
import { ConfirmDialog } from '../ui/ConfirmDialog.js';
import { CopyField } from '../ui/CopyField.js';
import { SaveBar } from '../ui/SaveBar.js';
import { SecretReveal } from '../ui/SecretReveal.js';
import { PageHead, Section } from '../ui/Section.js';
import { Switch } from '../ui/Switch.js';
import { UrlGenerator } from './UrlGenerator.js';

interface OAuth {
  redirects: string[];
  publicClient: boolean;
}

/** Client id and secret, redirect URIs, public client, and the URL generator. */
export function OAuth2Page() {
  const { app, api } = useOpenApp();
  const form = useAppForm<OAuth>(
    (a) => ({ redirects: a.redirect_uris.length ? a.redirect_uris : [], publicClient: (a.flags & AppFlag.PUBLIC_OAUTH2_CLIENT) !== 0 }),
    (d) => ({
      redirect_uris: d.redirects.map((r) => r.trim()).filter(Boolean),
      flags: d.publicClient ? app.flags | AppFlag.PUBLIC_OAUTH2_CLIENT : app.flags & ~AppFlag.PUBLIC_OAUTH2_CLIENT,
    }),
  );
  const [confirming, setConfirming] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const reset = useAction(async () => {
    setSecret((await api.resetSecret(app.id)).secret);
    setConfirming(false);
  });
  const { draft } = form;
  const setRedirect = (i: number, v: string) => form.set({ redirects: draft.redirects.map((r, j) => (j === i ? v : r)) });
  const redirectError = (i: number) => form.save.fieldError(`redirect_uris.${i}`);

  return (
    <>
      <PageHead title="OAuth2">
        Let people sign in with Accord and install your app: your client credentials, where people return to, and ready-made links.
      </PageHead>
      <Section title="Client information">
        <div className="p-cols">
          <CopyField label="Client ID" value={app.id} />
          <div className="field">
            <div className="field__label">Client secret</div>
            <div className="copy-field">
              <input className="input input--mono" readOnly value="••••••••••••••••••••••••••••••••" aria-label="Client secret (hidden)" />
              <Button variant="secondary" onClick={() => setConfirming(true)}>
                Reset Secret
              </Button>
            </div>
            <div className="field__hint">Kept hashed on the server: it can only be replaced, never shown again.</div>
          </div>
        </div>
        {secret ? <SecretReveal label="New client secret" value={secret} /> : null}
        {reset.error ? <Banner>{readableError(reset.error)}</Banner> : null}
        <Switch
          label="Public client"
          checked={draft.publicClient}
          onChange={(v) => form.set({ publicClient: v })}
          description="For apps that cannot keep a secret (mobile, desktop, single-page apps): the token endpoint takes PKCE instead of the client secret."
        />
      </Section>
      <Section title="Redirects" description="After consent, people can only be sent back to one of these exact addresses (up to 10).">
        <div className="p-stack">
          {draft.redirects.length === 0 ? <div className="p-muted-box">No redirect yet. Add one to use the authorization code flow.</div> : null}
          {draft.redirects.map((r, i) => (
            <div key={i} className="redirect-row">
              <input
                className="input"
                aria-label={`Redirect ${i + 1}`}
                aria-invalid={redirectError(i) ? true : undefined}
                placeholder="https://example.com/callback"
                value={r}
                onChange={(e) => setRedirect(i, e.target.value)}
              />
              <button
                type="button"
                className="icon-btn"
                aria-label={`Remove redirect ${i + 1}`}
                onClick={() => form.set({ redirects: draft.redirects.filter((_, j) => j !== i) })}
              >
                <Icon name="trash" size={18} />
              </button>
            </div>
          ))}
          <div>
            <Button variant="secondary" size="sm" disabled={draft.redirects.length >= 10} onClick={() => form.set({ redirects: [...draft.redirects, ''] })}>
              Add Redirect
            </Button>
          </div>
        </div>
      </Section>
      <UrlGenerator />
      {confirming ? (
        <ConfirmDialog
          title="Reset the client secret?"
          confirm="Yes, reset it"
          danger
          busy={reset.busy}
          onConfirm={() => void reset.run()}
          onClose={() => setConfirming(false)}
        >
          Your app's token requests will fail until you give it the new secret.
        </ConfirmDialog>
      ) : null}
      <SaveBar form={form} />
    </>
  );
}

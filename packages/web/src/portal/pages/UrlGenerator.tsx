import { useId, useState } from 'react';
import { PermissionList } from '../../lib/oauth/PermissionList.js';
import { INSTALL_SCOPES, KNOWN_SCOPES } from '../../lib/oauth/scopes.js';
import { useOpenApp } from '../context.js';
import { Checkbox } from '../ui/Checkbox.js';
import { CopyField } from '../ui/CopyField.js';
import { Section } from '../ui/Section.js';

/** Builds an authorize URL from scopes, permissions, install context and a redirect. Nothing here is saved. */
export function UrlGenerator() {
  const { app } = useOpenApp();
  const [scopes, setScopes] = useState<string[]>([]);
  const [permissions, setPermissions] = useState(0n);
  const [integrationType, setIntegrationType] = useState<'0' | '1'>('0');
  const [redirect, setRedirect] = useState('');
  const [advanced, setAdvanced] = useState(false);
  const typeId = useId();
  const redirectId = useId();

  const hasBot = scopes.includes('bot');
  const needsRedirect = scopes.some((s) => !INSTALL_SCOPES.has(s));
  const chosenRedirect = redirect || app.redirect_uris[0] || '';
  const offered = KNOWN_SCOPES.filter((s) => advanced || !s.advanced || scopes.includes(s.scope));
  const toggle = (scope: string, on: boolean) => setScopes((list) => (on ? [...list, scope] : list.filter((s) => s !== scope)));

  const q = new URLSearchParams({ client_id: app.id });
  if (hasBot) q.set('permissions', permissions.toString());
  if (scopes.includes('applications.commands') && !hasBot) q.set('integration_type', integrationType);
  else if (hasBot) q.set('integration_type', '0');
  if (needsRedirect && chosenRedirect) {
    q.set('response_type', 'code');
    q.set('redirect_uri', chosenRedirect);
  }
  q.set('scope', scopes.join(' '));
  const url = `${window.location.origin}/oauth2/authorize?${q.toString()}`;

  return (
    <Section title="OAuth2 URL Generator" description="Pick scopes (and bot permissions): the link below asks for exactly those.">
      <div className="field__label">Scopes</div>
      <div className="scope-grid" role="group" aria-label="Scopes">
        {offered.map((s) => (
          <Checkbox key={s.scope} label={s.scope} checked={scopes.includes(s.scope)} onChange={(v) => toggle(s.scope, v)} />
        ))}
      </div>
      <button type="button" className="btn btn--link btn--sm" onClick={() => setAdvanced(!advanced)}>
        {advanced ? 'Hide advanced scopes' : 'Show advanced scopes (RPC, Social SDK, builds)'}
      </button>
      {hasBot ? (
        <div className="p-block">
          <div className="field__label">
            Bot permissions <span className="muted">({permissions.toString()})</span>
          </div>
          <PermissionList label="Bot permissions" value={permissions} onChange={setPermissions} />
        </div>
      ) : null}
      <div className="p-cols p-block">
        {scopes.includes('applications.commands') && !hasBot ? (
          <div className="field">
            <label className="field__label" htmlFor={typeId}>
              Integration type
            </label>
            <select id={typeId} className="input" value={integrationType} onChange={(e) => setIntegrationType(e.target.value as '0' | '1')}>
              <option value="0">Guild Install</option>
              <option value="1">User Install</option>
            </select>
          </div>
        ) : null}
        {needsRedirect ? (
          <div className="field">
            <label className="field__label" htmlFor={redirectId}>
              Redirect URL
            </label>
            {app.redirect_uris.length ? (
              <select id={redirectId} className="input" value={chosenRedirect} onChange={(e) => setRedirect(e.target.value)}>
                {app.redirect_uris.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
            ) : (
              <div className="p-muted-box">These scopes need a redirect: save one under Redirects first.</div>
            )}
          </div>
        ) : null}
      </div>
      {scopes.length ? <CopyField label="Generated URL" value={url} /> : <div className="p-muted-box">Pick at least one scope to get a link.</div>}
    </Section>
  );
}

import './consent.css';
import { useMemo, useState, type FormEvent } from 'react';
import { useLocation } from 'react-router';
import { readableError } from '../lib/api/errors.js';
import { useSession } from '../lib/session.js';
import { AppIcon } from '../lib/oauth/AppIcon.js';
import { Banner, Button, Icon, TextField } from '../lib/ui/index.js';
import { deviceApi, type DeviceRequest } from './api.js';
import { ConsentShell } from './ConsentShell.js';
import { ScopeList } from './ScopeList.js';

type Done = 'granted' | 'denied';

/**
 * /activate: the other screen of a console's sign-in (the OAuth2 device flow, the Social SDK's GetTokenFromDevice).
 * The person types the code the console shows (or follows its link, which fills it in), sees which app asks for what,
 * and authorizes or cancels; the console, polling the token endpoint, gets its answer.
 */
export default function ActivatePage() {
  const { api } = useSession();
  const device = useMemo(() => deviceApi(api.http), [api]);
  const search = useLocation().search;
  const [code, setCode] = useState(() => new URLSearchParams(search).get('user_code') ?? '');
  const [request, setRequest] = useState<DeviceRequest | null>(null);
  const [busy, setBusy] = useState<'verify' | Done | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<Done | null>(null);

  const verify = async (e: FormEvent) => {
    e.preventDefault();
    setBusy('verify');
    setError(null);
    try {
      setRequest(await device.verify(code.trim()));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };
  const answer = async (result: Done) => {
    setBusy(result);
    setError(null);
    try {
      await device.finish(code.trim(), result);
      setDone(result);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };

  if (done && request)
    return (
      <ConsentShell label="Device sign-in">
        <div className="consent__done">
          <div className={done === 'granted' ? 'consent__done-icon' : 'consent__done-icon consent__done-icon--muted'}>
            <Icon name={done === 'granted' ? 'check' : 'x'} size={32} />
          </div>
          <h1 className="consent__title">{done === 'granted' ? 'Your device is signed in' : 'Cancelled'}</h1>
          <p className="consent__sub">
            {done === 'granted' ? (
              <>
                <strong>{request.application.name}</strong> is authorized. Go back to your device: it continues by itself.
              </>
            ) : (
              <>
                <strong>{request.application.name}</strong> was not authorized. Nothing was shared.
              </>
            )}
          </p>
          <a className="btn btn--secondary" href="/channels/@me">
            Open Accord
          </a>
        </div>
      </ConsentShell>
    );

  if (!request)
    return (
      <ConsentShell label="Device sign-in">
        <form className="consent__form" onSubmit={(e) => void verify(e)}>
          <header className="consent__head">
            <h1 className="consent__title">Sign in on your device</h1>
            <p className="consent__sub">Enter the code your console or TV shows.</p>
          </header>
          <div className="consent__body consent__body--last">
            {error ? <Banner>{readableError(error)}</Banner> : null}
            <TextField
              label="Code"
              value={code}
              onChange={(e) => setCode(e.target.value.toUpperCase())}
              placeholder="ABCD-EFGH"
              autoComplete="one-time-code"
              autoCapitalize="characters"
              spellCheck={false}
              required
            />
          </div>
          <footer className="consent__foot">
            <span className="grow" />
            <Button type="submit" busy={busy === 'verify'} disabled={!code.trim() || !!busy}>
              Continue
            </Button>
          </footer>
        </form>
      </ConsentShell>
    );

  const app = request.application;
  return (
    <ConsentShell label="Device sign-in">
      <header className="consent__head">
        <div className="consent__icons">
          <AppIcon app={app} size={80} radius={24} />
        </div>
        <p className="consent__kicker">Sign in on a device · {code.trim()}</p>
        <h1 className="consent__title">{app.name}</h1>
        <p className="consent__sub">wants to access your Accord account on your device.</p>
      </header>
      <div className="consent__body consent__body--last">
        {error ? (
          <div className="consent__error">
            <Banner>{readableError(error)}</Banner>
          </div>
        ) : null}
        <ScopeList scopes={request.scopes} appName={app.name} userInstall={false} />
      </div>
      <footer className="consent__foot">
        <Button variant="link" onClick={() => void answer('denied')} busy={busy === 'denied'} disabled={!!busy}>
          Cancel
        </Button>
        <span className="grow" />
        <Button onClick={() => void answer('granted')} busy={busy === 'granted'} disabled={!!busy}>
          Authorize
        </Button>
      </footer>
    </ConsentShell>
  );
}

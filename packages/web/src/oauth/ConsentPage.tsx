import './consent.css';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ApiError, readableError } from '../lib/api/errors.js';
import { useSession } from '../lib/session.js';
import { AppIcon } from '../lib/oauth/AppIcon.js';
import { parsePermissions } from '../lib/oauth/permissions.js';
import { splitScopes } from '../lib/oauth/scopes.js';
import { Avatar, Banner, Button, Icon, Spinner, displayName } from '../lib/ui/index.js';
import { consentApi, type ConsentAnswer, type ConsentPreview } from './api.js';
import { checkDestination } from './safe-location.js';
import { ConsentError } from './ConsentError.js';
import { ConsentNotes, ScopeList } from './ScopeList.js';
import { GuildPicker } from './GuildPicker.js';
import { PermissionStep } from './PermissionStep.js';
import { ConsentShell } from './ConsentShell.js';

type Step = 'scopes' | 'permissions';
type Outcome = { kind: 'leaving'; to: string } | { kind: 'cancelled' } | { kind: 'refused'; reason: string };

/**
 * GET /oauth2/authorize: the consent screen. It shows what the request asks in plain words, lets the person pick the
 * server and the bot's permissions, and answers through the public API (`GET` then `POST /api/v10/oauth2/authorize`
 * with this page's query). The browser then goes where the server says, after the page checked the address.
 */
export default function ConsentPage() {
  const { api } = useSession();
  const loc = useLocation();
  const nav = useNavigate();
  const oauth = useMemo(() => consentApi(api.http), [api]);
  const params = useMemo(() => new URLSearchParams(loc.search), [loc.search]);
  const scopes = useMemo(() => splitScopes(params.get('scope')), [params]);

  const [preview, setPreview] = useState<ConsentPreview | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [step, setStep] = useState<Step>('scopes');
  const [guildId, setGuildId] = useState<string>('');
  const [permissions, setPermissions] = useState<bigint>(0n);
  const [busy, setBusy] = useState<'authorize' | 'cancel' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const autoTried = useRef(false);

  const load = () => {
    setLoadError(null);
    setPreview(null);
    oauth
      .preview(loc.search)
      .then((p) => {
        setPreview(p);
        setPermissions(requestedPermissions(p, scopes, params));
        const wanted = params.get('guild_id');
        const first = p.guilds?.find((g) => g.id === wanted) ?? p.guilds?.[0];
        setGuildId(first?.id ?? '');
      })
      .catch(setLoadError);
  };
  useEffect(load, [loc.search]);

  const shownScopes = scopes.length ? scopes : preview ? (installDefaults(preview)?.scopes ?? []) : [];
  const requested = preview ? requestedPermissions(preview, scopes, params) : 0n;
  const hasBot = shownScopes.includes('bot');
  const needsGuild = !!preview?.guilds;
  const userInstall = preview?.integration_type === 1;

  const go = (location: string, answer: ConsentAnswer) => {
    const dest = checkDestination(location);
    if (dest.kind === 'refused') return setOutcome({ kind: 'refused', reason: dest.reason });
    if (dest.kind === 'internal') {
      if (!answer.authorize) return setOutcome({ kind: 'cancelled' });
      const guild = preview?.guilds?.find((g) => g.id === answer.guild_id);
      return nav(dest.path, {
        replace: true,
        state: { application: preview?.application, guild: guild ? { id: guild.id, name: guild.name } : null, userInstall },
      });
    }
    setOutcome({ kind: 'leaving', to: dest.url });
    window.location.assign(dest.url);
  };

  const submit = async (authorize: boolean) => {
    if (!preview) return;
    setBusy(authorize ? 'authorize' : 'cancel');
    setError(null);
    const answer: ConsentAnswer = { authorize, integration_type: preview.integration_type };
    if (authorize && needsGuild) answer.guild_id = guildId;
    if (authorize && hasBot) answer.permissions = permissions.toString();
    try {
      const { location } = await oauth.answer(loc.search, answer);
      go(location, answer);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };

  // prompt=none: a person who already granted these scopes is sent back without seeing the screen again. An install
  // into a server always asks (the server and the permissions are chosen each time).
  useEffect(() => {
    if (!preview || autoTried.current) return;
    if (params.get('prompt') === 'none' && preview.authorized && !needsGuild) {
      autoTried.current = true;
      void submit(true);
    }
  }, [preview]);

  if (loadError)
    return (
      <ConsentShell>
        <ConsentError error={loadError} onRetry={load} />
      </ConsentShell>
    );
  if (!preview)
    return (
      <ConsentShell>
        <div className="consent__loading">
          <Spinner />
          <span>Loading the request…</span>
        </div>
      </ConsentShell>
    );
  if (outcome)
    return (
      <ConsentShell>
        <OutcomeView outcome={outcome} app={preview.application.name} />
      </ConsentShell>
    );

  const app = preview.application;
  const guild = preview.guilds?.find((g) => g.id === guildId);
  const lockGuild = params.get('disable_guild_select') === 'true' && !!params.get('guild_id');
  const isLastStep = !hasBot || step === 'permissions';
  const canContinue = !needsGuild || !!guildId;
  const autoApproving = busy === 'authorize' && params.get('prompt') === 'none' && preview.authorized && !needsGuild;

  return (
    <ConsentShell>
      <header className="consent__head">
        <div className="consent__icons">
          <AppIcon app={app} size={80} radius={24} />
          <span className="consent__dots" aria-hidden>
            <i />
            <i />
            <i />
          </span>
          <Avatar user={preview.user} size={80} />
        </div>
        <p className="consent__kicker">
          {userInstall ? 'Add to my apps' : needsGuild ? (hasBot ? 'Add a bot to a server' : 'Add to a server') : 'An external application'}
        </p>
        <h1 className="consent__title">{app.name}</h1>
        <p className="consent__sub">{subtitle(preview, hasBot, userInstall, needsGuild)}</p>
        <p className="consent__who">
          Signed in as <strong>{displayName(preview.user)}</strong> <span className="muted">@{preview.user.username}</span>
          {' · '}
          <NotYou />
        </p>
      </header>

      {autoApproving ? (
        <div className="consent__loading">
          <Spinner />
          <span>You already authorized {app.name}. Sending you back…</span>
        </div>
      ) : (
        <>
          <div className="consent__body">
            {error ? (
              <div className="consent__error">
                <Banner>{readableError(error)}</Banner>
              </div>
            ) : null}
            {step === 'scopes' ? (
              <>
                {needsGuild ? <GuildPicker guilds={preview.guilds!} value={guildId} onChange={setGuildId} locked={lockGuild} /> : null}
                <ScopeList scopes={shownScopes} appName={app.name} userInstall={userInstall} bot={preview.bot} />
              </>
            ) : (
              <PermissionStep
                bot={preview.bot}
                appName={app.name}
                guildName={guild?.name ?? 'this server'}
                requested={requested}
                value={permissions}
                onChange={setPermissions}
              />
            )}
            <ConsentNotes app={app} scopes={shownScopes} redirectUri={preview.redirect_uri} />
          </div>
          <footer className="consent__foot">
            {step === 'permissions' ? (
              <Button variant="link" onClick={() => setStep('scopes')} disabled={!!busy}>
                Back
              </Button>
            ) : (
              <Button variant="link" onClick={() => void submit(false)} busy={busy === 'cancel'} disabled={!!busy}>
                Cancel
              </Button>
            )}
            <span className="grow" />
            {isLastStep ? (
              <Button onClick={() => void submit(true)} busy={busy === 'authorize'} disabled={!!busy || !canContinue}>
                Authorize
              </Button>
            ) : (
              <Button onClick={() => setStep('permissions')} disabled={!canContinue}>
                Continue
              </Button>
            )}
          </footer>
        </>
      )}
    </ConsentShell>
  );
}

/** What a request without `scope` falls back to (the app's default install settings), as the server does. */
function installDefaults(p: ConsentPreview): { scopes: string[]; permissions: string } | null {
  return p.application.integration_types_config?.[String(p.integration_type) as '0' | '1']?.oauth2_install_params ?? null;
}

/** The bot permissions asked: the link's `permissions`, or the default install settings' when the link names no scope. */
function requestedPermissions(p: ConsentPreview, scopes: string[], params: URLSearchParams): bigint {
  return parsePermissions(scopes.length ? params.get('permissions') : installDefaults(p)?.permissions);
}

function subtitle(p: ConsentPreview, hasBot: boolean, userInstall: boolean, needsGuild: boolean): string {
  if (userInstall) return 'wants to be added to your apps, so you can use it in any server and in your DMs.';
  if (hasBot) return 'wants to join a server you manage, with a bot.';
  if (needsGuild) return 'wants to add its commands to a server you manage.';
  return 'wants to access your Accord account.';
}

function NotYou() {
  const { signOut } = useSession();
  const loc = useLocation();
  const nav = useNavigate();
  return (
    <button
      type="button"
      className="consent__link"
      onClick={() => {
        signOut();
        nav(`/login?redirect_to=${encodeURIComponent(loc.pathname + loc.search)}`, { replace: true });
      }}
    >
      Not you?
    </button>
  );
}

function OutcomeView({ outcome, app }: { outcome: Outcome; app: string }) {
  if (outcome.kind === 'leaving') {
    let host = outcome.to;
    try {
      host = new URL(outcome.to).host || outcome.to;
    } catch {
      /* shown as is */
    }
    return (
      <div className="consent__loading">
        <Spinner />
        <span>
          Taking you back to <strong>{host}</strong>…
        </span>
      </div>
    );
  }
  if (outcome.kind === 'cancelled') {
    return (
      <div className="consent__done">
        <div className="consent__done-icon consent__done-icon--muted">
          <Icon name="x" size={32} />
        </div>
        <h1 className="consent__title">Cancelled</h1>
        <p className="consent__sub">{app} was not authorized. Nothing was shared.</p>
        <a className="btn btn--secondary" href="/channels/@me">
          Back to Accord
        </a>
      </div>
    );
  }
  return <ConsentError error={new ApiError(0, 0, outcome.reason)} title="We could not send you back" />;
}

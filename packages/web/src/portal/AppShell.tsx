import { useEffect, useRef, useState } from 'react';
import { Link, NavLink, Navigate, Route, Routes, useLocation, useParams } from 'react-router';
import { ApiError, readableError } from '../lib/api/errors.js';
import { AppIcon } from '../lib/oauth/AppIcon.js';
import { ErrorState, Icon, Loading } from '../lib/ui/index.js';
import { AppContext, usePortal } from './context.js';
import type { Application } from './types.js';
import { GeneralPage } from './pages/GeneralPage.js';
import { InstallationPage } from './pages/InstallationPage.js';
import { OAuth2Page } from './pages/OAuth2Page.js';
import { BotPage } from './pages/BotPage.js';
import { EndpointsPage } from './pages/EndpointsPage.js';
import { EmojisPage } from './pages/EmojisPage.js';
import { MonetizationPage } from './pages/MonetizationPage.js';
import { ActivitiesPage } from './pages/ActivitiesPage.js';
import { TestersPage } from './pages/TestersPage.js';
import { ExternalAuthPage } from './pages/ExternalAuthPage.js';

const TABS = [
  { path: 'information', label: 'General Information', icon: 'home' },
  { path: 'installation', label: 'Installation', icon: 'plus' },
  { path: 'oauth2', label: 'OAuth2', icon: 'lock' },
  { path: 'bot', label: 'Bot', icon: 'bot' },
  { path: 'endpoints', label: 'Endpoints', icon: 'link' },
  { path: 'emojis', label: 'Emojis', icon: 'smile' },
  { path: 'monetization', label: 'Monetization', icon: 'store' },
  { path: 'activities', label: 'Activities', icon: 'compass' },
  { path: 'testers', label: 'App Testers', icon: 'users' },
  { path: 'external-auth', label: 'External Auth', icon: 'users' },
] as const;

/** One application: its settings tabs on the left, the open tab on the right. */
export function AppShell() {
  const { appId = '' } = useParams();
  const { api, devTools } = usePortal();
  const { pathname } = useLocation();
  const [app, setApp] = useState<Application | null>(null);
  const [error, setError] = useState<unknown>(null);
  const load = () => {
    setError(null);
    setApp(null);
    api.get(appId).then(setApp).catch(setError);
  };
  useEffect(load, [appId]);
  // On a phone the tabs are one strip that scrolls sideways: keep the open one in sight.
  const nav = useRef<HTMLElement>(null);
  useEffect(() => {
    nav.current?.querySelector('.app-nav__item.active')?.scrollIntoView({ block: 'nearest', inline: 'nearest' }); // a Promise in Chromium: not a cleanup
  }, [pathname, app]);

  if (error) {
    const missing = error instanceof ApiError && (error.code === 10002 || error.code === 20012 || error.status === 404);
    return (
      <main className="portal__page">
        <ErrorState
          title={missing ? 'Application not found' : 'Could not load this application'}
          message={missing ? 'It does not exist, or you are not its owner.' : readableError(error)}
          onRetry={missing ? undefined : load}
        />
        <div className="p-center">
          <Link to="/developers/applications">Back to your applications</Link>
        </div>
      </main>
    );
  }
  if (!app)
    return (
      <main className="portal__page">
        <Loading label="Loading the application…" />
      </main>
    );

  return (
    <AppContext.Provider value={{ app, setApp }}>
      <div className="app-shell">
        <nav ref={nav} className="app-nav" aria-label="Application settings">
          <Link to="/developers/applications" className="app-nav__back">
            <Icon name="chevron" size={16} className="app-nav__back-icon" /> All applications
          </Link>
          <div className="app-nav__app">
            <AppIcon app={app} size={40} radius={12} />
            <span className="app-nav__name ellipsis" title={app.name}>
              {app.name}
            </span>
          </div>
          <div className="app-nav__label">Settings</div>
          {TABS.map((t) => (
            <NavLink key={t.path} to={`/developers/applications/${app.id}/${t.path}`} className="app-nav__item">
              <Icon name={t.icon} size={18} /> <span>{t.label}</span>
            </NavLink>
          ))}
          {devTools ? (
            <>
              <div className="app-nav__label">Developer tools</div>
              <Link to={`/developers/dev?app=${app.id}`} className="app-nav__item">
                <Icon name="search" size={18} /> <span>Inspector</span>
              </Link>
            </>
          ) : null}
        </nav>
        <main className="portal__page" key={pathname /* each tab starts at the top */}>
          <Routes>
            <Route path="information" element={<GeneralPage />} />
            <Route path="installation" element={<InstallationPage />} />
            <Route path="oauth2" element={<OAuth2Page />} />
            <Route path="bot" element={<BotPage />} />
            <Route path="endpoints" element={<EndpointsPage />} />
            <Route path="emojis" element={<EmojisPage />} />
            <Route path="monetization" element={<MonetizationPage />} />
            <Route path="activities" element={<ActivitiesPage />} />
            <Route path="testers" element={<TestersPage />} />
            <Route path="external-auth" element={<ExternalAuthPage />} />
            <Route path="*" element={<Navigate to={`/developers/applications/${app.id}/information`} replace />} />
          </Routes>
        </main>
      </div>
    </AppContext.Provider>
  );
}

import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { LoginPage } from '../auth/LoginPage.js';
import { RegisterPage } from '../auth/RegisterPage.js';
import { ChatApp } from '../chat/ChatApp.js';
import { InvitePage } from '../invite/InvitePage.js';
import { DesktopLink } from '../desktop-link/DesktopLink.js';
import { useSession } from '../lib/session.js';
import { Loading, Toasts } from '../lib/ui/index.js';

// Areas a chat user rarely opens load on demand, which keeps the first download small.
const PortalApp = lazy(() => import('../portal/PortalApp.js'));
const ConsentPage = lazy(() => import('../oauth/ConsentPage.js'));
const AuthorizedPage = lazy(() => import('../oauth/AuthorizedPage.js'));
const ActivatePage = lazy(() => import('../oauth/ActivatePage.js'));
const StorePage = lazy(() => import('../store/StorePage.js'));
const DevPanel = lazy(() => import('../dev/DevPanel.js'));
const ActivityLinkPage = lazy(() => import('../activity/ActivityLinkPage.js'));
const ServerSettings = lazy(() => import('../settings/server/ServerSettings.js'));

/** The official client's paths. The server answers each with this app; the router picks the screen. */
export function App() {
  return (
    <>
      <Suspense fallback={<Loading />}>
        <Routes>
          <Route path="/" element={<Navigate to="/app" replace />} />
          <Route path="/app" element={<Navigate to="/channels/@me" replace />} />
          <Route path="/login" element={<LoginPage />} />
          <Route path="/register" element={<RegisterPage />} />
          <Route path="/invite/:code" element={<InvitePage />} />
          <Route
            path="/channels/:guildId/:channelId?/:messageId?"
            element={
              <Authed>
                <ChatApp />
              </Authed>
            }
          />
          <Route
            path="/settings/server/:guildId/:section?"
            element={
              <Authed>
                <ServerSettings />
              </Authed>
            }
          />
          <Route
            path="/oauth2/authorize"
            element={
              <Authed>
                <ConsentPage />
              </Authed>
            }
          />
          <Route path="/oauth2/authorized" element={<AuthorizedPage />} />
          <Route
            path="/activate"
            element={
              <Authed>
                <ActivatePage />
              </Authed>
            }
          />
          <Route
            path="/application-directory/:appId/store"
            element={
              <Authed>
                <StorePage />
              </Authed>
            }
          />
          <Route
            path="/activities/:appId"
            element={
              <Authed>
                <ActivityLinkPage />
              </Authed>
            }
          />
          <Route
            path="/developers/dev/*"
            element={
              <Authed>
                <DevPanel />
              </Authed>
            }
          />
          <Route
            path="/developers/*"
            element={
              <Authed>
                <PortalApp />
              </Authed>
            }
          />
          <Route path="*" element={<NotFound />} />
        </Routes>
      </Suspense>
      <Toasts />
      <DesktopLink />
    </>
  );
}

/** Screens that need a signed-in person send others to /login and back again afterwards. */
function Authed({ children }: { children: ReactNode }) {
  const { token } = useSession();
  const loc = useLocation();
  if (!token) return <Navigate to={`/login?redirect_to=${encodeURIComponent(loc.pathname + loc.search)}`} replace />;
  return <>{children}</>;
}

function NotFound() {
  return (
    <div className="auth">
      <div className="auth__card">
        <h1 className="auth__title">Nothing here</h1>
        <p className="auth__sub">This page does not exist.</p>
        <a className="btn btn--block" href="/app">
          Open Accord
        </a>
      </div>
    </div>
  );
}

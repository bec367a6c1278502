import { useEffect, useMemo, useState } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import type { APIUser } from '../lib/api/types.js';
import { dev } from '../lib/dev/client.js';
import { useSession } from '../lib/session.js';
import { portalApi } from './api.js';
import { AppList } from './AppList.js';
import { AppShell } from './AppShell.js';
import { PortalContext, type PortalState } from './context.js';
import { TopBar } from './TopBar.js';

/**
 * The developer portal (/developers/applications…): applications with their general information, installation,
 * OAuth2, bot, endpoints, emojis and monetization. Everything goes through the public API an app's owner can call.
 */
export default function PortalApp() {
  const { api } = useSession();
  const papi = useMemo(() => portalApi(api.http), [api]);
  const [me, setMe] = useState<APIUser | null>(null);
  const [devTools, setDevTools] = useState(false);
  useEffect(() => {
    api
      .me()
      .then(setMe)
      .catch(() => setMe(null));
    void dev.available().then(setDevTools);
  }, [api]);
  const state: PortalState = useMemo(() => ({ api: papi, me, devTools }), [papi, me, devTools]);

  return (
    <PortalContext.Provider value={state}>
      <div className="portal">
        <TopBar me={me} devTools={devTools} />
        <div className="portal__body">
          <Routes>
            <Route path="applications" element={<AppList />} />
            <Route path="applications/:appId/*" element={<AppShell />} />
            <Route path="*" element={<Navigate to="/developers/applications" replace />} />
          </Routes>
        </div>
      </div>
    </PortalContext.Provider>
  );
}

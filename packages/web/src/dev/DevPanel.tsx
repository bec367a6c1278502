import './dev.css';
import { useEffect, useState } from 'react';
import type { APIUser } from '../lib/api/types.js';
import { dev } from '../lib/dev/client.js';
import { useSession } from '../lib/session.js';
import { Empty, Loading } from '../lib/ui/index.js';
import { TopBar } from '../portal/TopBar.js';
import { ActAsUser } from './ActAsUser.js';
import { ClockCard } from './ClockCard.js';
import { FaultsCard } from './FaultsCard.js';
import { Inspector } from './Inspector.js';

/**
 * Developer powers (/developers/dev), only when the server runs with --dev: the Inspector (live traffic of an app),
 * the server clock, faults for an app, and acting as any person in one click. Every call goes through `lib/dev/client.ts`.
 */
export default function DevPanel() {
  const { api } = useSession();
  const [available, setAvailable] = useState<boolean | null>(null);
  const [me, setMe] = useState<APIUser | null>(null);
  useEffect(() => {
    void dev.available().then(setAvailable);
    api
      .me()
      .then(setMe)
      .catch(() => setMe(null));
  }, [api]);

  return (
    <div className="portal">
      <TopBar me={me} devTools={!!available} />
      {available === null ? (
        <Loading label="Looking for developer tools…" />
      ) : !available ? (
        <Empty
          icon="code"
          title="Developer tools are off"
          action={
            <a className="btn btn--secondary" href="/developers/applications">
              Back to your applications
            </a>
          }
        >
          They need a server started with <code>--dev</code> (on this machine only): <code>npm start -- --dev --seed</code>. It adds the inspector, a movable
          clock and acting as any user.
        </Empty>
      ) : (
        <div className="devtools">
          <aside className="devtools__side">
            <ClockCard />
            <FaultsCard />
            <ActAsUser me={me} />
          </aside>
          <Inspector />
        </div>
      )}
    </div>
  );
}

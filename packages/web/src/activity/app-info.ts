import { useEffect, useState } from 'react';
import { useSession } from '../lib/session.js';

/** An app's public face (GET /oauth2/applications/{id}/rpc), fetched once per app and shared. */
export interface AppInfo {
  id: string;
  name: string;
  icon: string | null;
  description: string;
}

const cache = new Map<string, Promise<AppInfo>>();

export function useAppInfo(appId: string): AppInfo {
  const session = useSession();
  const [info, setInfo] = useState<AppInfo>({ id: appId, name: 'Activity', icon: null, description: '' });
  useEffect(() => {
    let live = true;
    let p = cache.get(appId);
    if (!p) {
      p = session.api.http
        .get<AppInfo>(`/oauth2/applications/${appId}/rpc`, { anonymous: true })
        .then((a) => ({ id: a.id, name: a.name, icon: a.icon ?? null, description: a.description ?? '' }));
      p.catch(() => cache.delete(appId));
      cache.set(appId, p);
    }
    p.then((a) => live && setInfo(a)).catch(() => undefined);
    return () => {
      live = false;
    };
  }, [appId]);
  return info;
}

import { useCallback, useEffect, useRef, useState } from 'react';
import { useSession } from '../lib/session.js';
import { findLocalClient, openLink, type DesktopConsent } from './link.js';

/** Looks again at most this often, when the window gets focus while no local client is linked. */
const RETRY_MS = 15_000;

/**
 * Links the signed-in web client to Accord's local client on this computer, when one runs for the same account:
 * the consent requests it forwards, in order, and how to answer the first.
 */
export function useDesktopLink() {
  const { token, api } = useSession();
  const [linked, setLinked] = useState(false);
  const [queue, setQueue] = useState<DesktopConsent[]>([]);
  const link = useRef<ReturnType<typeof openLink> | null>(null);

  useEffect(() => {
    if (!token) return;
    let stopped = false;
    let searching = false;
    let last = 0;
    const search = async () => {
      if (stopped || searching || link.current || Date.now() - last < RETRY_MS) return;
      searching = true;
      last = Date.now();
      try {
        const me = await api.me();
        const port = await findLocalClient(me.id);
        if (stopped || port === null) return;
        link.current = openLink(port, me.id, token, {
          onLinked: (on) => {
            setLinked(on);
            if (!on) {
              link.current = null;
              setQueue([]);
            }
          },
          onConsent: (c) => setQueue((q) => (q.some((x) => x.id === c.id) ? q : [...q, c])),
          onSettled: (id) => setQueue((q) => q.filter((x) => x.id !== id)),
        });
      } catch {
        // not signed in any more, or the server is away: try again later
      } finally {
        searching = false;
      }
    };
    void search();
    window.addEventListener('focus', search);
    return () => {
      stopped = true;
      window.removeEventListener('focus', search);
      link.current?.close();
      link.current = null;
    };
  }, [token, api]);

  const answer = useCallback((id: string, approve: boolean) => {
    link.current?.answer(id, approve);
    setQueue((q) => q.filter((x) => x.id !== id));
  }, []);

  return { linked, current: queue[0] ?? null, answer };
}

import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { HttpClient } from './api/client.js';
import { apiRoutes, type Api } from './api/routes.js';
import { GatewaySocket, Op } from './gateway/socket.js';
import { applyDispatch } from './state/dispatch.js';
import { runTaps } from './state/dispatch-taps.js';
import { expireTyping } from './state/message-events.js';
import { Store, useStoreOf, type State } from './state/store.js';

/**
 * The signed-in person: their token (kept in localStorage, as the official web client keeps it), the API client,
 * the store and the Gateway session feeding it. Signed out, only the anonymous API is available.
 */

const TOKEN_KEY = 'accord.token';

export interface Session {
  token: string | null;
  api: Api;
  store: Store;
  gateway: GatewaySocket | null;
  signIn(token: string): void;
  signOut(): void;
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [token, setToken] = useState<string | null>(() => localStorage.getItem(TOKEN_KEY));
  const store = useMemo(() => new Store(), []);
  const api = useMemo(() => {
    const http = new HttpClient(() => localStorage.getItem(TOKEN_KEY));
    return apiRoutes(http);
  }, []);
  const [gateway, setGateway] = useState<GatewaySocket | null>(null);

  const signIn = (t: string) => {
    localStorage.setItem(TOKEN_KEY, t);
    setToken(t);
  };
  const signOut = () => {
    localStorage.removeItem(TOKEN_KEY);
    setToken(null);
  };
  api.http.onUnauthorized = signOut;

  useEffect(() => {
    if (!token) {
      store.reset();
      return;
    }
    let socket: GatewaySocket | null = null;
    let cancelled = false;
    store.set({ status: 'connecting', statusDetail: null });
    api
      .gatewayUrl()
      .then(({ url }) => {
        if (cancelled) return;
        socket = new GatewaySocket({
          url,
          token,
          onDispatch: (t, d) => {
            applyDispatch(store, t, d);
            runTaps(t, d);
            // A newcomer's presence is not part of GUILD_MEMBER_ADD: ask for it (op 8 with presences).
            if (t === 'GUILD_MEMBER_ADD' && d?.user && !store.state.presences.has(d.user.id)) {
              socket?.send(Op.REQUEST_GUILD_MEMBERS, { guild_id: d.guild_id, user_ids: [d.user.id], presences: true });
            }
            // A first message in a DM someone else opened: the conversation itself is fetched once.
            if (t === 'MESSAGE_CREATE' && !d?.guild_id && !store.state.privateChannels.has(d.channel_id)) {
              api.channels.get(d.channel_id).then(
                (c) => applyDispatch(store, 'CHANNEL_CREATE', c),
                () => undefined,
              );
            }
          },
          onStatus: (status, detail) => store.set({ status, statusDetail: detail ?? null }),
          onAuthFailed: signOut,
        });
        socket.start();
        setGateway(socket);
      })
      .catch(() => store.set({ status: 'failed', statusDetail: 'Cannot reach the server.' }));
    const timer = setInterval(() => expireTyping(store), 2000);
    return () => {
      cancelled = true;
      clearInterval(timer);
      socket?.stop();
      setGateway(null);
      store.reset();
    };
  }, [token]);

  const value: Session = { token, api, store, gateway, signIn, signOut };
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside SessionProvider');
  return s;
}

export const useApi = () => useSession().api;

/** Subscribes to one slice of the store (see Store). */
export function useStore<T>(selector: (s: State) => T): T {
  return useStoreOf(useSession().store, selector);
}

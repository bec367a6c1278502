import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { HttpClient } from './api/client.js';
import { apiRoutes, type Api } from './api/routes.js';
import { Op } from '@accord/protocol';
import { GatewaySocket } from './gateway/socket.js';
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
  /**
   * Runs a request that revokes the current token and returns a new one (a password change): the old token's
   * refusals meanwhile (a 401, the Gateway's 4004) do not log the person out, and the new token takes over.
   */
  swapToken(run: () => Promise<string>): Promise<void>;
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
  const swapping = useRef(false);
  /** The next session change keeps what the store holds (the same person, a new token): no blank screen meanwhile. */
  const keepStore = useRef(false);
  const swapToken = async (run: () => Promise<string>) => {
    swapping.current = true;
    try {
      const next = await run();
      keepStore.current = true;
      signIn(next);
    } finally {
      swapping.current = false;
    }
  };
  api.http.onUnauthorized = () => !swapping.current && signOut();

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
          // Not when this socket's token was replaced (swapToken): the new one has its own socket.
          onAuthFailed: () => !swapping.current && localStorage.getItem(TOKEN_KEY) === token && signOut(),
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
      if (keepStore.current) keepStore.current = false;
      else store.reset();
    };
  }, [token]);

  const value: Session = { token, api, store, gateway, signIn, signOut, swapToken };
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

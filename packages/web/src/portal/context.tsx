import { createContext, useContext, useEffect, useMemo, useState } from 'react';
import type { APIUser } from '../lib/api/types.js';
import { useAction } from '../lib/use-action.js';
import type { PortalApi } from './api.js';
import type { Application, ApplicationPatch } from './types.js';

/** The portal's shared state: its API, the signed-in developer, and whether the server runs with --dev. */
export interface PortalState {
  api: PortalApi;
  me: APIUser | null;
  devTools: boolean;
}
export const PortalContext = createContext<PortalState | null>(null);
export function usePortal(): PortalState {
  const p = useContext(PortalContext);
  if (!p) throw new Error('usePortal outside the portal');
  return p;
}

/** The application open in the portal, and how to replace it after a save. */
export interface OpenApp {
  app: Application;
  setApp: (a: Application) => void;
}
export const AppContext = createContext<OpenApp | null>(null);
export function useOpenApp(): OpenApp & PortalState {
  const a = useContext(AppContext);
  if (!a) throw new Error('useOpenApp outside an application');
  return { ...usePortal(), ...a };
}

/**
 * A form over part of the application: a draft picked from it, whether it differs, and a save that PATCHes the
 * application and takes the server's answer as the new truth (the draft follows).
 */
export function useAppForm<T>(pick: (a: Application) => T, toPatch: (draft: T, base: T) => ApplicationPatch) {
  const { app, setApp, api } = useOpenApp();
  const base = useMemo(() => pick(app), [app]);
  const [draft, setDraft] = useState<T>(base);
  useEffect(() => setDraft(base), [base]);
  const dirty = JSON.stringify(draft) !== JSON.stringify(base);
  const save = useAction(async () => setApp(await api.update(app.id, toPatch(draft, base))));
  return {
    draft,
    dirty,
    save,
    set: (p: Partial<T>) => setDraft((d) => ({ ...d, ...p })),
    reset: () => {
      setDraft(base);
      save.setError(null);
    },
  };
}

export type AppForm<T> = ReturnType<typeof useAppForm<T>>;

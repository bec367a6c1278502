import { errorFromBody } from '../api/errors.js';

/**
 * Every call the web client makes to the dev-only control routes (`/__dev/…`, served with `--dev` on loopback).
 * They all go through `devFetch`, which adds the dev token in one place.
 */

export interface DevClock {
  now: string;
  offset_ms: number;
}
export interface DevUser {
  id: string;
  username: string;
  global_name: string | null;
  avatar: string | null;
  seeded: boolean;
}
export interface DevApplication {
  id: string;
  name: string;
  icon: string | null;
  bot_id: string | null;
  owner_id: string;
  counts: { http: number; gateway: number };
}

export interface HttpEntry {
  kind: 'http';
  id: number;
  at: string;
  method: string;
  route: string;
  path: string;
  status: number;
  bucket: string;
  duration_ms: number;
  via: 'bot' | 'bearer' | 'interaction' | 'webhook';
}
export interface GatewayEntry {
  kind: 'gateway';
  id: number;
  at: string;
  t: string;
  seq: number;
  bytes: number;
  shard: [number, number];
  guild_id: string | null;
  d: unknown;
}
export type InspectorEntry = HttpEntry | GatewayEntry;

/** A fault as the server answers it: its parameters flattened beside these fields (see README, "Faults"). */
export interface DevFault {
  id: string;
  application_id: string;
  kind: string;
  remaining: number | null;
  expires_at: string | null;
  /** One-shot kinds only: how many of the bot's sessions the action reached. */
  sessions?: number;
  [param: string]: unknown;
}

/**
 * Headers every dev call carries: the dev token, which the server puts in the page (a meta tag) only when it runs with
 * --dev and the page was loaded on this machine through a loopback host (localhost, 127.0.0.1, [::1]).
 */
function devHeaders(): Record<string, string> {
  const token = typeof document === 'undefined' ? null : document.querySelector<HTMLMetaElement>('meta[name="accord-dev-token"]')?.content;
  return token ? { 'x-accord-dev-token': token } : {};
}

async function devFetch(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(path, { ...init, headers: { ...devHeaders(), ...(init.headers as Record<string, string> | undefined) } });
}

async function devJson<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await devFetch(path, init);
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  if (!res.ok) throw errorFromBody(res.status, body);
  return body as T;
}

const post = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

export const dev = {
  /** Whether this server runs with --dev: its dev routes answer (they are 404 otherwise, or off loopback). */
  async available(): Promise<boolean> {
    try {
      return (await devFetch('/__dev/clock')).ok;
    } catch {
      return false;
    }
  },
  clock: () => devJson<DevClock>('/__dev/clock'),
  advanceClock: (ms: number) => devJson<DevClock>('/__dev/clock', post({ advance_ms: ms })),
  setClock: (iso: string) => devJson<DevClock>('/__dev/clock', post({ set: iso })),
  users: () => devJson<DevUser[]>('/__dev/users'),
  tokenFor: (userId: string) => devJson<{ user_id: string; token: string }>(`/__dev/users/${encodeURIComponent(userId)}/token`, { method: 'POST' }),
  applications: () => devJson<DevApplication[]>('/__dev/inspector/applications'),
  faults: (applicationId: string) => devJson<DevFault[]>(`/__dev/faults?application_id=${encodeURIComponent(applicationId)}`),
  addFault: (body: Record<string, unknown>) => devJson<DevFault>('/__dev/faults', post(body)),
  deleteFault: (id: string) => devJson<null>(`/__dev/faults/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  clearFaults: (applicationId: string) => devJson<null>(`/__dev/faults?application_id=${encodeURIComponent(applicationId)}`, { method: 'DELETE' }),

  /**
   * The inspector's live feed of one application (server-sent events read through fetch, not EventSource, so the
   * same headers go with it). Calls `onEntry` for the backlog and every new entry; returns a function that stops it.
   */
  inspect(applicationId: string, on: { entry(e: InspectorEntry): void; status(s: 'connecting' | 'live' | 'lost'): void }, backlog = 200): () => void {
    const ctl = new AbortController();
    let stopped = false;
    const run = async (attempt: number): Promise<void> => {
      on.status('connecting');
      try {
        const res = await devFetch(`/__dev/inspector/stream?application_id=${encodeURIComponent(applicationId)}&backlog=${attempt ? 0 : backlog}`, {
          signal: ctl.signal,
        });
        if (!res.ok || !res.body) throw new Error(`inspector stream: ${res.status}`);
        const reader = res.body.getReader();
        const decoder = new TextDecoder();
        let buf = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buf += decoder.decode(value, { stream: true });
          let cut: number;
          while ((cut = buf.indexOf('\n\n')) >= 0) {
            const block = buf.slice(0, cut);
            buf = buf.slice(cut + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (event === 'ready') on.status('live');
            else if (event === 'entry' && data) on.entry(JSON.parse(data) as InspectorEntry);
          }
        }
      } catch {
        if (stopped) return;
      }
      if (stopped) return;
      on.status('lost');
      // The server went away (restart): try again, a little later each time.
      await new Promise((r) => setTimeout(r, Math.min(5000, 500 * (attempt + 1))));
      if (!stopped) return run(attempt + 1);
    };
    void run(0);
    return () => {
      stopped = true;
      ctl.abort();
    };
  },
};

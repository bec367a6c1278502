import type { ActivityHost, HostUi, LaunchContext, WireUser } from '../../src/activity/parent/host.ts';

/**
 * An ActivityHost for driving the parent protocol from Node against a real server: the API as the person (their
 * raw user token) or with a bearer token, and a UI that answers as the test says. Presence and logs are recorded.
 */
export interface NodeHostOptions {
  baseUrl: string;
  token: string;
  me: WireUser;
  launch: LaunchContext;
  application: { id: string; name: string; description: string; icon: string | null };
  ui?: Partial<HostUi>;
  participants?: () => WireUser[];
  channelPermissions?: bigint | null;
}

export interface NodeHost extends ActivityHost {
  presences: (Record<string, unknown> | null)[];
  logs: [string, string][];
  opened: string[];
}

export function nodeHost(o: NodeHostOptions): NodeHost {
  const ui: HostUi = {
    authorize: async () => true,
    confirmExternalLink: async () => true,
    shareLink: async () => 'send',
    showInvite: async () => {},
    confirmPurchase: async () => true,
    pickImage: async () =>
      new File([Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')], 'dot.png', {
        type: 'image/png',
      }),
    shareMoment: async () => true,
    ...o.ui,
  };
  const host: NodeHost = {
    presences: [],
    logs: [],
    opened: [],
    launch: o.launch,
    origin: o.baseUrl,
    config: { api_endpoint: `${o.baseUrl.replace(/^https?:/, '')}/api`, cdn_host: new URL(o.baseUrl).host, environment: 'production' },
    ui,
    api: {
      async request(method, path, opts = {}) {
        const url = new URL(`${o.baseUrl}/api/v10${path}`);
        for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
        const headers: Record<string, string> = { authorization: opts.bearer ? `Bearer ${opts.bearer}` : o.token };
        if (opts.body !== undefined) headers['content-type'] = 'application/json';
        const res = await fetch(url, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
        const text = await res.text();
        const body = text ? JSON.parse(text) : undefined;
        if (!res.ok) throw { status: res.status, code: body?.code ?? 0, message: body?.message ?? res.statusText };
        return body;
      },
    },
    me: () => o.me,
    sessionId: () => 'node-session',
    application: () => o.application,
    participants: () => o.participants?.() ?? [o.me],
    channelPermissions: () => (o.channelPermissions === undefined ? 0xffffffffn : o.channelPermissions),
    voiceStates: () => [],
    presence: () => ({ status: 'online', activities: [{ name: 'Something', type: 0, created_at: 1 }] }),
    setPresence: (a) => {
      host.presences.push(a);
    },
    locale: () => 'en-US',
    refreshProxyTicket: async () => {
      const r = await host.api.request<{ ticket: string }>(
        'POST',
        `/applications/${o.launch.applicationId}/activity-instances/${o.launch.instanceId}/proxy-ticket`,
      );
      return r.ticket;
    },
    log: (level, message) => {
      host.logs.push([level, message]);
    },
    lockOrientation: () => {},
    openUrl: (url) => {
      host.opened.push(url);
    },
    layoutMode: () => 0,
    orientation: () => 'landscape',
  };
  return host;
}

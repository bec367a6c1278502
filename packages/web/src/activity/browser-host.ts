import type { Session } from '../lib/session.js';
import type { APIUser } from '../lib/api/types.js';
import { ApiError } from '../lib/api/errors.js';
import { channelPermissions } from '../lib/state/permissions.js';
import type { ActivityHost, HostUi, LaunchContext, VoiceStateInfo, WireUser } from './parent/host.js';
import { instances, userIdsOf } from './instances.js';
import { knownUser } from './users.js';

/**
 * The ActivityHost of the browser client: the API as the signed-in person, the store for who is where, the Gateway
 * session for presence, and the client's dialogs for everything the person decides.
 */
export interface BrowserHostInput {
  session: Session;
  launch: LaunchContext;
  /** The app's public face, read when needed (it may load after the frame starts). */
  application(): { id: string; name: string; description: string; icon: string | null };
  ui: HostUi;
  /** Sends a control message to the bridge page (a refreshed proxy ticket). */
  toBridge(message: unknown): void;
  /** The frame's current size, for the orientation. */
  frameSize(): { width: number; height: number };
  layoutMode(): number;
  onOrientationLock(lock: { lock_state: number }): void;
}

export function browserHost(input: BrowserHostInput): ActivityHost {
  const { session, launch } = input;
  const store = session.store;
  const http = session.api.http;
  const me = () => store.state.me as unknown as WireUser;

  const userOf = (id: string): WireUser | null => knownUser(store, id) as WireUser | null;

  return {
    launch,
    origin: location.origin,
    config: { api_endpoint: `//${location.host}/api`, cdn_host: location.host, environment: 'production' },
    ui: input.ui,
    api: {
      async request(method, path, opts = {}) {
        try {
          return await http.request(method, path, {
            body: opts.body,
            files: opts.files,
            query: opts.query as Record<string, string | undefined>,
            ...(opts.bearer ? { anonymous: true, headers: { authorization: `Bearer ${opts.bearer}` } } : {}),
          });
        } catch (err) {
          if (err instanceof ApiError) throw { status: err.status, code: err.code, message: err.message };
          throw err;
        }
      },
    },
    me,
    sessionId: () => store.state.sessionId,
    application: () => input.application(),
    participants: () =>
      userIdsOf(instances.get(launch.instanceId))
        .map(userOf)
        .filter((u): u is WireUser => !!u),
    channelPermissions() {
      if (!launch.guildId) return null;
      const g = store.state.guilds.get(launch.guildId);
      return g ? channelPermissions(g, me().id, g.channels.get(launch.channelId)) : 0n;
    },
    voiceStates(channelId) {
      const g = launch.guildId ? store.state.guilds.get(launch.guildId) : null;
      const out: VoiceStateInfo[] = [];
      for (const v of g?.voiceStates.values() ?? []) {
        if (v.channel_id !== channelId) continue;
        const user = userOf(v.user_id);
        if (!user) continue;
        out.push({
          user,
          nick: g?.members.get(v.user_id)?.nick ?? null,
          mute: v.mute,
          deaf: v.deaf,
          self_mute: v.self_mute,
          self_deaf: v.self_deaf,
          suppress: v.suppress,
        });
      }
      return out;
    },
    presence(userId) {
      const p = store.state.presences.get(userId);
      return p ? { status: p.status, activities: p.activities ?? [] } : null;
    },
    setPresence(activity) {
      session.gateway?.send(3, { since: 0, status: 'online', afk: false, activities: activity ? [activity] : [] });
    },
    locale: () => (me() as APIUser).locale ?? navigator.language ?? 'en-US',
    async refreshProxyTicket() {
      const r = await http.post<{ ticket: string }>(`/applications/${launch.applicationId}/activity-instances/${launch.instanceId}/proxy-ticket`);
      input.toBridge({ accord: 'proxy-ticket', ticket: r.ticket });
      return r.ticket;
    },
    log(level, message) {
      console.debug(`[Activity ${level}]`, message);
    },
    lockOrientation: (lock) => input.onOrientationLock(lock),
    openUrl(url) {
      window.open(url, '_blank', 'noopener,noreferrer');
    },
    layoutMode: () => input.layoutMode(),
    orientation() {
      const { width, height } = input.frameSize();
      return height > width ? 'portrait' : 'landscape';
    },
  };
}

import { ApiError, type PlatformApi } from '../platform/api.js';
import type { UserGateway } from '../platform/gateway.js';
import type { ClientState, StateChange, VoiceState } from '../platform/state.js';
import type { ConsentPrompter } from '../consent.js';
import { RpcClose, RpcCloseCode, RpcError, RpcErrorCode } from './codes.js';
import { allowed, type ScopeRule } from './scopes.js';
import { validateArgs, type Schema } from './schema.js';
import { RpcSocket, type AppInfo, type RpcTransport } from './socket.js';
import { guildIconUrl, rpcMessage, rpcUser, rpcVoiceState } from './views.js';
import { ActivityInvites } from './invites.js';

export interface CommandContext {
  core: RpcCore;
  socket: RpcSocket;
  args: any;
  evt: string | null;
  nonce: string;
  cmd: string;
}

export interface Command {
  scope: ScopeRule;
  validation?: Schema;
  run(ctx: CommandContext): unknown | Promise<unknown>;
  /** Runs after the answer went out (e.g. the first GUILD_STATUS after its SUBSCRIBE). */
  after?(ctx: CommandContext): void | Promise<void>;
}

export interface RpcCoreDeps {
  api: PlatformApi;
  gateway: UserGateway;
  state: ClientState;
  prompter: ConsentPrompter;
  /** The logged-in person (GET /users/@me). */
  user: any;
  /** The platform's base URL, e.g. http://127.0.0.1:8080: READY's config and image URLs come from it. */
  baseUrl: string;
  commands: Map<string, Command>;
}

/**
 * The RPC protocol, whatever the transport: the handshake checks, command dispatch with scopes and the platform's
 * error codes, subscriptions fed by the Gateway session, and one rich presence per connected app.
 */
export class RpcCore {
  readonly sockets = new Set<RpcSocket>();
  /** Ask to Join requests waiting for the person's answer, by `appId:userId`. */
  readonly joinRequests = new Map<string, unknown>();
  /** Activity invites and Ask to Join between the person and others (invites.ts). */
  readonly invites = new ActivityInvites(this);
  private readonly apps = new Map<string, Promise<AppInfo | null>>();
  private presenceTimer: NodeJS.Timeout | null = null;

  constructor(readonly deps: RpcCoreDeps) {
    deps.gateway.on('dispatch', (t: string, d: any) => this.onDispatch(t, d));
  }

  get api() {
    return this.deps.api;
  }
  get state() {
    return this.deps.state;
  }
  get user() {
    return this.deps.user;
  }
  get cdnBase(): string {
    return this.deps.baseUrl;
  }

  /** READY's config: the platform's own hosts, not Discord's. */
  get config() {
    const host = new URL(this.deps.baseUrl).host;
    return { cdn_host: host, api_endpoint: `//${host}/api`, environment: 'production' };
  }

  /**
   * Checks a handshake (`v` 1 as number or string, a known client id, an allowed Origin) and sends READY.
   * Throws RpcClose with the platform's close code otherwise: 4004 bad version, 4000 unknown or empty client id,
   * 4001 an Origin the app did not list in its rpc_origins.
   */
  async handshake(transport: RpcTransport, hello: { v?: unknown; client_id?: unknown }, origin: string | null): Promise<RpcSocket> {
    if (String(hello.v) !== '1') throw new RpcClose(RpcCloseCode.INVALID_VERSION, 'Invalid Version');
    const clientId = typeof hello.client_id === 'string' || typeof hello.client_id === 'number' ? String(hello.client_id) : '';
    const app = /^\d{1,20}$/.test(clientId) ? await this.application(clientId) : null;
    if (!app) throw new RpcClose(RpcCloseCode.INVALID_CLIENTID, 'Invalid Client ID');
    if (origin !== null && !app.rpc_origins.includes(origin)) throw new RpcClose(RpcCloseCode.INVALID_ORIGIN, 'Invalid Origin');
    const socket = new RpcSocket(transport, app, origin);
    this.sockets.add(socket);
    socket.dispatch('READY', { v: 1, config: this.config, user: rpcUser(this.user) });
    return socket;
  }

  /** One payload from an app. Never throws: every failure is answered on that socket only. */
  async message(socket: RpcSocket, payload: unknown): Promise<void> {
    const p = payload && typeof payload === 'object' && !Array.isArray(payload) ? (payload as Record<string, any>) : null;
    const cmd = typeof p?.cmd === 'string' ? p.cmd : null;
    const nonce = typeof p?.nonce === 'string' && p.nonce !== '' ? p.nonce : null;
    try {
      if (!p || !cmd) throw new RpcError(RpcErrorCode.INVALID_PAYLOAD, 'Invalid payload');
      if (!nonce) throw new RpcError(RpcErrorCode.INVALID_PAYLOAD, 'Payload requires a nonce');
      const command = this.deps.commands.get(cmd);
      if (!command) throw new RpcError(RpcErrorCode.INVALID_COMMAND, `Invalid command: ${cmd}`);
      if (!allowed(socket.scopes, command.scope)) throw new RpcError(RpcErrorCode.INVALID_PERMISSIONS, 'Not authenticated or invalid scope');
      let args = p.args ?? {};
      if (command.validation) {
        const r = validateArgs(command.validation, args);
        if (!r.ok) throw new RpcError(RpcErrorCode.INVALID_PAYLOAD, r.message);
        args = r.value;
      }
      const evt = typeof p.evt === 'string' ? p.evt : null;
      const ctx: CommandContext = { core: this, socket, args, evt, nonce, cmd };
      const data = await command.run(ctx);
      socket.reply(cmd, nonce, data ?? null, cmd === 'SUBSCRIBE' || cmd === 'UNSUBSCRIBE' ? evt : null);
      await command.after?.(ctx);
    } catch (err) {
      const e = toRpcError(err);
      socket.error(cmd ?? 'DISPATCH', nonce, e.code, e.message);
    }
  }

  /** The app went away: its activity is cleared and its subscriptions dropped. */
  closed(socket: RpcSocket): void {
    if (socket.closed) return;
    socket.closed = true;
    this.sockets.delete(socket);
    if (socket.activity) this.setActivity(socket, null);
  }

  /** Sets (or clears with null) one app's rich presence; the person's presence carries every app's activity. */
  setActivity(socket: RpcSocket, activity: RpcSocket['activity']): void {
    if (!socket.activity && !activity) return;
    socket.activity = activity;
    socket.activitySetAt = activity ? Date.now() : 0;
    this.publishPresence();
  }

  private publishPresence(): void {
    const activities = [...this.sockets]
      .filter((s) => s.activity)
      .sort((a, b) => a.activitySetAt - b.activitySetAt)
      .map((s) => s.activity!.presence);
    // Closed sockets are already out of the set; keep the list to the 5 the Gateway accepts.
    this.deps.gateway.setPresence({ activities: activities.slice(0, 5) });
  }

  /** The app behind a client id (GET /oauth2/applications/{id}/rpc), or null when the platform does not know it. */
  application(id: string): Promise<AppInfo | null> {
    let p = this.apps.get(id);
    if (!p) {
      p = this.api.request(`/oauth2/applications/${id}/rpc`, { auth: null }).then(
        (a: any) => ({ id: String(a.id), name: a.name, icon: a.icon ?? null, description: a.description ?? '', rpc_origins: a.rpc_origins ?? [] }),
        () => null,
      );
      this.apps.set(id, p);
      // Known apps are remembered a minute (their name and origins may change); failures are not remembered.
      p.then((app) => setTimeout(() => this.apps.delete(id), app ? 60_000 : 0).unref());
    }
    return p;
  }

  /** Events from the Gateway session turned into the dispatches apps subscribed to. */
  private onDispatch(t: string, d: any): void {
    const changes = this.state.apply(t, d);
    for (const c of changes) this.onStateChange(c);
    if (t === 'MESSAGE_CREATE' && d?.activity) this.invites.onMessage(d);
    if (t === 'MESSAGE_CREATE' || t === 'MESSAGE_UPDATE' || t === 'MESSAGE_DELETE') {
      const channelId = String(d.channel_id);
      const message = t === 'MESSAGE_DELETE' ? { id: String(d.id) } : rpcMessage(d);
      for (const s of this.sockets) if (s.subscribed(t, channelId)) s.dispatch(t, { channel_id: channelId, message });
    }
  }

  private onStateChange(c: StateChange): void {
    for (const s of this.sockets) {
      if (c.t === 'guild-joined' && s.subscribed('GUILD_CREATE')) s.dispatch('GUILD_CREATE', { id: c.guild.id, name: c.guild.name });
      if (c.t === 'guild-updated' && s.subscribed('GUILD_STATUS', c.guild.id)) {
        s.dispatch('GUILD_STATUS', { guild: { id: c.guild.id, name: c.guild.name, icon_url: guildIconUrl(this.cdnBase, c.guild) }, online: 0 });
      }
      if (c.t === 'channel-created' && s.subscribed('CHANNEL_CREATE'))
        s.dispatch('CHANNEL_CREATE', { id: c.channel.id, name: c.channel.name, type: c.channel.type });
      if (c.t === 'voice') this.voiceChange(s, c.before, c.after);
    }
  }

  private voiceChange(s: RpcSocket, before: VoiceState | null, after: VoiceState | null): void {
    const from = before?.channel_id ?? null;
    const to = after?.channel_id ?? null;
    if (from && from !== to && s.subscribed('VOICE_STATE_DELETE', from)) s.dispatch('VOICE_STATE_DELETE', rpcVoiceState(before!));
    if (to && from !== to && s.subscribed('VOICE_STATE_CREATE', to)) s.dispatch('VOICE_STATE_CREATE', rpcVoiceState(after!));
    if (to && from === to && s.subscribed('VOICE_STATE_UPDATE', to)) s.dispatch('VOICE_STATE_UPDATE', rpcVoiceState(after!));
    const me = String(this.user.id);
    if ((after?.user_id ?? before?.user_id) === me && from !== to && s.subscribed('VOICE_CHANNEL_SELECT')) {
      s.dispatch('VOICE_CHANNEL_SELECT', { channel_id: to, guild_id: to ? after!.guild_id : null });
    }
  }

  /** Local events the person triggers in the client (Ask to Join, joining a game): sent to the app's subscribers. */
  activityEvent(applicationId: string, evt: 'ACTIVITY_JOIN' | 'ACTIVITY_SPECTATE' | 'ACTIVITY_JOIN_REQUEST' | 'ACTIVITY_INVITE', data: any): number {
    if (evt === 'ACTIVITY_JOIN_REQUEST' && data?.user?.id) this.joinRequests.set(`${applicationId}:${data.user.id}`, data.user);
    let n = 0;
    for (const s of this.sockets) {
      if (s.app.id === applicationId && s.subscribed(evt)) {
        s.dispatch(evt, data);
        n++;
      }
    }
    return n;
  }

  close(): void {
    for (const s of [...this.sockets]) {
      s.transport.close(RpcCloseCode.NORMAL, 'Local client shutting down');
      this.closed(s);
    }
  }
}

function toRpcError(err: unknown): RpcError {
  if (err instanceof RpcError) return err;
  if (err instanceof ApiError && err.status >= 500) return new RpcError(RpcErrorCode.SERVICE_UNAVAILABLE, 'Service unavailable');
  if (err instanceof ApiError) return new RpcError(RpcErrorCode.UNKNOWN_ERROR, err.body?.message ?? 'Unknown error');
  if (err instanceof TypeError && /fetch/i.test(err.message)) return new RpcError(RpcErrorCode.SERVICE_UNAVAILABLE, 'Service unavailable');
  return new RpcError(RpcErrorCode.UNKNOWN_ERROR, 'Unknown error');
}

import { AuthorizationArgs, AuthorizationCodeVerifier } from './authorization-args.js';
import { activityToWire, type Activity } from './activity.js';
import { Cache, type MessageRecord, type WireUser } from './cache.js';
import {
  ActivityActionTypes,
  AuthorizationTokenType,
  ClientError,
  ErrorType,
  EXTERNAL_AUTH_WIRE,
  LoggingSeverity,
  RelationshipGroupType,
  RelationshipType,
  Status,
  StatusType,
  errorToString,
  statusToString,
  type ExternalAuthType,
} from './enums.js';
import { Emitter } from './events.js';
import { GatewaySession } from './gateway.js';
import {
  LobbyHandle,
  MessageHandle,
  RelationshipHandle,
  UserHandle,
  toProfile,
  type ActivityInvite,
  type ChannelHandle,
  type GuildChannel,
  type UserApplicationProfile,
} from './handles.js';
import { Http, normalizeApiBase } from './http.js';
import { createCodeVerifier, randomToken } from './pkce.js';
import { ClientResult, invalid, notReady } from './result.js';
import { snowflake, snowflakeTime, type Snowflake, type SnowflakeInput } from './snowflake.js';
import { VERSION, VERSION_HASH, VERSION_MAJOR, VERSION_MINOR, VERSION_PATCH } from './version.js';
import type { CallLike, UserAudioCapturedCallback, UserAudioReceivedCallback, VoiceEngine } from './voice/types.js';

export interface ClientCreateOptions {
  /** The API root, e.g. `http://127.0.0.1:8080/api` (a bare origin gets `/api`). */
  apiBase?: string;
  /** The web client's origin (the consent screen lives at `${webBase}/oauth2/authorize`). */
  webBase?: string;
  /** `auto` (default): events and results arrive on the event loop; `manual`: only inside `runCallbacks()`. */
  dispatch?: 'auto' | 'manual';
  /** How Authorize shows the consent screen; Node's default opens the system browser, browsers' `window.open`. */
  openUrl?: (url: string) => void | Promise<void>;
  /** A self-hosted voice gateway's CA (PEM), trusted for calls. */
  voiceCa?: string | Buffer;
}

export interface TokenResult {
  accessToken: string;
  refreshToken: string;
  tokenType: AuthorizationTokenType;
  expiresIn: number;
  scopes: string;
}

export interface ClientEvents {
  statusChanged: { status: Status; error: ClientError; errorDetail: number };
  log: { message: string; severity: LoggingSeverity };
  userUpdated: { userId: Snowflake };
  relationshipCreated: { userId: Snowflake; isDiscordRelationshipUpdate: boolean };
  relationshipDeleted: { userId: Snowflake; isDiscordRelationshipUpdate: boolean };
  relationshipGroupsUpdated: { userId: Snowflake };
  messageCreated: { messageId: Snowflake };
  messageUpdated: { messageId: Snowflake };
  messageDeleted: { messageId: Snowflake; channelId: Snowflake };
  lobbyCreated: { lobbyId: Snowflake };
  lobbyUpdated: { lobbyId: Snowflake };
  lobbyDeleted: { lobbyId: Snowflake };
  lobbyMemberAdded: { lobbyId: Snowflake; memberId: Snowflake };
  lobbyMemberUpdated: { lobbyId: Snowflake; memberId: Snowflake };
  lobbyMemberRemoved: { lobbyId: Snowflake; memberId: Snowflake };
  voiceParticipantChanged: { lobbyId: Snowflake; memberId: Snowflake; added: boolean };
  activityInviteCreated: ActivityInvite;
  activityInviteUpdated: ActivityInvite;
  activityJoin: { applicationId: Snowflake; joinSecret: string };
  tokenExpiring: Record<string, never>;
  authorizeRequest: Record<string, never>;
  userMerged: { mergeOperationId: Snowflake; sourceUserId: Snowflake; destinationUserId: Snowflake };
}

const DM = 1;

/**
 * The Social SDK client (the spec's `Client`): account linking and provisional accounts, the Gateway session with its
 * statuses and auto-reconnect, users and relationships, rich presence and activity invites, game DMs, lobbies with
 * their messages and linked channels, and lobby calls (Node). Results are promises that reject with ClientResult;
 * events are typed (`client.on('messageCreated', …)`), with the C++ `set…Callback` names kept as shims.
 */
export class Client {
  private static engine: VoiceEngine | null = null;
  /** Registers the voice engine (the Node entry does; browsers have none). */
  static useVoiceEngine(engine: VoiceEngine | null): void {
    Client.engine = engine;
  }

  static readonly version = VERSION;
  static getVersionMajor(): number {
    return VERSION_MAJOR;
  }
  static getVersionMinor(): number {
    return VERSION_MINOR;
  }
  static getVersionPatch(): number {
    return VERSION_PATCH;
  }
  static getVersionHash(): string {
    return VERSION_HASH;
  }
  static getDefaultCommunicationScopes(): string {
    return 'openid sdk.social_layer';
  }
  static getDefaultPresenceScopes(): string {
    return 'openid sdk.social_layer_presence';
  }
  static statusToString = statusToString;
  static errorToString = errorToString;

  readonly apiRoot: string;
  readonly webBase: string;
  private readonly http: Http;
  private readonly cache = new Cache();
  private readonly events: Emitter<ClientEvents>;
  private readonly gateway: GatewaySession;
  private readonly opts: ClientCreateOptions;
  private applicationId: Snowflake | null = null;
  private status: Status = Status.Disconnected;
  private token: { type: AuthorizationTokenType; value: string } | null = null;
  private tokenTimer: ReturnType<typeof setTimeout> | null = null;
  private presence: { status: string; activity: Activity | null; wire: Record<string, unknown> | null } = { status: 'online', activity: null, wire: null };
  private readonly calls = new Map<Snowflake, CallLike>();
  private authorizeAbort: AbortController | null = null;
  private readonly acceptedInvites = new Set<Snowflake>();
  private connectWaiters: { resolve: () => void; reject: (e: ClientResult) => void }[] = [];
  private authorizeRequestSubscribed = false;
  /** Diagnostics: HTTP requests made (the local caches avoid some). */
  readonly stats = { httpRequests: 0 };
  readonly settings = { aecDump: false, aecDumpDir: null as string | null, engineManagedAudioSession: false };

  constructor(apiBase?: string | ClientCreateOptions, webBase?: string) {
    this.opts = typeof apiBase === 'object' ? apiBase : { apiBase, webBase };
    this.apiRoot = normalizeApiBase(this.opts.apiBase ?? 'https://discord.com/api');
    this.webBase = (this.opts.webBase ?? this.apiRoot.replace(/\/api$/, '')).replace(/\/+$/, '');
    this.http = new Http(this.apiRoot);
    this.events = new Emitter<ClientEvents>(this.opts.dispatch ?? 'auto');
    this.gateway = new GatewaySession(
      async () => (await this.api<{ url: string }>('/gateway', { auth: null })).url,
      () => `Bearer ${this.token?.value ?? ''}`,
      {
        status: (s, e, d) => this.setStatus(s, e, d),
        ready: (kind, d) => this.onReady(kind, d),
        dispatch: (t, d) => this.onDispatch(t, d),
      },
    );
  }

  // ------------------------------------------------------------------------------------------------ events, core

  on<K extends keyof ClientEvents>(event: K, fn: (arg: ClientEvents[K]) => void): () => void {
    return this.events.on(event, fn);
  }

  off<K extends keyof ClientEvents>(event: K, fn: (arg: ClientEvents[K]) => void): void {
    this.events.off(event, fn);
  }

  /** Delivers queued events and results (`dispatch: 'manual'`): call it once per frame. Returns how many ran. */
  runCallbacks(): number {
    return this.events.runCallbacks();
  }

  setApplicationId(id: SnowflakeInput): void {
    this.applicationId = snowflake(id);
  }
  getApplicationId(): Snowflake | null {
    return this.applicationId;
  }
  getStatus(): Status {
    return this.status;
  }
  setStatusChangedCallback(cb: ((status: Status, error: ClientError, errorDetail: number) => void) | null): void {
    this.events.setSlot('statusChanged', cb && ((e) => cb(e.status, e.error, e.errorDetail)));
  }
  addLogCallback(cb: (message: string, severity: LoggingSeverity) => void, minSeverity: LoggingSeverity = LoggingSeverity.Info): void {
    this.events.on('log', (e) => {
      if (e.severity >= minSeverity) cb(e.message, e.severity);
    });
  }

  /** Request timeout of the SDK's HTTP calls (default 30,000 ms). */
  setHttpRequestTimeout(ms: number): void {
    if (!Number.isInteger(ms) || ms <= 0) throw invalid('the HTTP request timeout is a positive number of milliseconds');
    this.http.timeoutMs = ms;
  }
  getHttpRequestTimeout(): number {
    return this.http.timeoutMs;
  }
  /** The game manages the audio session and routing itself: calls leave them alone (in Node there is no session to manage). */
  setEngineManagedAudioSession(managed: boolean): void {
    this.settings.engineManagedAudioSession = managed;
  }
  getEngineManagedAudioSession(): boolean {
    return this.settings.engineManagedAudioSession;
  }
  /** Records audio diagnostics: each call writes its captured and received PCM to files in the voice log directory. */
  setAecDump(on: boolean): void {
    this.settings.aecDump = on;
  }
  getAecDump(): boolean {
    return this.settings.aecDump;
  }
  setVoiceLogDir(path: string): void {
    this.settings.aecDumpDir = path;
  }

  private log(message: string, severity: LoggingSeverity = LoggingSeverity.Info): void {
    if (this.events.has('log')) this.events.emit('log', { message, severity });
  }

  private api<T = any>(path: string, opts: Parameters<Http['request']>[1] = {}): Promise<T> {
    this.stats.httpRequests++;
    return this.http.request<T>(path, opts);
  }

  /** Runs an operation, its result delivered like every callback (manual mode: inside runCallbacks). */
  private op<T>(fn: () => Promise<T>): Promise<T> {
    return this.events.settle(Promise.resolve().then(fn));
  }

  private appId(given?: SnowflakeInput): Snowflake {
    const id = given !== undefined ? snowflake(given) : this.applicationId;
    if (!id) throw invalid('no application id: call setApplicationId or pass one');
    return id;
  }

  private setStatus(status: Status, error: ClientError = ClientError.None, detail = 0): void {
    if (status === this.status && error === ClientError.None) return;
    this.status = status;
    this.log(`status ${statusToString(status)}${error ? ` (${errorToString(error)} ${detail})` : ''}`, LoggingSeverity.Verbose);
    this.events.emit('statusChanged', { status, error, errorDetail: detail });
    if (status === Status.Ready) for (const w of this.connectWaiters.splice(0)) w.resolve();
    if (status === Status.Disconnected && error !== ClientError.None) {
      const e = new ClientResult(ErrorType.NetworkError, `Gateway connection failed (close code ${detail})`, { code: detail });
      for (const w of this.connectWaiters.splice(0)) w.reject(e);
    }
  }

  // ------------------------------------------------------------------------------------------------ authentication

  /** PKCE: a verifier for GetToken and its challenge for AuthorizationArgs. */
  createAuthorizationCodeVerifier(): Promise<AuthorizationCodeVerifier> {
    return this.op(() => createCodeVerifier());
  }

  /**
   * Shows the consent screen and waits for the answer: in Node through a loopback redirect on 127.0.0.1 (any port,
   * RFC 8252); in browsers the page at `redirectUri` hands the answer to `completeAuthorize(url)`. Resolves with the
   * code and the redirect URI GetToken must repeat. AbortAuthorize (or `signal`) cancels it (Aborted).
   */
  authorize(args: AuthorizationArgs, opts: { signal?: AbortSignal; redirectUri?: string } = {}): Promise<{ code: string; redirectUri: string }> {
    return this.op(async () => {
      if (!args.isValid()) throw invalid('AuthorizationArgs is the null object');
      if (!args.scopes.trim()) throw invalid('AuthorizationArgs needs Scopes (e.g. Client.getDefaultCommunicationScopes())');
      const clientId = args.clientId ?? this.appId();
      const state = args.state ?? randomToken(24);
      this.authorizeAbort?.abort();
      const abort = (this.authorizeAbort = new AbortController());
      const signal = opts.signal ? AbortSignal.any([opts.signal, abort.signal]) : abort.signal;
      const isNode = typeof process !== 'undefined' && !!process.versions?.node && typeof window === 'undefined';
      const loop = isNode && !opts.redirectUri ? await (await import('./loopback.js')).startLoopback() : null;
      const redirectUri = loop?.redirectUri ?? opts.redirectUri ?? `${globalThis.location?.origin ?? this.webBase}/authorize/callback`;
      const q = new URLSearchParams({ client_id: clientId, response_type: 'code', scope: args.scopes, state, redirect_uri: redirectUri });
      if (args.nonce) q.set('nonce', args.nonce);
      if (args.codeChallenge) {
        q.set('code_challenge', args.codeChallenge.challenge);
        q.set('code_challenge_method', 'S256');
      }
      if (args.integrationType !== undefined) q.set('integration_type', String(args.integrationType));
      const url = `${this.webBase}/oauth2/authorize?${q}`;
      try {
        const answer = loop
          ? loop.answer
          : new Promise<{ code: string; state: string | null }>((resolve, reject) => {
              this.browserAnswer = { resolve, reject };
            });
        const aborted = new Promise<never>((_, reject) =>
          signal.addEventListener('abort', () => reject(new ClientResult(ErrorType.Aborted, 'Authorize was aborted')), { once: true }),
        );
        const open =
          this.opts.openUrl ?? (isNode ? (u: string) => import('./loopback.js').then((m) => m.openInBrowser(u)) : (u: string) => void globalThis.open?.(u));
        await Promise.race([Promise.resolve(open(url)), aborted]);
        const got = await Promise.race([answer, aborted]).catch((err) => {
          throw err instanceof ClientResult ? err : new ClientResult(ErrorType.AuthorizationFailed, `Authorization failed: ${(err as Error).message}`);
        });
        if (got.state !== state) throw new ClientResult(ErrorType.AuthorizationFailed, 'The authorization answer carries another state');
        return { code: got.code, redirectUri };
      } finally {
        loop?.close();
        if (this.authorizeAbort === abort) this.authorizeAbort = null;
      }
    });
  }

  private browserAnswer: { resolve: (a: { code: string; state: string | null }) => void; reject: (e: Error) => void } | null = null;

  /** Browsers: the redirect page passes its URL here to finish Authorize. */
  completeAuthorize(url: string): void {
    const u = new URL(url);
    const code = u.searchParams.get('code');
    if (code) this.browserAnswer?.resolve({ code, state: u.searchParams.get('state') });
    else this.browserAnswer?.reject(new Error(u.searchParams.get('error') ?? 'no code'));
    this.browserAnswer = null;
  }

  abortAuthorize(): void {
    this.authorizeAbort?.abort();
  }

  private async tokenRequest(form: Record<string, string>): Promise<TokenResult> {
    const r = await this.api('/oauth2/token', { method: 'POST', body: new URLSearchParams(form), auth: null });
    return tokenResult(r);
  }

  /** Exchanges an authorization code (PKCE) for tokens: public clients, no secret. */
  getToken(applicationId: SnowflakeInput, code: string, codeVerifier: string, redirectUri: string): Promise<TokenResult> {
    return this.op(() =>
      this.tokenRequest({
        grant_type: 'authorization_code',
        client_id: this.appId(applicationId),
        code,
        code_verifier: codeVerifier,
        redirect_uri: redirectUri,
      }),
    );
  }

  /** The refresh grant (deprecated for provisional accounts: re-authenticate and UpdateToken instead). */
  refreshToken(applicationId: SnowflakeInput, refreshToken: string): Promise<TokenResult> {
    return this.op(() => this.tokenRequest({ grant_type: 'refresh_token', client_id: this.appId(applicationId), refresh_token: refreshToken }));
  }

  /** Revokes the app's tokens for the user (for an account linked to the game this is an unmerge). */
  revokeToken(applicationId: SnowflakeInput, token: string): Promise<void> {
    return this.op(async () => {
      await this.api('/oauth2/token/revoke', { method: 'POST', body: new URLSearchParams({ client_id: this.appId(applicationId), token }), auth: null });
    });
  }

  /** A provisional account's token from the game's external auth (no refresh token). */
  getProvisionalToken(applicationId: SnowflakeInput, externalAuthType: ExternalAuthType, externalAuthToken: string): Promise<TokenResult> {
    return this.op(async () =>
      tokenResult(
        await this.api('/partner-sdk/token', {
          method: 'POST',
          auth: null,
          body: { client_id: this.appId(applicationId), external_auth_type: EXTERNAL_AUTH_WIRE[externalAuthType], external_auth_token: externalAuthToken },
        }),
      ),
    );
  }

  /** GetToken that also merges the provisional account of the external identity into the authorizing account. */
  getTokenFromProvisionalMerge(
    applicationId: SnowflakeInput,
    code: string,
    codeVerifier: string,
    redirectUri: string,
    externalAuthType: ExternalAuthType,
    externalAuthToken: string,
  ): Promise<TokenResult> {
    return this.op(() =>
      this.tokenRequest({
        grant_type: 'authorization_code',
        client_id: this.appId(applicationId),
        code,
        code_verifier: codeVerifier,
        redirect_uri: redirectUri,
        external_auth_type: EXTERNAL_AUTH_WIRE[externalAuthType],
        external_auth_token: externalAuthToken,
      }),
    );
  }

  /** Unlinks the platform account from the external identity: the player gets a new provisional account. */
  unmergeIntoProvisionalAccount(applicationId: SnowflakeInput, externalAuthType: ExternalAuthType, externalAuthToken: string): Promise<void> {
    return this.op(async () => {
      await this.api('/partner-sdk/provisional-accounts/unmerge', {
        method: 'POST',
        auth: null,
        body: { client_id: this.appId(applicationId), external_auth_type: EXTERNAL_AUTH_WIRE[externalAuthType], external_auth_token: externalAuthToken },
      });
    });
  }

  /** Publisher-level linking: the parent (publisher) app's access token for a token of one of its games. */
  exchangeChildToken(parentApplicationToken: string, childApplicationId: SnowflakeInput): Promise<TokenResult> {
    return this.op(async () =>
      tokenResult(
        await this.api('/partner-sdk/child-token', {
          method: 'POST',
          auth: null,
          body: { parent_access_token: parentApplicationToken, child_application_id: snowflake(childApplicationId) },
        }),
      ),
    );
  }

  /**
   * Supplies the token the client acts with (also after re-authenticating a provisional account). While connected,
   * the Gateway session starts again with it. `tokenExpiring` fires once for this token, a minute before it expires.
   */
  updateToken(tokenType: AuthorizationTokenType, token: string): Promise<void> {
    return this.op(async () => {
      if (tokenType !== AuthorizationTokenType.Bearer) throw invalid('Accord clients use Bearer tokens');
      if (!token) throw invalid('empty token');
      this.token = { type: tokenType, value: token };
      this.http.token = `Bearer ${token}`;
      if (this.tokenTimer) clearTimeout(this.tokenTimer);
      const me = await this.api('/oauth2/@me').catch(() => null);
      const expires = me?.expires ? Date.parse(me.expires) : NaN;
      if (Number.isFinite(expires)) {
        this.tokenTimer = setTimeout(() => this.events.emit('tokenExpiring', {}), Math.max(0, expires - Date.now() - 60_000));
        (this.tokenTimer as { unref?: () => void }).unref?.();
      }
      if (this.status !== Status.Disconnected) {
        this.gateway.stop();
        await this.gateway.start();
      }
    });
  }
  setTokenExpirationCallback(cb: (() => void) | null): void {
    this.events.setSlot('tokenExpiring', cb && (() => cb()));
  }

  /** AUTHORIZE_REQUEST: the platform's client asks the game to start Authorize. Kept across reconnects. */
  registerAuthorizeRequestCallback(cb: () => void): void {
    this.authorizeRequestSubscribed = true;
    this.events.setSlot('authorizeRequest', () => cb());
  }
  removeAuthorizeRequestCallback(): void {
    this.authorizeRequestSubscribed = false;
    this.events.setSlot('authorizeRequest', null);
  }

  // ------------------------------------------------------------------------------------------------ connection

  /** Connects the Gateway (HttpWait, Connecting, Connected, then Ready); resolves when Ready. */
  connect(): Promise<void> {
    return this.op(() => {
      if (!this.token) return Promise.reject(new ClientResult(ErrorType.AuthorizationFailed, 'no token: call updateToken first'));
      if (this.status === Status.Ready) return Promise.resolve();
      const ready = new Promise<void>((resolve, reject) => this.connectWaiters.push({ resolve, reject }));
      if (this.status === Status.Disconnected) {
        this.setStatus(Status.HttpWait);
        void this.gateway.start();
      }
      return ready;
    });
  }

  /** Ends calls and the Gateway session. */
  disconnect(): Promise<void> {
    return this.op(async () => {
      this.setStatus(Status.Disconnecting);
      await Promise.all([...this.calls.values()].map((c) => c.end()));
      this.calls.clear();
      this.gateway.stop();
      this.setStatus(Status.Disconnected);
    });
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.disconnect();
  }

  private onReady(kind: 'READY' | 'RESUMED', d: any): void {
    if (kind === 'READY') {
      this.cache.me = d.user;
      this.cache.putUser(d.user);
      this.cache.relationships.clear();
      for (const r of d.relationships ?? []) {
        this.cache.putUser(r.user);
        Object.assign(this.cache.relationship(r.id), { discordType: r.type, nickname: r.nickname ?? null, since: r.since ?? null });
      }
      for (const r of d.game_relationships ?? []) {
        this.cache.putUser(r.user);
        this.cache.relationship(r.id).gameType = r.type;
      }
      for (const p of d.presences ?? []) this.cache.presences.set(p.user.id, { status: p.status, activities: p.activities ?? [] });
      this.cache.lobbies.clear();
      for (const l of d.lobbies ?? []) this.cache.lobbies.set(l.id, l);
      for (const c of d.private_channels ?? []) {
        const other = (c.recipients ?? []).find((u: WireUser) => u.id !== d.user.id);
        if (c.type === DM && other) {
          this.cache.dmChannels.set(c.id, other.id);
          this.cache.putUser(other);
        }
      }
      if (this.presence.wire || this.presence.status !== 'online') this.gateway.setPresence(this.presencePayload());
      for (const call of this.calls.values()) call.onGatewayRestarted();
    }
    this.setStatus(Status.Ready);
  }

  // ------------------------------------------------------------------------------------------------ users

  private userView = (id: Snowflake) => new UserHandle(this.cache, this.webBase, this.apiRoot.replace(/\/api$/, ''), id);

  /** The current user once Ready; undefined before (no dummy data). */
  getCurrentUserV2(): UserHandle | undefined {
    if (this.status !== Status.Ready || !this.cache.me) return undefined;
    return this.userView(this.cache.me.id);
  }

  /** A user the client knows (friends, lobby members, DM partners); undefined otherwise. */
  getUser(userId: SnowflakeInput): UserHandle | undefined {
    const id = snowflake(userId);
    return this.cache.users.has(id) ? this.userView(id) : undefined;
  }

  setUserUpdatedCallback(cb: ((userId: Snowflake) => void) | null): void {
    this.events.setSlot('userUpdated', cb && ((e) => cb(e.userId)));
  }

  /** The current user's application profiles (the external identities the game knows them by). */
  getUserApplicationProfiles(): Promise<UserApplicationProfile[]> {
    return this.op(async () => {
      const me = this.requireReady('getUserApplicationProfiles');
      const profiles = await this.api<any[]>('/users/@me/application-profiles');
      this.cache.profiles.set(me, profiles);
      return profiles.map(toProfile);
    });
  }

  /** The profiles already known, without waiting (the NoLock variant): empty before getUserApplicationProfiles. */
  getUserApplicationProfilesNoLock(): UserApplicationProfile[] {
    return this.cache.me ? (this.cache.profiles.get(this.cache.me.id) ?? []).map(toProfile) : [];
  }

  private requireReady(what: string): Snowflake {
    if (this.status !== Status.Ready || !this.cache.me) throw notReady(what);
    return this.cache.me.id;
  }

  // ------------------------------------------------------------------------------------------------ relationships

  getRelationships(): RelationshipHandle[] {
    return [...this.cache.relationships.keys()].map((id) => this.getRelationshipHandle(id));
  }

  getRelationshipHandle(userId: SnowflakeInput): RelationshipHandle {
    const id = snowflake(userId);
    return new RelationshipHandle(this.cache, this.userView(id), id);
  }

  /** Friends by group: playing this game, online elsewhere, offline. */
  getRelationshipsByGroup(group: RelationshipGroupType): RelationshipHandle[] {
    return this.getRelationships().filter((r) => {
      if (r.discordRelationshipType() !== RelationshipType.Friend && r.gameRelationshipType() !== RelationshipType.Friend) return false;
      const user = r.user();
      const online = ![StatusType.Offline, StatusType.Invisible].includes(user.status() as 1 | 5);
      const playing = online && user.gameActivity()?.applicationId === this.applicationId;
      return group === RelationshipGroupType.OnlinePlayingGame ? playing : group === RelationshipGroupType.OnlineElsewhere ? online && !playing : !online;
    });
  }

  /** Local fuzzy search among known users (friends, lobby members). */
  searchFriendsByUsername(search: string): UserHandle[] {
    const s = search.toLowerCase();
    return this.getRelationships()
      .map((r) => r.user())
      .filter((u) => u.username().toLowerCase().includes(s) || u.displayName().toLowerCase().includes(s));
  }

  sendDiscordFriendRequest(username: string): Promise<void> {
    return this.op(() => this.api('/users/@me/relationships', { method: 'POST', body: { username } }));
  }
  sendDiscordFriendRequestById(userId: SnowflakeInput): Promise<void> {
    return this.op(() => this.api(`/users/@me/relationships/${snowflake(userId)}`, { method: 'PUT', body: {} }));
  }
  acceptDiscordFriendRequest(userId: SnowflakeInput): Promise<void> {
    return this.sendDiscordFriendRequestById(userId);
  }
  rejectDiscordFriendRequest(userId: SnowflakeInput): Promise<void> {
    return this.op(() => this.api(`/users/@me/relationships/${snowflake(userId)}`, { method: 'DELETE' }));
  }
  cancelDiscordFriendRequest(userId: SnowflakeInput): Promise<void> {
    return this.rejectDiscordFriendRequest(userId);
  }
  sendGameFriendRequest(username: string): Promise<void> {
    return this.op(() => this.api('/users/@me/game-relationships', { method: 'POST', body: { username } }));
  }
  sendGameFriendRequestById(userId: SnowflakeInput): Promise<void> {
    return this.op(() => this.api(`/users/@me/game-relationships/${snowflake(userId)}`, { method: 'PUT' }));
  }
  acceptGameFriendRequest(userId: SnowflakeInput): Promise<void> {
    return this.sendGameFriendRequestById(userId);
  }
  rejectGameFriendRequest(userId: SnowflakeInput): Promise<void> {
    return this.op(() => this.api(`/users/@me/game-relationships/${snowflake(userId)}`, { method: 'DELETE' }));
  }
  cancelGameFriendRequest(userId: SnowflakeInput): Promise<void> {
    return this.rejectGameFriendRequest(userId);
  }
  removeGameFriend(userId: SnowflakeInput): Promise<void> {
    return this.rejectGameFriendRequest(userId);
  }
  removeDiscordAndGameFriend(userId: SnowflakeInput): Promise<void> {
    return this.op(async () => {
      const id = snowflake(userId);
      const r = this.cache.relationships.get(id);
      if (r?.discordType) await this.api(`/users/@me/relationships/${id}`, { method: 'DELETE' });
      if (r?.gameType) await this.api(`/users/@me/game-relationships/${id}`, { method: 'DELETE' });
    });
  }
  blockUser(userId: SnowflakeInput): Promise<void> {
    return this.op(() => this.api(`/users/@me/relationships/${snowflake(userId)}`, { method: 'PUT', body: { type: RelationshipType.Blocked } }));
  }
  unblockUser(userId: SnowflakeInput): Promise<void> {
    return this.rejectDiscordFriendRequest(userId);
  }
  setRelationshipCreatedCallback(cb: ((userId: Snowflake, isDiscordRelationshipUpdate: boolean) => void) | null): void {
    this.events.setSlot('relationshipCreated', cb && ((e) => cb(e.userId, e.isDiscordRelationshipUpdate)));
  }
  setRelationshipDeletedCallback(cb: ((userId: Snowflake, isDiscordRelationshipUpdate: boolean) => void) | null): void {
    this.events.setSlot('relationshipDeleted', cb && ((e) => cb(e.userId, e.isDiscordRelationshipUpdate)));
  }

  // ------------------------------------------------------------------------------------------------ presence

  private presencePayload() {
    return { since: null, afk: false, status: this.presence.status, activities: this.presence.wire ? [this.presence.wire] : [] };
  }

  /** Sets the game's rich presence (validated here; name and application are the game's). */
  updateRichPresence(activity: Activity): Promise<void> {
    return this.op(async () => {
      const wire = activityToWire(activity, activity.name ?? 'Game');
      this.presence = { ...this.presence, activity, wire };
      this.gateway.setPresence(this.presencePayload());
    });
  }

  clearRichPresence(): void {
    this.presence = { ...this.presence, activity: null, wire: null };
    this.gateway.setPresence(this.presencePayload());
  }

  setOnlineStatus(status: StatusType): Promise<void> {
    return this.op(async () => {
      const map: Partial<Record<StatusType, string>> = {
        [StatusType.Online]: 'online',
        [StatusType.Idle]: 'idle',
        [StatusType.Dnd]: 'dnd',
        [StatusType.Invisible]: 'invisible',
      };
      const s = map[status];
      if (!s) throw invalid('online status is Online, Idle, Dnd or Invisible');
      this.presence.status = s;
      this.gateway.setPresence(this.presencePayload());
    });
  }

  /** Invites a user to the game in the current rich presence: it needs a party, a join secret and supported platforms. */
  sendActivityInvite(userId: SnowflakeInput, content = ''): Promise<void> {
    return this.op(async () => {
      const a = this.presence.activity;
      if (!a?.party?.id || !a.secrets?.join || !a.supportedPlatforms)
        throw invalid('an invite needs rich presence with a party, a join secret and supported platforms');
      await this.api('/users/@me/activity-invites', {
        method: 'POST',
        body: { recipient_id: snowflake(userId), content, type: ActivityActionTypes.Join, party_id: a.party.id, join_secret: a.secrets.join },
      });
    });
  }

  /** Asks to join a user's game (their rich presence must have a party). */
  sendActivityJoinRequest(userId: SnowflakeInput): Promise<void> {
    return this.op(async () => {
      const id = snowflake(userId);
      const party = this.cache.presences.get(id)?.activities?.find((x) => x.party?.id)?.party?.id;
      if (!party) throw invalid("the user's rich presence has no party to join");
      await this.api('/users/@me/activity-invites', { method: 'POST', body: { recipient_id: id, type: ActivityActionTypes.JoinRequest, party_id: party } });
    });
  }

  /** Answers a join request with an invite. */
  sendActivityJoinRequestReply(invite: ActivityInvite): Promise<void> {
    return this.sendActivityInvite(invite.senderId, '');
  }

  /** Accepts an invite: resolves with the join secret (and `activityJoin` fires with it). */
  acceptActivityInvite(invite: ActivityInvite): Promise<string> {
    return this.op(async () => {
      this.acceptedInvites.add(invite.messageId);
      const r = await this.api(`/users/@me/activity-invites/${invite.messageId}/accept`, { method: 'POST' });
      this.events.emit('activityJoin', { applicationId: invite.applicationId, joinSecret: r.join_secret });
      return r.join_secret as string;
    });
  }
  setActivityInviteCreatedCallback(cb: ((invite: ActivityInvite) => void) | null): void {
    this.events.setSlot('activityInviteCreated', cb);
  }
  setActivityInviteUpdatedCallback(cb: ((invite: ActivityInvite) => void) | null): void {
    this.events.setSlot('activityInviteUpdated', cb);
  }
  setActivityJoinCallback(cb: ((joinSecret: string) => void) | null): void {
    this.events.setSlot('activityJoin', cb && ((e) => cb(e.joinSecret)));
  }

  // ------------------------------------------------------------------------------------------------ messages

  private toMessage(m: any, lobbyId: Snowflake | null = null): MessageRecord {
    this.cache.putUser(m.author);
    const me = this.cache.me?.id;
    let recipientId: Snowflake | null = null;
    if (!lobbyId && !m.guild_id) {
      recipientId = this.cache.dmChannels.get(m.channel_id) ?? (m.channel?.recipients ?? []).find((u: string) => u !== m.author?.id) ?? null;
      if (!recipientId && m.author?.id && m.author.id !== me) recipientId = me ?? null;
      if (recipientId && m.author?.id === recipientId && me) recipientId = me;
      const other = m.author?.id === me ? recipientId : m.author?.id;
      if (other && other !== me) this.cache.dmChannels.set(m.channel_id, other);
    }
    return {
      id: m.id,
      channelId: m.channel_id,
      lobbyId: lobbyId ?? m.lobby_id ?? null,
      authorId: m.author?.id,
      recipientId,
      content: m.content ?? '',
      metadata: m.metadata ?? {},
      applicationId: m.application_id ?? null,
      additionalName: m.lobby_member?.additional_name ?? null,
      editedTimestamp: m.edited_timestamp ? Date.parse(m.edited_timestamp) : 0,
      sentTimestamp: m.timestamp ? Date.parse(m.timestamp) : snowflakeTime(m.id),
      raw: m,
    };
  }

  private messageView = (id: Snowflake) => new MessageHandle(this.cache, id, this.userView);

  /** A DM to a user from the game (≤ 2000 characters, optional metadata); resolves with the message id. */
  sendUserMessage(recipientId: SnowflakeInput, content: string, metadata?: Record<string, string>): Promise<Snowflake> {
    return this.op(async () => {
      if (!content || content.length > 2000) throw invalid('a message has 1 to 2000 characters');
      const m = await this.api(`/users/@me/dms/${snowflake(recipientId)}/messages`, { method: 'POST', body: { content, ...(metadata ? { metadata } : {}) } });
      this.cache.putMessage(this.toMessage(m));
      return m.id as Snowflake;
    });
  }

  editUserMessage(recipientId: SnowflakeInput, messageId: SnowflakeInput, content: string): Promise<void> {
    return this.op(async () => {
      const m = await this.api(`/users/@me/dms/${snowflake(recipientId)}/messages/${snowflake(messageId)}`, { method: 'PATCH', body: { content } });
      this.cache.putMessage(this.toMessage(m));
    });
  }

  deleteUserMessage(recipientId: SnowflakeInput, messageId: SnowflakeInput): Promise<void> {
    return this.op(async () => {
      await this.api(`/users/@me/dms/${snowflake(recipientId)}/messages/${snowflake(messageId)}`, { method: 'DELETE' });
      this.cache.deleteMessage(snowflake(messageId));
    });
  }

  private dmFetched = new Map<Snowflake, number>();

  /**
   * DM history with a user, newest first: at most 200, the last 72 hours (the server's window). Served from the local
   * cache when an earlier read already covers `limit` (new messages arrive by the Gateway); else read over HTTP.
   */
  getUserMessagesWithLimit(recipientId: SnowflakeInput, limit: number): Promise<MessageHandle[]> {
    return this.op(async () => {
      const id = snowflake(recipientId);
      const n = Math.max(1, Math.min(200, Math.floor(limit)));
      const fetched = this.dmFetched.get(id);
      const cached = this.cache.dmHistory.get(id);
      if (!cached || fetched === undefined || (n > fetched && cached.length >= fetched)) {
        const list = await this.api<any[]>(`/users/@me/dms/${id}/messages`, { query: { limit: n } });
        this.cache.dmHistory.set(id, []);
        for (const m of [...list].reverse()) this.cache.putMessage(this.toMessage(m));
        this.dmFetched.set(id, n);
      }
      return (this.cache.dmHistory.get(id) ?? []).slice(0, n).map(this.messageView);
    });
  }

  /** Each DM partner with the id of the last message. */
  getUserMessageSummaries(): Promise<{ userId: Snowflake; lastMessageId: Snowflake }[]> {
    return this.op(async () => (await this.api<any[]>('/users/@me/dms')).map((s) => ({ userId: s.user_id, lastMessageId: s.last_message_id })));
  }

  sendLobbyMessage(lobbyId: SnowflakeInput, content: string, metadata?: Record<string, string>): Promise<Snowflake> {
    return this.op(async () => {
      const id = snowflake(lobbyId);
      const m = await this.api(`/lobbies/${id}/messages`, { method: 'POST', body: { content, ...(metadata ? { metadata } : {}) } });
      this.cache.putMessage(this.toMessage(m, id));
      return m.id as Snowflake;
    });
  }

  /** Lobby history, newest first: at most 200 messages of the last 72 hours, for lobbies the user is in. */
  getLobbyMessagesWithLimit(lobbyId: SnowflakeInput, limit: number): Promise<MessageHandle[]> {
    return this.op(async () => {
      const id = snowflake(lobbyId);
      const n = Math.max(1, Math.min(200, Math.floor(limit)));
      const list = await this.api<any[]>(`/lobbies/${id}/messages`, { query: { limit: n } });
      const out = list.map((m) => this.toMessage(m, id));
      for (const m of [...out].reverse()) this.cache.putMessage(m);
      return out.map((m) => this.messageView(m.id));
    });
  }

  getMessageHandle(messageId: SnowflakeInput): MessageHandle | undefined {
    const id = snowflake(messageId);
    return this.cache.messages.has(id) ? this.messageView(id) : undefined;
  }

  getChannelHandle(channelId: SnowflakeInput): ChannelHandle | undefined {
    const id = snowflake(channelId);
    const other = this.cache.dmChannels.get(id);
    if (other) return { id, name: this.userView(other).displayName(), type: DM, recipients: [other] };
    const lobby = this.cache.lobbies.get(id);
    if (lobby) return { id, name: '', type: 17, recipients: (lobby.members ?? []).map((m: any) => m.id) };
    return undefined;
  }

  setMessageCreatedCallback(cb: ((messageId: Snowflake) => void) | null): void {
    this.events.setSlot('messageCreated', cb && ((e) => cb(e.messageId)));
  }
  setMessageUpdatedCallback(cb: ((messageId: Snowflake) => void) | null): void {
    this.events.setSlot('messageUpdated', cb && ((e) => cb(e.messageId)));
  }
  setMessageDeletedCallback(cb: ((messageId: Snowflake, channelId: Snowflake) => void) | null): void {
    this.events.setSlot('messageDeleted', cb && ((e) => cb(e.messageId, e.channelId)));
  }

  // ------------------------------------------------------------------------------------------------ lobbies, guilds

  /** Creates the lobby of a secret or joins it; resolves with its id. */
  createOrJoinLobby(secret: string, lobbyMetadata?: Record<string, string>, memberMetadata?: Record<string, string>): Promise<Snowflake> {
    return this.op(async () => {
      if (!secret || secret.length > 250) throw invalid('a lobby secret has 1 to 250 characters');
      const l = await this.api('/lobbies', {
        method: 'PUT',
        body: { secret, ...(lobbyMetadata ? { lobby_metadata: lobbyMetadata } : {}), ...(memberMetadata ? { member_metadata: memberMetadata } : {}) },
      });
      this.cache.lobbies.set(l.id, { ...this.cache.lobbies.get(l.id), ...l });
      return l.id as Snowflake;
    });
  }
  createOrJoinLobbyWithMetadata(secret: string, lobbyMetadata: Record<string, string>, memberMetadata: Record<string, string>): Promise<Snowflake> {
    return this.createOrJoinLobby(secret, lobbyMetadata, memberMetadata);
  }

  leaveLobby(lobbyId: SnowflakeInput): Promise<void> {
    return this.op(async () => {
      const id = snowflake(lobbyId);
      await this.calls.get(id)?.end();
      this.calls.delete(id);
      await this.api(`/lobbies/${id}/members/@me`, { method: 'DELETE' });
      this.cache.lobbies.delete(id);
    });
  }

  getLobbyHandle(lobbyId: SnowflakeInput): LobbyHandle | undefined {
    const id = snowflake(lobbyId);
    return this.cache.lobbies.has(id) ? new LobbyHandle(this.cache, id, this.userView) : undefined;
  }

  getLobbyIds(): Snowflake[] {
    return [...this.cache.lobbies.keys()];
  }

  linkChannelToLobby(lobbyId: SnowflakeInput, channelId: SnowflakeInput): Promise<void> {
    return this.op(async () => {
      const l = await this.api(`/lobbies/${snowflake(lobbyId)}/channel-linking`, { method: 'PATCH', body: { channel_id: snowflake(channelId) } });
      this.cache.lobbies.set(l.id, { ...this.cache.lobbies.get(l.id), ...l });
    });
  }

  unlinkChannelFromLobby(lobbyId: SnowflakeInput): Promise<void> {
    return this.op(async () => {
      const l = await this.api(`/lobbies/${snowflake(lobbyId)}/channel-linking`, { method: 'PATCH', body: {} });
      this.cache.lobbies.set(l.id, { ...l, linked_channel: undefined });
    });
  }

  getUserGuilds(): Promise<{ id: Snowflake; name: string }[]> {
    return this.op(async () => (await this.api<any[]>('/users/@me/guilds')).map((g) => ({ id: g.id, name: g.name })));
  }

  /** A guild's channels as the client lists them (sortGuildChannels), with what linking needs to know. */
  getGuildChannels(guildId: SnowflakeInput): Promise<GuildChannel[]> {
    return this.op(async () =>
      sortGuildChannels(
        (await this.api<any[]>(`/users/@me/guilds/${snowflake(guildId)}/channels`)).map((c) => ({
          id: c.id,
          name: c.name ?? '',
          type: c.type,
          position: c.position ?? 0,
          parentId: c.parent_id ?? null,
          isLinkable: !!c.is_linkable,
          isViewableAndWriteableByAllMembers: !!c.is_viewable_and_writeable_by_all_members,
          linkedLobby: c.linked_lobby ? { applicationId: c.linked_lobby.application_id, lobbyId: c.linked_lobby.lobby_id } : null,
        })),
      ),
    );
  }

  setLobbyCreatedCallback(cb: ((lobbyId: Snowflake) => void) | null): void {
    this.events.setSlot('lobbyCreated', cb && ((e) => cb(e.lobbyId)));
  }
  setLobbyDeletedCallback(cb: ((lobbyId: Snowflake) => void) | null): void {
    this.events.setSlot('lobbyDeleted', cb && ((e) => cb(e.lobbyId)));
  }
  setLobbyUpdatedCallback(cb: ((lobbyId: Snowflake) => void) | null): void {
    this.events.setSlot('lobbyUpdated', cb && ((e) => cb(e.lobbyId)));
  }
  setLobbyMemberAddedCallback(cb: ((lobbyId: Snowflake, memberId: Snowflake) => void) | null): void {
    this.events.setSlot('lobbyMemberAdded', cb && ((e) => cb(e.lobbyId, e.memberId)));
  }
  setLobbyMemberRemovedCallback(cb: ((lobbyId: Snowflake, memberId: Snowflake) => void) | null): void {
    this.events.setSlot('lobbyMemberRemoved', cb && ((e) => cb(e.lobbyId, e.memberId)));
  }
  setLobbyMemberUpdatedCallback(cb: ((lobbyId: Snowflake, memberId: Snowflake) => void) | null): void {
    this.events.setSlot('lobbyMemberUpdated', cb && ((e) => cb(e.lobbyId, e.memberId)));
  }

  // ------------------------------------------------------------------------------------------------ calls (Node)

  /** Joins the call of a lobby the user is in; null when already in it. */
  startCall(lobbyId: SnowflakeInput): CallLike | null {
    return this.startCallWithAudioCallbacks(lobbyId);
  }

  /** A call whose received PCM goes to `received` (per user) and whose captured PCM passes `captured` before sending. */
  startCallWithAudioCallbacks(lobbyId: SnowflakeInput, received?: UserAudioReceivedCallback, captured?: UserAudioCapturedCallback): CallLike | null {
    const id = snowflake(lobbyId);
    if (!Client.engine) throw new ClientResult(ErrorType.Disabled, 'calls are available in Node only (this build has no voice engine)');
    const me = this.requireReady('startCall');
    if (this.calls.has(id)) return null;
    const call = Client.engine.createCall(
      {
        userId: me,
        voiceCa: this.opts.voiceCa,
        settings: this.settings,
        sendLobbyVoiceState: (d) => this.gateway.send(17, d),
        log: (m, s) => this.log(m, s as LoggingSeverity),
        deliver: (fn) => this.events.deliver(fn),
      },
      id,
      received,
      captured,
    );
    this.calls.set(id, call);
    call.start();
    return call;
  }

  endCall(lobbyId: SnowflakeInput): Promise<void> {
    return this.op(async () => {
      const id = snowflake(lobbyId);
      await this.calls.get(id)?.end();
      this.calls.delete(id);
    });
  }

  endCalls(): Promise<void> {
    return this.op(async () => {
      await Promise.all([...this.calls.values()].map((c) => c.end()));
      this.calls.clear();
    });
  }

  getCall(lobbyId: SnowflakeInput): CallLike | undefined {
    return this.calls.get(snowflake(lobbyId));
  }
  getCalls(): CallLike[] {
    return [...this.calls.values()];
  }
  setVoiceParticipantChangedCallback(cb: ((lobbyId: Snowflake, memberId: Snowflake, added: boolean) => void) | null): void {
    this.events.setSlot('voiceParticipantChanged', cb && ((e) => cb(e.lobbyId, e.memberId, e.added)));
  }

  // ------------------------------------------------------------------------------------------------ Gateway events

  private onDispatch(t: string, d: any): void {
    const handler = HANDLERS[t];
    if (handler) {
      try {
        handler.call(this, d);
      } catch (err) {
        this.log(`dispatch ${t} failed: ${(err as Error).message}`, LoggingSeverity.Error);
      }
    }
  }

  /** @internal */ handlePresence(d: any): void {
    this.cache.presences.set(d.user.id, { status: d.status, activities: d.activities ?? [] });
    this.events.emit('userUpdated', { userId: d.user.id });
  }

  /** @internal */ handleRelationship(d: any, game: boolean, removed: boolean): void {
    if (!removed) this.cache.putUser(d.user);
    const r = this.cache.relationship(d.id);
    if (game) r.gameType = removed ? 0 : d.type;
    else Object.assign(r, { discordType: removed ? 0 : d.type, nickname: removed ? null : (d.nickname ?? r.nickname), since: d.since ?? r.since });
    if (removed) this.cache.dropRelationshipIfEmpty(d.id);
    this.events.emit(removed ? 'relationshipDeleted' : 'relationshipCreated', { userId: d.id, isDiscordRelationshipUpdate: !game });
    this.events.emit('relationshipGroupsUpdated', { userId: d.id });
  }

  /** @internal */ handleMessage(d: any, kind: 'create' | 'update'): void {
    if (d.guild_id) return;
    // An activity invite reaches the invite callback only; the real SDK never makes it a message.
    if (d.activity) {
      if (kind === 'create' && d.author?.id !== this.cache.me?.id) this.events.emit('activityInviteCreated', inviteFromMessage(d));
      return;
    }
    const m = this.toMessage(d);
    this.cache.putMessage(m);
    this.events.emit(kind === 'create' ? 'messageCreated' : 'messageUpdated', { messageId: m.id });
  }

  /** @internal */ handleMessageDelete(d: any): void {
    if (d.guild_id) return;
    this.cache.deleteMessage(d.id);
    this.events.emit('messageDeleted', { messageId: d.id, channelId: d.channel_id });
  }

  /** @internal */ handleLobbyMessage(d: any, kind: 'create' | 'update'): void {
    const m = this.toMessage(d, d.lobby_id);
    this.cache.putMessage(m);
    this.events.emit(kind === 'create' ? 'messageCreated' : 'messageUpdated', { messageId: m.id });
  }

  /** @internal */ handleLobby(t: string, d: any): void {
    switch (t) {
      case 'LOBBY_CREATE':
        this.cache.lobbies.set(d.id, { ...this.cache.lobbies.get(d.id), ...d });
        return this.events.emit('lobbyCreated', { lobbyId: d.id });
      case 'LOBBY_UPDATE':
        this.cache.lobbies.set(d.id, { ...this.cache.lobbies.get(d.id), ...d, linked_channel: d.linked_channel });
        return this.events.emit('lobbyUpdated', { lobbyId: d.id });
      case 'LOBBY_DELETE':
        this.cache.lobbies.delete(d.id);
        void this.calls.get(d.id)?.end();
        this.calls.delete(d.id);
        return this.events.emit('lobbyDeleted', { lobbyId: d.id });
    }
    const lobby = this.cache.lobbies.get(d.lobby_id);
    if (!lobby) return;
    const members: any[] = (lobby.members ??= []);
    const i = members.findIndex((m) => m.id === d.member?.id);
    if (t === 'LOBBY_MEMBER_REMOVE') {
      if (i >= 0) members.splice(i, 1);
      return this.events.emit('lobbyMemberRemoved', { lobbyId: d.lobby_id, memberId: d.member.id });
    }
    const next = { ...(i >= 0 ? members[i] : {}), ...d.member };
    if (t === 'LOBBY_MEMBER_CONNECT' || t === 'LOBBY_MEMBER_DISCONNECT') next.connected = t === 'LOBBY_MEMBER_CONNECT';
    if (i >= 0) members[i] = next;
    else members.push(next);
    this.events.emit(t === 'LOBBY_MEMBER_ADD' ? 'lobbyMemberAdded' : 'lobbyMemberUpdated', { lobbyId: d.lobby_id, memberId: d.member.id });
  }

  /** @internal */ handleLobbyVoiceState(d: any): void {
    const lobby = this.cache.lobbies.get(d.lobby_id);
    if (lobby) {
      const states: any[] = (lobby.voice_states ?? []).filter((s: any) => s.user_id !== d.user_id);
      const before = (lobby.voice_states ?? []).some((s: any) => s.user_id === d.user_id);
      if (d.channel_id) states.push(d);
      lobby.voice_states = states;
      if (before !== !!d.channel_id) this.events.emit('voiceParticipantChanged', { lobbyId: d.lobby_id, memberId: d.user_id, added: !!d.channel_id });
    }
    this.calls.get(d.lobby_id)?.onVoiceState(d);
  }

  /** @internal */ handleLobbyVoiceServer(d: any): void {
    this.calls.get(d.lobby_id)?.onVoiceServer(d);
  }

  /** @internal */ handleInviteAcceptedElsewhere(d: any): void {
    if (this.acceptedInvites.has(d.message_id)) return; // accepted here: the game already knows
    this.events.emit('activityInviteCreated', {
      senderId: d.sender_id,
      channelId: d.channel_id,
      messageId: d.message_id,
      type: d.type,
      applicationId: d.application_id,
      parentApplicationId: null,
      partyId: d.party_id,
      sessionId: d.session_id ?? null,
      isValid: !d.accepted,
    });
  }

  /** @internal */ handleMerge(d: any): void {
    this.events.emit('userMerged', { mergeOperationId: d.merge_operation_id, sourceUserId: d.source_user_id, destinationUserId: d.destination_user_id });
  }

  /** @internal */ handleAuthorizeRequest(d: any): void {
    if (this.authorizeRequestSubscribed && (!d?.application_id || d.application_id === this.applicationId)) this.events.emit('authorizeRequest', {});
  }

  /** @internal */ handleChannelCreate(d: any): void {
    const other = (d.recipients ?? []).find((u: WireUser) => u.id !== this.cache.me?.id);
    if (d.type === DM && other) {
      this.cache.dmChannels.set(d.id, other.id);
      this.cache.putUser(other);
    }
  }

  /** @internal */ async handleUserUpdate(): Promise<void> {
    const me = await this.api('/users/@me').catch(() => null);
    if (!me) return;
    this.cache.me = me;
    this.cache.putUser(me);
    this.events.emit('userUpdated', { userId: me.id });
  }
}

const HANDLERS: Record<string, (this: Client, d: any) => void> = {
  PRESENCE_UPDATE(d) {
    this.handlePresence(d);
  },
  RELATIONSHIP_ADD(d) {
    this.handleRelationship(d, false, false);
  },
  RELATIONSHIP_UPDATE(d) {
    this.handleRelationship(d, false, false);
  },
  RELATIONSHIP_REMOVE(d) {
    this.handleRelationship(d, false, true);
  },
  GAME_RELATIONSHIP_ADD(d) {
    this.handleRelationship(d, true, false);
  },
  GAME_RELATIONSHIP_REMOVE(d) {
    this.handleRelationship(d, true, true);
  },
  MESSAGE_CREATE(d) {
    this.handleMessage(d, 'create');
  },
  MESSAGE_UPDATE(d) {
    this.handleMessage(d, 'update');
  },
  MESSAGE_DELETE(d) {
    this.handleMessageDelete(d);
  },
  LOBBY_MESSAGE_CREATE(d) {
    this.handleLobbyMessage(d, 'create');
  },
  LOBBY_MESSAGE_UPDATE(d) {
    this.handleLobbyMessage(d, 'update');
  },
  LOBBY_MESSAGE_DELETE(d) {
    this.handleMessageDelete({ id: d.id, channel_id: d.lobby_id });
  },
  LOBBY_CREATE(d) {
    this.handleLobby('LOBBY_CREATE', d);
  },
  LOBBY_UPDATE(d) {
    this.handleLobby('LOBBY_UPDATE', d);
  },
  LOBBY_DELETE(d) {
    this.handleLobby('LOBBY_DELETE', d);
  },
  LOBBY_MEMBER_ADD(d) {
    this.handleLobby('LOBBY_MEMBER_ADD', d);
  },
  LOBBY_MEMBER_UPDATE(d) {
    this.handleLobby('LOBBY_MEMBER_UPDATE', d);
  },
  LOBBY_MEMBER_REMOVE(d) {
    this.handleLobby('LOBBY_MEMBER_REMOVE', d);
  },
  LOBBY_MEMBER_CONNECT(d) {
    this.handleLobby('LOBBY_MEMBER_CONNECT', d);
  },
  LOBBY_MEMBER_DISCONNECT(d) {
    this.handleLobby('LOBBY_MEMBER_DISCONNECT', d);
  },
  LOBBY_VOICE_STATE_UPDATE(d) {
    this.handleLobbyVoiceState(d);
  },
  LOBBY_VOICE_SERVER_UPDATE(d) {
    this.handleLobbyVoiceServer(d);
  },
  ACTIVITY_INVITE_CREATE(d) {
    this.handleInviteAcceptedElsewhere(d);
  },
  USER_MERGE_OPERATION_COMPLETED(d) {
    this.handleMerge(d);
  },
  AUTHORIZE_REQUEST(d) {
    this.handleAuthorizeRequest(d);
  },
  CHANNEL_CREATE(d) {
    this.handleChannelCreate(d);
  },
  USER_UPDATE() {
    void this.handleUserUpdate();
  },
};

function tokenResult(r: any): TokenResult {
  return {
    accessToken: r.access_token,
    refreshToken: r.refresh_token ?? '',
    tokenType: AuthorizationTokenType.Bearer,
    expiresIn: r.expires_in ?? 0,
    scopes: r.scope ?? '',
  };
}

function inviteFromMessage(d: any): ActivityInvite {
  return {
    senderId: d.author.id,
    channelId: d.channel_id,
    messageId: d.id,
    type: d.activity.type,
    applicationId: d.application_id ?? d.application?.id,
    parentApplicationId: null,
    partyId: d.activity.party_id,
    sessionId: d.activity.session_id ?? null,
    isValid: true,
  };
}

const VOICE_TYPES = new Set([2, 13]);
const CATEGORY = 4;

/**
 * Channels as the client lists them: channels without a category first, then each category (by position) followed by
 * its channels; within a group text-like channels before voice channels, then by position, then by id.
 */
export function sortGuildChannels(channels: GuildChannel[]): GuildChannel[] {
  const byKey = (a: GuildChannel, b: GuildChannel) =>
    Number(VOICE_TYPES.has(a.type)) - Number(VOICE_TYPES.has(b.type)) || a.position - b.position || (BigInt(a.id) < BigInt(b.id) ? -1 : 1);
  const categories = channels.filter((c) => c.type === CATEGORY).sort((a, b) => a.position - b.position || (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  const ids = new Set(categories.map((c) => c.id));
  const loose = channels.filter((c) => c.type !== CATEGORY && (!c.parentId || !ids.has(c.parentId))).sort(byKey);
  return [...loose, ...categories.flatMap((cat) => [cat, ...channels.filter((c) => c.parentId === cat.id && c.type !== CATEGORY).sort(byKey)])];
}

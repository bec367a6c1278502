/** The client's core: options, events and their delivery, the HTTP and Gateway plumbing, status, diagnostics. */
import type { Activity } from '../activity.js';
import { Cache } from '../cache.js';
import { AuthorizationTokenType, ClientError, ErrorType, LoggingSeverity, Status, errorToString, statusToString, threadToString } from '../enums.js';
import { Emitter } from '../events.js';
import { GatewaySession } from '../gateway.js';
import { UserHandle, type ActivityInvite } from '../handles.js';
import { Http, normalizeApiBase } from '../http.js';
import { LogFile } from '../log-file.js';
import { ClientResult, invalid, notReady } from '../result.js';
import { snowflake, type Snowflake, type SnowflakeInput } from '../snowflake.js';
import { VERSION, VERSION_HASH, VERSION_MAJOR, VERSION_MINOR, VERSION_PATCH } from '../version.js';
import type { CallLike } from '../voice/types.js';

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

export interface ClientEvents {
  statusChanged: { status: Status; error: ClientError; errorDetail: number };
  log: { message: string; severity: LoggingSeverity };
  voiceLog: { message: string; severity: LoggingSeverity };
  authorizeDeviceScreenClosed: Record<string, never>;
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
  activityJoinWithApplication: { applicationId: Snowflake; joinSecret: string };
  tokenExpiring: Record<string, never>;
  authorizeRequest: Record<string, never>;
  userMerged: { mergeOperationId: Snowflake; sourceUserId: Snowflake; destinationUserId: Snowflake };
}

export const DM = 1;

/** Node (not a browser, nor a bundle for one). */
export const isNode = () => typeof process !== 'undefined' && !!process.versions?.node && typeof window === 'undefined';

/** The state and plumbing every concern of the Client shares; each concern is a layer on top (client.ts stacks them). */
export abstract class ClientCore {
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
  static threadToString = threadToString;

  readonly apiRoot: string;
  readonly webBase: string;
  protected readonly http: Http;
  protected readonly cache = new Cache();
  protected readonly events: Emitter<ClientEvents>;
  protected readonly gateway: GatewaySession;
  protected readonly opts: ClientCreateOptions;
  protected applicationId: Snowflake | null = null;
  protected status: Status = Status.Disconnected;
  protected token: { type: AuthorizationTokenType; value: string } | null = null;
  protected presence: { status: string; activity: Activity | null; wire: Record<string, unknown> | null } = { status: 'online', activity: null, wire: null };
  protected readonly calls = new Map<Snowflake, CallLike>();
  protected connectWaiters: { resolve: () => void; reject: (e: ClientResult) => void }[] = [];
  private readonly logFile = new LogFile('discord.log');
  private readonly voiceLogFile = new LogFile('discord-webrtc_0.log');
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

  protected abstract onReady(kind: 'READY' | 'RESUMED', d: any): void;
  protected abstract onDispatch(t: string, d: any): void;

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
  /** The SDK's logs but for voice (lobbies, relationships, presence, authentication…) at or above `minSeverity`. */
  addLogCallback(cb: (message: string, severity: LoggingSeverity) => void, minSeverity: LoggingSeverity = LoggingSeverity.Info): void {
    this.events.on('log', (e) => {
      if (e.severity >= minSeverity) cb(e.message, e.severity);
    });
  }
  /** The voice logs (calls: signalling, transport, encryption) at or above `minSeverity`. */
  addVoiceLogCallback(cb: (message: string, severity: LoggingSeverity) => void, minSeverity: LoggingSeverity = LoggingSeverity.Info): void {
    this.events.on('voiceLog', (e) => {
      if (e.severity >= minSeverity) cb(e.message, e.severity);
    });
  }
  /**
   * Writes the logs of addLogCallback to `discord.log` in `path` (created anew; an empty path: the working
   * directory); LoggingSeverity.None stops it. Node only: false in browsers, or when the file cannot be opened.
   */
  setLogDir(path: string, minSeverity: LoggingSeverity = LoggingSeverity.Info): boolean {
    return this.logFile.open(path, minSeverity);
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
  /** Where voice logs (`discord-webrtc_0.log`) and AEC dumps go; LoggingSeverity.None: no voice log file. */
  setVoiceLogDir(path: string, minSeverity: LoggingSeverity = LoggingSeverity.None): void {
    this.settings.aecDumpDir = path;
    this.voiceLogFile.open(path, minSeverity);
  }

  protected log(message: string, severity: LoggingSeverity = LoggingSeverity.Info): void {
    this.logFile.write(message, severity);
    if (this.events.has('log')) this.events.emit('log', { message, severity });
  }
  protected voiceLog(message: string, severity: LoggingSeverity = LoggingSeverity.Info): void {
    this.voiceLogFile.write(message, severity);
    if (this.events.has('voiceLog')) this.events.emit('voiceLog', { message, severity });
  }

  protected api<T = any>(path: string, opts: Parameters<Http['request']>[1] = {}): Promise<T> {
    this.stats.httpRequests++;
    return this.http.request<T>(path, opts);
  }

  /** Runs an operation, its result delivered like every callback (manual mode: inside runCallbacks). */
  protected op<T>(fn: () => Promise<T>): Promise<T> {
    return this.events.settle(Promise.resolve().then(fn));
  }

  protected appId(given?: SnowflakeInput): Snowflake {
    const id = given !== undefined ? snowflake(given) : this.applicationId;
    if (!id) throw invalid('no application id: call setApplicationId or pass one');
    return id;
  }

  protected setStatus(status: Status, error: ClientError = ClientError.None, detail = 0): void {
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

  protected requireReady(what: string): Snowflake {
    if (this.status !== Status.Ready || !this.cache.me) throw notReady(what);
    return this.cache.me.id;
  }
  protected userView = (id: Snowflake) => new UserHandle(this.cache, this.webBase, this.apiRoot.replace(/\/api$/, ''), id);

  /** Shows a page of the platform's web client: `openUrl`, else the system browser (Node) or a new window. */
  protected async openInPlatform(url: string): Promise<void> {
    const open =
      this.opts.openUrl ?? (isNode() ? (u: string) => import('../loopback.js').then((m) => m.openInBrowser(u)) : (u: string) => void globalThis.open?.(u));
    await open(url);
  }

  protected presencePayload() {
    return { since: null, afk: false, status: this.presence.status, activities: this.presence.wire ? [this.presence.wire] : [] };
  }
}

/** Authentication: Authorize with PKCE, the token grants, provisional accounts and merges, UpdateToken. */
import { AuthorizationArgs, AuthorizationCodeVerifier } from '../authorization-args.js';
import { AuthorizationTokenType, ErrorType, EXTERNAL_AUTH_WIRE, Status, type ExternalAuthType } from '../enums.js';
import { createCodeVerifier, randomToken } from '../pkce.js';
import { ClientResult, invalid } from '../result.js';
import { snowflake, type Snowflake, type SnowflakeInput } from '../snowflake.js';
import { ClientCore, isNode } from './core.js';
import { runDeviceFlow } from './device-flow.js';
import type { RequestOptions } from '../http.js';

export interface TokenResult {
  accessToken: string;
  refreshToken: string;
  tokenType: AuthorizationTokenType;
  expiresIn: number;
  scopes: string;
}

export abstract class AuthClient extends ClientCore {
  private tokenTimer: ReturnType<typeof setTimeout> | null = null;
  private authorizeAbort: AbortController | null = null;
  private authorizeRequestSubscribed = false;

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
      const loop = isNode() && !opts.redirectUri ? await (await import('../loopback.js')).startLoopback() : null;
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
        await Promise.race([this.openInPlatform(url), aborted]);
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

  /** Whether the client has a token (valid or not: FetchCurrentUser tells). */
  isAuthenticated(): boolean {
    return !!this.token?.value;
  }

  /** Who a token belongs to (its validity check): no connection or token of the client's own needed. */
  fetchCurrentUser(tokenType: AuthorizationTokenType, token: string): Promise<{ id: Snowflake; name: string }> {
    return this.op(async () => {
      if (!token) throw invalid('empty token');
      const me = await this.api('/users/@me', { auth: tokenType === AuthorizationTokenType.Bearer ? `Bearer ${token}` : token });
      return { id: me.id as Snowflake, name: me.username as string };
    });
  }

  /** Renames the current provisional account (its display name; the generated username stays): 1 to 32 characters. */
  updateProvisionalAccountDisplayName(name: string): Promise<void> {
    return this.op(async () => {
      if (!name.trim() || name.trim().length > 32) throw invalid('a display name has 1 to 32 characters');
      const me = await this.api('/partner-sdk/provisional-accounts/@me', { method: 'PATCH', body: { display_name: name } });
      if (this.cache.me?.id === me.id) this.cache.me = { ...this.cache.me, ...me };
      this.cache.putUser(me);
    });
  }

  /**
   * Console sign-in (the OAuth2 device flow): shows the verification page with the user code through `openUrl` (on
   * a console, show the code and URL yourself from there), then waits for the user's answer on another device.
   * Resolves with the tokens like GetToken; AbortGetTokenFromDevice (or `signal`) cancels it (Aborted).
   */
  getTokenFromDevice(args: { clientId?: SnowflakeInput; scopes: string }, opts: { signal?: AbortSignal } = {}): Promise<TokenResult> {
    return this.deviceToken(args, {}, opts.signal);
  }

  /** GetTokenFromDevice that also merges the provisional account of the external identity into the signing-in account. */
  getTokenFromDeviceProvisionalMerge(
    args: { clientId?: SnowflakeInput; scopes: string },
    externalAuthType: ExternalAuthType,
    externalAuthToken: string,
    opts: { signal?: AbortSignal } = {},
  ): Promise<TokenResult> {
    return this.deviceToken(args, externalAuth(externalAuthType, externalAuthToken), opts.signal);
  }

  private deviceAbort: AbortController | null = null;

  private deviceToken(args: { clientId?: SnowflakeInput; scopes: string }, extra: Record<string, string>, signal?: AbortSignal): Promise<TokenResult> {
    return this.op(async () => {
      if (!args.scopes?.trim()) throw invalid('DeviceAuthorizationArgs needs Scopes (e.g. Client.getDefaultCommunicationScopes())');
      this.deviceAbort?.abort();
      const abort = (this.deviceAbort = new AbortController());
      const host = { request: (path: string, o: RequestOptions) => this.api(path, o), showScreen: (url: string) => this.openInPlatform(url) };
      try {
        return tokenResult(
          await runDeviceFlow(host, this.appId(args.clientId), args.scopes, extra, signal ? AbortSignal.any([signal, abort.signal]) : abort.signal),
        );
      } finally {
        if (this.deviceAbort === abort) this.deviceAbort = null;
        this.events.emit('authorizeDeviceScreenClosed', {});
      }
    });
  }

  abortGetTokenFromDevice(): void {
    this.deviceAbort?.abort();
  }

  /**
   * Shows the device verification page for a user code the game's backend got (confidential clients run the device
   * flow themselves); CloseAuthorizeDeviceScreen reports it closed.
   */
  openAuthorizeDeviceScreen(clientId: SnowflakeInput, userCode: string): Promise<void> {
    return this.op(async () => {
      if (!userCode) throw invalid('empty user code');
      await this.openInPlatform(`${this.webBase}/activate?${new URLSearchParams({ user_code: userCode, client_id: snowflake(clientId) })}`);
    });
  }
  closeAuthorizeDeviceScreen(): void {
    this.events.emit('authorizeDeviceScreenClosed', {});
  }
  setAuthorizeDeviceScreenClosedCallback(cb: (() => void) | null): void {
    this.events.setSlot('authorizeDeviceScreenClosed', cb && (() => cb()));
  }

  private mergeWaiter: ((success: boolean) => void) | null = null;

  /**
   * Some operations need a platform account (opening a message or a guild invite on the platform): for a provisional
   * account `mergeRequired` runs, the game merges the account (Authorize + GetTokenFromProvisionalMerge, UpdateToken),
   * then calls ProvisionalUserMergeCompleted; the operation goes on when it succeeded.
   */
  protected async requireFullAccount(mergeRequired?: () => void): Promise<void> {
    if (!this.cache.me?.is_provisional) return;
    if (!mergeRequired) throw invalid('a provisional account must first merge into a platform account (pass provisionalUserMergeRequired)');
    const done = new Promise<boolean>((resolve) => {
      this.mergeWaiter?.(false);
      this.mergeWaiter = resolve;
    });
    this.events.deliver(() => mergeRequired());
    if (!(await done)) throw new ClientResult(ErrorType.AuthorizationFailed, 'The provisional account was not merged');
  }

  /** Tells the operation waiting on a provisional merge whether the merge succeeded. */
  provisionalUserMergeCompleted(success: boolean): void {
    const waiter = this.mergeWaiter;
    this.mergeWaiter = null;
    waiter?.(success);
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
    return this.op(() => this.codeGrant(applicationId, code, codeVerifier, redirectUri, {}));
  }

  private codeGrant(applicationId: SnowflakeInput, code: string, codeVerifier: string, redirectUri: string, extra: Record<string, string>) {
    return this.tokenRequest({
      grant_type: 'authorization_code',
      client_id: this.appId(applicationId),
      code,
      code_verifier: codeVerifier,
      redirect_uri: redirectUri,
      ...extra,
    });
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
          body: { client_id: this.appId(applicationId), ...externalAuth(externalAuthType, externalAuthToken) },
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
    return this.op(() => this.codeGrant(applicationId, code, codeVerifier, redirectUri, externalAuth(externalAuthType, externalAuthToken)));
  }

  /** Unlinks the platform account from the external identity: the player gets a new provisional account. */
  unmergeIntoProvisionalAccount(applicationId: SnowflakeInput, externalAuthType: ExternalAuthType, externalAuthToken: string): Promise<void> {
    return this.op(async () => {
      await this.api('/partner-sdk/provisional-accounts/unmerge', {
        method: 'POST',
        auth: null,
        body: { client_id: this.appId(applicationId), ...externalAuth(externalAuthType, externalAuthToken) },
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

  /** @internal */ handleMerge(d: any): void {
    this.events.emit('userMerged', { mergeOperationId: d.merge_operation_id, sourceUserId: d.source_user_id, destinationUserId: d.destination_user_id });
  }

  /** @internal */ handleAuthorizeRequest(d: any): void {
    if (this.authorizeRequestSubscribed && (!d?.application_id || d.application_id === this.applicationId)) this.events.emit('authorizeRequest', {});
  }
}

function tokenResult(r: any): TokenResult {
  return {
    accessToken: r.access_token,
    refreshToken: r.refresh_token ?? '',
    tokenType: AuthorizationTokenType.Bearer,
    expiresIn: r.expires_in ?? 0,
    scopes: r.scope ?? '',
  };
}

/** The game's identity of a provisional account, as the token and partner-sdk routes take it. */
const externalAuth = (type: ExternalAuthType, token: string) => ({ external_auth_type: EXTERNAL_AUTH_WIRE[type], external_auth_token: token });

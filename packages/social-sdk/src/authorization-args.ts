import { AuthenticationCodeChallengeMethod, IntegrationType } from './enums.js';
import type { Snowflake } from './snowflake.js';

/** The challenge half of PKCE: what goes into AuthorizationArgs. */
export class AuthorizationCodeChallenge {
  constructor(
    public challenge = '',
    public method: number = AuthenticationCodeChallengeMethod.S256,
  ) {}
  Challenge(): string {
    return this.challenge;
  }
  SetChallenge(v: string): void {
    this.challenge = v;
  }
  Method(): number {
    return this.method;
  }
  SetMethod(v: number): void {
    this.method = v;
  }
  copy(): AuthorizationCodeChallenge {
    return new AuthorizationCodeChallenge(this.challenge, this.method);
  }
}

/** Both halves of PKCE (Client.createAuthorizationCodeVerifier): the challenge for Authorize, the verifier for GetToken. */
export class AuthorizationCodeVerifier {
  constructor(
    public challenge: AuthorizationCodeChallenge,
    public verifier: string,
  ) {}
  Challenge(): AuthorizationCodeChallenge {
    return this.challenge;
  }
  Verifier(): string {
    return this.verifier;
  }
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]{0,63}$/;

/**
 * Arguments to Client.authorize, as the spec's AuthorizationArgs: every field optional but Scopes, each with a getter
 * and a setter (TypeScript accessors, plus the C++ names `ClientId()` / `SetClientId()`), copyable, valid unless it
 * is the static uninitialized `nullobj`.
 *
 * - `clientId` defaults to the client's application id (Client.setApplicationId);
 * - `state` left unset is generated (secure random) by Authorize, which checks the answer carries it back;
 * - `customSchemeParam` sets the mobile redirect to `<word>:/authorize/callback`; unset, the default scheme is built from
 *   the application id: `discord-<application id>:/authorize/callback`.
 */
export class AuthorizationArgs {
  private valid: boolean;
  clientId: Snowflake | undefined;
  scopes = '';
  state: string | undefined;
  nonce: string | undefined;
  codeChallenge: AuthorizationCodeChallenge | undefined;
  integrationType: IntegrationType | undefined;
  private scheme: string | undefined;

  constructor() {
    this.valid = true;
  }

  /** The uninitialized instance: `isValid()` is false, Authorize refuses it. */
  static readonly nullobj: AuthorizationArgs = (() => {
    const a = new AuthorizationArgs();
    a.valid = false;
    return Object.freeze(a) as AuthorizationArgs;
  })();

  /** The boolean conversion of the C++ type. */
  isValid(): boolean {
    return this.valid;
  }

  copy(): AuthorizationArgs {
    const c = new AuthorizationArgs();
    c.valid = this.valid;
    Object.assign(c, {
      clientId: this.clientId,
      scopes: this.scopes,
      state: this.state,
      nonce: this.nonce,
      integrationType: this.integrationType,
      scheme: this.scheme,
    });
    c.codeChallenge = this.codeChallenge?.copy();
    return c;
  }

  get customSchemeParam(): string | undefined {
    return this.scheme;
  }

  set customSchemeParam(word: string | undefined) {
    if (word !== undefined && !SCHEME.test(word)) throw new TypeError(`CustomSchemeParam must be a URI scheme word, got "${word.slice(0, 64)}"`);
    this.scheme = word;
  }

  /** The mobile redirect: `<CustomSchemeParam>:/authorize/callback`, or the default scheme of the application. */
  mobileRedirectUri(applicationId: Snowflake): string {
    return `${this.scheme ?? defaultScheme(applicationId)}:/authorize/callback`;
  }

  ClientId(): Snowflake | undefined {
    return this.clientId;
  }
  SetClientId(v: Snowflake | undefined): void {
    this.clientId = v;
  }
  Scopes(): string {
    return this.scopes;
  }
  SetScopes(v: string): void {
    this.scopes = v;
  }
  State(): string | undefined {
    return this.state;
  }
  SetState(v: string | undefined): void {
    this.state = v;
  }
  Nonce(): string | undefined {
    return this.nonce;
  }
  SetNonce(v: string | undefined): void {
    this.nonce = v;
  }
  CodeChallenge(): AuthorizationCodeChallenge | undefined {
    return this.codeChallenge;
  }
  SetCodeChallenge(v: AuthorizationCodeChallenge | undefined): void {
    this.codeChallenge = v;
  }
  IntegrationType(): IntegrationType | undefined {
    return this.integrationType;
  }
  SetIntegrationType(v: IntegrationType | undefined): void {
    this.integrationType = v;
  }
  CustomSchemeParam(): string | undefined {
    return this.customSchemeParam;
  }
  SetCustomSchemeParam(v: string | undefined): void {
    this.customSchemeParam = v;
  }
}

/** The platform-defined redirect scheme of an application when no CustomSchemeParam is set. */
export const defaultScheme = (applicationId: Snowflake) => `discord-${applicationId}`;

export { IntegrationType };

import { ErrorType } from './enums.js';

/**
 * ClientResult: why an operation failed. Promises reject with it (it is an Error); `type` says which kind of failure,
 * `code` the platform's JSON error code for HTTP errors, `status` the HTTP status, `retryable` whether trying again may
 * work, and `retryAfter` how long to wait (seconds) when the platform said.
 */
export class ClientResult extends Error {
  constructor(
    readonly type: ErrorType,
    message: string,
    readonly opts: { code?: number; status?: number; responseBody?: string; retryable?: boolean; retryAfter?: number } = {},
  ) {
    super(message);
    this.name = 'ClientResult';
  }

  get code(): number {
    return this.opts.code ?? 0;
  }
  get status(): number {
    return this.opts.status ?? 0;
  }
  get responseBody(): string {
    return this.opts.responseBody ?? '';
  }
  /** C++ names, for readers of the native SDK's docs. */
  Type(): ErrorType {
    return this.type;
  }
  Error(): string {
    return this.message;
  }
  ErrorCode(): number {
    return this.code;
  }
  Status(): number {
    return this.status;
  }
  ResponseBody(): string {
    return this.responseBody;
  }
  Successful(): boolean {
    return this.type === ErrorType.None;
  }
  Retryable(): boolean {
    return this.opts.retryable ?? false;
  }
  RetryAfter(): number {
    return this.opts.retryAfter ?? 0;
  }
  override toString(): string {
    return `ClientResult(type=${this.type}, status=${this.status}, code=${this.code}, retryable=${this.Retryable()}): ${this.message}`;
  }
}

export const notReady = (what: string) => new ClientResult(ErrorType.ClientNotReady, `${what}: the client is not Ready`);
export const invalid = (what: string) => new ClientResult(ErrorType.ValidationError, what);

import { SOCIAL_SDK_VERSION_HEADER } from '@accord/protocol';
import { ErrorType } from './enums.js';
import { ClientResult } from './result.js';
import { VERSION } from './version.js';

/** The SDK's HTTP timeout unless Client.setHttpRequestTimeout changes it (the spec's 30 s). */
export const DEFAULT_HTTP_TIMEOUT_MS = 30_000;

export interface RequestOptions {
  method?: string;
  /** JSON body, or a URLSearchParams for form-encoded token requests. */
  body?: unknown;
  /** `Bearer …` or `Bot …`; omitted: the client's own token (if any); null: none. */
  auth?: string | null;
  query?: Record<string, string | number | undefined>;
  signal?: AbortSignal;
}

/** `http://host:port` or `…/api` → the API root `…/api` (requests go to `/api/v10/…`). */
export function normalizeApiBase(apiBase: string): string {
  const trimmed = apiBase.replace(/\/+$/, '');
  return /\/api$/.test(trimmed) ? trimmed : `${trimmed}/api`;
}

/**
 * The SDK's HTTP calls: JSON in and out, a per-request timeout, the release header (the server refuses end-of-life
 * SDKs), and failures as ClientResult: NetworkError (retryable) for transport failures and timeouts, Aborted,
 * HTTPError with the platform's code, status, body, and RetryAfter for 429s and 5xx, AuthorizationFailed for OAuth2
 * `invalid_grant` (the token behind it is gone: like APPLICATION_DEAUTHORIZED).
 */
export class Http {
  timeoutMs = DEFAULT_HTTP_TIMEOUT_MS;
  token: string | null = null;

  constructor(readonly apiRoot: string) {}

  async request<T = any>(path: string, opts: RequestOptions = {}): Promise<T> {
    const qs = opts.query
      ? `?${new URLSearchParams(
          Object.entries(opts.query)
            .filter(([, v]) => v !== undefined)
            .map(([k, v]) => [k, String(v)]),
        )}`
      : '';
    const headers: Record<string, string> = { [SOCIAL_SDK_VERSION_HEADER]: VERSION };
    const auth = opts.auth === undefined ? this.token : opts.auth;
    if (auth) headers.authorization = auth;
    let body: string | undefined;
    if (opts.body instanceof URLSearchParams) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = opts.body.toString();
    } else if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
    let res: Response;
    try {
      res = await fetch(`${this.apiRoot}/v10${path}${qs}`, { method: opts.method ?? 'GET', headers, body, signal });
    } catch (err) {
      if (opts.signal?.aborted) throw new ClientResult(ErrorType.Aborted, 'The request was aborted');
      const timedOut = timeout.aborted;
      throw new ClientResult(
        ErrorType.NetworkError,
        timedOut ? `The request timed out after ${this.timeoutMs} ms` : `Network error: ${(err as Error).message}`,
        { retryable: true },
      );
    }
    const text = await res.text().catch(() => '');
    let json: any = null;
    if (text) {
      try {
        json = JSON.parse(text);
      } catch {
        json = null;
      }
    }
    if (res.ok) return (res.status === 204 ? undefined : json) as T;
    const retryAfter = typeof json?.retry_after === 'number' ? json.retry_after : Number(res.headers.get('retry-after') ?? '') || undefined;
    if (json?.error === 'invalid_grant') {
      throw new ClientResult(ErrorType.AuthorizationFailed, json.error_description ?? 'invalid_grant', { status: res.status, responseBody: text });
    }
    const message = json?.message ?? json?.error_description ?? `HTTP ${res.status}`;
    throw new ClientResult(ErrorType.HTTPError, message, {
      code: typeof json?.code === 'number' ? json.code : 0,
      status: res.status,
      responseBody: text,
      retryable: res.status === 429 || res.status >= 500,
      retryAfter,
    });
  }
}

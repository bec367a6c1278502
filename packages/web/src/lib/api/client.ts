import { ApiError, errorFromBody } from './errors.js';

/**
 * A small HTTP client for the public API at /api/v10, authenticated as a person (the raw user token, as the
 * official client sends it). JSON in and out; files go as multipart with `payload_json`, like every library does.
 */

export const API_BASE = '/api/v10';

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  /** Files to upload: sent as multipart `files[n]` with the body as `payload_json`. */
  files?: File[];
  signal?: AbortSignal;
  /** Skip the Authorization header (register, log in, invite previews). */
  anonymous?: boolean;
  headers?: Record<string, string>;
}

type TokenSource = () => string | null;

export class HttpClient {
  /** Called when the server refuses the token (401): the app logs out. */
  onUnauthorized: (() => void) | null = null;

  constructor(
    private readonly token: TokenSource,
    private readonly base = API_BASE,
  ) {}

  get<T>(path: string, opts?: RequestOptions) {
    return this.request<T>('GET', path, opts);
  }
  post<T>(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>('POST', path, { ...opts, body });
  }
  put<T>(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>('PUT', path, { ...opts, body });
  }
  patch<T>(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>('PATCH', path, { ...opts, body });
  }
  delete<T>(path: string, opts?: RequestOptions) {
    return this.request<T>('DELETE', path, opts);
  }

  async request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    let url = this.base + path;
    if (opts.query) {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(opts.query)) if (v !== undefined && v !== null) q.set(k, String(v));
      const s = q.toString();
      if (s) url += (url.includes('?') ? '&' : '?') + s;
    }
    const headers: Record<string, string> = { ...opts.headers };
    const token = opts.anonymous ? null : this.token();
    if (token) headers.authorization = token;
    let body: BodyInit | undefined;
    if (opts.files?.length) {
      const form = new FormData();
      form.append('payload_json', JSON.stringify(opts.body ?? {}));
      opts.files.forEach((f, i) => form.append(`files[${i}]`, f, f.name));
      body = form;
    } else if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }

    // A 429 is waited out and retried (twice at most), as the official client does for a person.
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(url, { method, headers, body, signal: opts.signal });
      if (res.status === 204) return undefined as T;
      const text = await res.text();
      let parsed: unknown = null;
      if (text) {
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = text;
        }
      }
      if (res.ok) return parsed as T;
      const err = errorFromBody(res.status, parsed);
      if (res.status === 429 && attempt < 2 && (err.retryAfter ?? 0) <= 10) {
        await new Promise((r) => setTimeout(r, Math.max(50, (err.retryAfter ?? 1) * 1000)));
        continue;
      }
      if (res.status === 401 && token) this.onUnauthorized?.();
      throw err;
    }
  }
}

export { ApiError };

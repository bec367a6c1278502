/** A platform error answer: HTTP status plus the JSON envelope `{code, message, errors?}` when there is one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: any,
  ) {
    super(`HTTP ${status}${body?.message ? `: ${body.message}` : ''}`);
  }
  get code(): number | undefined {
    return typeof this.body?.code === 'number' ? this.body.code : undefined;
  }
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  query?: Record<string, string | undefined>;
  /** Overrides the user token, e.g. `Bearer <access token>`; null sends no Authorization. */
  auth?: string | null;
}

/**
 * The Accord HTTP API as the logged-in person sees it (`/api/v10`, raw user token). The token is kept here and never
 * logged or put into an error.
 */
export class PlatformApi {
  private token: string | null = null;

  constructor(readonly baseUrl: string) {}

  get apiBase(): string {
    return `${this.baseUrl}/api/v10`;
  }

  setToken(token: string): void {
    this.token = token;
  }

  get userToken(): string {
    if (!this.token) throw new Error('not logged in');
    return this.token;
  }

  async request<T = any>(path: string, opts: RequestOptions = {}): Promise<T> {
    const url = new URL(`${this.apiBase}${path}`);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, v);
    const headers: Record<string, string> = {};
    const auth = opts.auth === undefined ? this.token : opts.auth;
    if (auth) headers.authorization = auth;
    let body: string | undefined;
    if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    const res = await fetch(url, { method: opts.method ?? 'GET', headers, body });
    const text = await res.text();
    let parsed: any = null;
    if (text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = { message: text.slice(0, 200) };
      }
    }
    if (!res.ok) throw new ApiError(res.status, parsed);
    return parsed as T;
  }

  /** Logs in with a username (or email) and password; returns the user token. */
  async login(login: string, password: string): Promise<string> {
    const r = await this.request<{ token: string }>('/auth/login', { method: 'POST', body: { login, password }, auth: null });
    return r.token;
  }
}

/** An HTTP API error as the platform answers it: its status and JSON envelope, shown whole in the message. */
export class AccordApiError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`${method} ${path} answered ${status}: ${typeof body === 'string' ? body : JSON.stringify(body)}`);
    this.name = 'AccordApiError';
  }

  /** The platform's JSON error code (50035, 10003, …), when the body has one. */
  get code(): number | undefined {
    return (this.body as { code?: number } | null)?.code;
  }
}

export interface RequestOptions {
  method?: string;
  /** Sent as JSON, or as it is when FormData. */
  body?: unknown;
  /** The Authorization header: a person's raw token, `Bot …` or `Bearer …`. */
  auth?: string;
  headers?: Record<string, string>;
}

/** Calls the API under `base` and returns the parsed JSON; throws AccordApiError on a status of 400 or more. */
export async function request<T = any>(base: string, path: string, opts: RequestOptions = {}): Promise<T> {
  const method = opts.method ?? (opts.body === undefined ? 'GET' : 'POST');
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.auth) headers.authorization = opts.auth;
  let body: string | FormData | undefined;
  if (opts.body instanceof FormData) body = opts.body;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(base + path, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: kept as text */
  }
  if (res.status >= 400) throw new AccordApiError(method, path, res.status, parsed);
  return parsed as T;
}

/**
 * The platform's error envelope `{code, message, errors?}` as an Error a screen can show. The 50035 tree is
 * flattened into one readable line per field, the way discord.js flattens it, minus the codes people do not need.
 */

export interface ErrorLeaf {
  code: string;
  message: string;
}

export interface FieldError {
  /** Dotted path of the field, e.g. `data.options.0.value`; empty for errors about the whole request. */
  path: string;
  code: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** The JSON error code (10003, 50013, 50035, …); 0 when the server sent none. */
    readonly code: number,
    message: string,
    readonly fields: FieldError[] = [],
    /** Seconds to wait, for 429s. */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The message to show a person: the first field error when there is one, else the envelope's message. */
  get readable(): string {
    return readableError(this);
  }

  /** The error of one field (for forms), if the server named it. */
  field(path: string): string | undefined {
    return this.fields.find((f) => f.path === path || f.path.endsWith('.' + path))?.message;
  }
}

/** Walks the 50035 `errors` tree into a flat list. Array indices arrive as string keys. */
export function flattenErrors(tree: unknown, prefix: string[] = []): FieldError[] {
  if (!tree || typeof tree !== 'object') return [];
  const out: FieldError[] = [];
  for (const [key, value] of Object.entries(tree as Record<string, unknown>)) {
    if (key === '_errors' && Array.isArray(value)) {
      for (const leaf of value as ErrorLeaf[]) out.push({ path: prefix.join('.'), code: String(leaf?.code ?? ''), message: String(leaf?.message ?? '') });
    } else if (value && typeof value === 'object') {
      out.push(...flattenErrors(value, [...prefix, key]));
    }
  }
  return out;
}

/** Builds the error from a response body (JSON envelope, OAuth2 `{error, error_description}`, or nothing). */
export function errorFromBody(status: number, body: unknown): ApiError {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  if (status === 429) {
    const retry = Number(b.retry_after ?? 1);
    return new ApiError(429, 0, `You are being rate limited. Try again in ${Math.ceil(retry)} s.`, [], retry);
  }
  if (typeof b.code === 'number' || typeof b.message === 'string') {
    return new ApiError(status, Number(b.code ?? 0), String(b.message ?? `Request failed (${status})`), flattenErrors(b.errors));
  }
  if (typeof b.error === 'string') return new ApiError(status, 0, String(b.error_description ?? b.error));
  return new ApiError(status, 0, status >= 500 ? 'The server had a problem. Try again in a moment.' : `Request failed (${status}).`);
}

/** Words for the codes a person meets most, where the server's message is terse. */
const FRIENDLY: Record<number, string> = {
  0: '',
  10003: 'This channel does not exist or you cannot see it.',
  10004: 'This server does not exist or you are not a member.',
  10006: 'This invite is invalid or has expired.',
  10008: 'This message no longer exists.',
  10062: 'This interaction expired. Run the command again.',
  40001: 'Your session has ended. Log in again.',
  50001: 'You do not have access to this.',
  50013: 'You do not have permission to do that.',
  50035: '',
  40005: 'That file is too large.',
};

/** One readable sentence for any error thrown by the client. */
export function readableError(err: unknown): string {
  if (err instanceof ApiError) {
    const field = err.fields[0];
    if (field) {
      const name = field.path
        .split('.')
        .filter((p) => !/^\d+$/.test(p))
        .pop()
        ?.replace(/_/g, ' ');
      return name ? `${capitalize(name)}: ${field.message}` : field.message;
    }
    return FRIENDLY[err.code] || err.message;
  }
  if (err instanceof TypeError) return 'Cannot reach the server. Check your connection.';
  if (err instanceof Error) return err.message;
  return String(err);
}

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

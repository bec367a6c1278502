/**
 * The one door external auth discovery and JWKS fetches go out through: no redirects (a 3xx is an error, so a
 * provider cannot bounce the server to an address it did not configure), a size cap and a time limit. The security
 * branch's guarded client (`core/outgoing.ts`, `guardedFetch`) replaces the body of `fetchProviderJson` at merge.
 */
export class OutgoingError extends Error {
  constructor(message: string, readonly kind: 'redirect' | 'status' | 'size' | 'timeout' | 'network' | 'json') {
    super(message);
  }
}

export interface OutgoingOptions {
  timeoutMs?: number;
  maxBytes?: number;
}

const DEFAULT_TIMEOUT_MS = 5000;
const DEFAULT_MAX_BYTES = 256 * 1024;

/** GETs a JSON document: redirects refused, at most `maxBytes`, within `timeoutMs`. */
export async function fetchProviderJson(url: string, opts: OutgoingOptions = {}): Promise<unknown> {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  let res: Response;
  try {
    res = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS), headers: { accept: 'application/json' } });
  } catch (err) {
    const name = (err as Error)?.name;
    throw new OutgoingError(`fetch ${url} failed`, name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'network');
  }
  if (res.status >= 300 && res.status < 400 || res.type === 'opaqueredirect') {
    await res.body?.cancel().catch(() => {});
    throw new OutgoingError(`${url} answered a redirect, which is not followed`, 'redirect');
  }
  if (!res.ok) {
    await res.body?.cancel().catch(() => {});
    throw new OutgoingError(`${url} answered ${res.status}`, 'status');
  }
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > maxBytes) {
    await res.body?.cancel().catch(() => {});
    throw new OutgoingError(`${url} is larger than ${maxBytes} bytes`, 'size');
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > maxBytes) throw new OutgoingError(`${url} is larger than ${maxBytes} bytes`, 'size');
      chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof OutgoingError) throw err;
    throw new OutgoingError(`reading ${url} failed`, 'timeout');
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new OutgoingError(`${url} is not JSON`, 'json');
  }
}

import { OutgoingError as GuardedError, PROVIDER_DOC_BYTES, describeFailure, outgoingFor } from '../../../core/outgoing.js';
import type { Ctx } from '../../context.js';

/**
 * External auth discovery and JWKS fetches, through the server's guarded client (core/outgoing.ts: the operator's
 * address policy checked at connect time, no redirects followed, a size cap and a time limit).
 */
export class OutgoingError extends Error {
  constructor(
    message: string,
    readonly kind: 'redirect' | 'status' | 'size' | 'timeout' | 'network' | 'json' | 'refused',
  ) {
    super(message);
  }
}

export interface OutgoingOptions {
  timeoutMs?: number;
  maxBytes?: number;
}

const DEFAULT_TIMEOUT_MS = 5000;

/** The raw answer (status, location, body) of one GET; failures in the guarded client's fixed words. */
export async function getProvider(ctx: Ctx, url: string, opts: OutgoingOptions = {}) {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  try {
    return await outgoingFor(ctx).request(url, { headers: { accept: 'application/json' }, timeoutMs, maxBytes: opts.maxBytes ?? PROVIDER_DOC_BYTES });
  } catch (err) {
    const e = err instanceof GuardedError ? err : describeFailure(err, timeoutMs);
    throw new OutgoingError(`${url}: ${e.message}`, e.kind);
  }
}

/** GETs a JSON document: redirects refused, at most `maxBytes` (256 KiB), within `timeoutMs`. */
export async function fetchProviderJson(ctx: Ctx, url: string, opts: OutgoingOptions = {}): Promise<unknown> {
  const res = await getProvider(ctx, url, opts);
  if (res.status >= 300 && res.status < 400) throw new OutgoingError(`${url} answered a redirect, which is not followed`, 'redirect');
  if (res.status < 200 || res.status > 299) throw new OutgoingError(`${url} answered ${res.status}`, 'status');
  try {
    return JSON.parse(res.body.toString('utf8'));
  } catch {
    throw new OutgoingError(`${url} is not JSON`, 'json');
  }
}

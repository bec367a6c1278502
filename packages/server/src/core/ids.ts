import type { ApiError } from './errors.js';

const MAX_BIGINT = 1n << 63n;

/** An id we may hand to the database: digits that fit a signed BIGINT (PostgreSQL refuses larger values). */
export function isId(v: unknown): v is string {
  return typeof v === 'string' && /^\d{1,20}$/.test(v) && BigInt(v) < MAX_BIGINT;
}

/** Path ids: a malformed one is reported like an unknown one, never as a 500. */
export function checkId(v: string | undefined, unknown: () => ApiError): string {
  if (!isId(v)) throw unknown();
  return v;
}

/** How the HTTP API applies rate limits (`--rate-limits`). */
export type RateLimitMode = 'real' | 'relaxed' | 'off';

/** `relaxed` multiplies every count by 10 for local load; `off` disables limits. `true`/`false` are aliases of real/off. */
export function rateLimitMode(v: unknown): RateLimitMode {
  if (v === true || v === undefined) return 'real';
  if (v === false) return 'off';
  const s = String(v).toLowerCase();
  if (['real', 'true', '1', 'yes', 'on'].includes(s)) return 'real';
  if (['off', 'false', '0', 'no'].includes(s)) return 'off';
  if (s === 'relaxed') return 'relaxed';
  throw new Error(`invalid --rate-limits: ${String(v)} (real, relaxed or off)`);
}

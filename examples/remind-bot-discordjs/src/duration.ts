/** "In how long", as people type it: '10m', '2h', '1h30m', '45s', '1d'. */
const UNIT: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
export const MAX_DELAY_MS = 7 * UNIT.d;

/** Milliseconds, or null when the text is not a duration between one second and seven days. */
export function parseDelay(text: string): number | null {
  const compact = text.trim().toLowerCase().replace(/\s+/g, '');
  const parts = [...compact.matchAll(/(\d+)([smhd])/g)];
  if (!parts.length || parts.map((p) => p[0]).join('') !== compact) return null;
  const ms = parts.reduce((sum, [, n, unit]) => sum + Number(n) * UNIT[unit], 0);
  return ms >= 1000 && ms <= MAX_DELAY_MS ? ms : null;
}

/** A duration as tests write it: milliseconds, or '250ms', '30s', '30m', '2h', '7d', also combined ('1h30m'). */
export type Duration = number | string;

const UNIT: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function toMs(d: Duration): number {
  if (typeof d === 'number') {
    if (!Number.isFinite(d) || d < 0) throw new RangeError(`a duration must be a non-negative number of ms, not ${d}`);
    return d;
  }
  const parts = [...d.trim().matchAll(/(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)/g)];
  if (!parts.length || parts.map((p) => p[0]).join('') !== d.replace(/\s+/g, '')) throw new RangeError(`"${d}" is not a duration like '30s', '30m' or '1h30m'`);
  return parts.reduce((sum, [, n, unit]) => sum + Number(n) * UNIT[unit], 0);
}

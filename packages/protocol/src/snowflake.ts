/** The platform's epoch (2015-01-01T00:00:00Z): a snowflake's top 42 bits count milliseconds from it. */
export const DISCORD_EPOCH = 1420070400000n;

const SNOWFLAKE_RE = /^\d{1,20}$/;

/** A decimal snowflake string that fits 64 bits. */
export function isSnowflake(v: unknown): v is string {
  return typeof v === 'string' && SNOWFLAKE_RE.test(v) && BigInt(v) < 1n << 64n;
}

/** When the snowflake was made, in ms since the Unix epoch. */
export function snowflakeTime(id: string): number {
  return Number((BigInt(id) >> 22n) + DISCORD_EPOCH);
}

/** The smallest snowflake at a given time (integer ms), for time-based comparisons. */
export function snowflakeAt(ms: number): string {
  return ((BigInt(ms) - DISCORD_EPOCH) << 22n).toString();
}

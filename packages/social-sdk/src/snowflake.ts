/** Ids are snowflakes as decimal strings (numbers would lose precision); `bigint` is accepted as input. */
export type Snowflake = string;
export type SnowflakeInput = string | bigint;

const EPOCH = 1420070400000n;

export function snowflake(id: SnowflakeInput): Snowflake {
  const s = typeof id === 'bigint' ? id.toString() : id;
  if (!/^\d{1,20}$/.test(s)) throw new TypeError(`not a snowflake: ${String(id).slice(0, 32)}`);
  return s;
}

/** The creation time (ms since the epoch) of a snowflake. */
export const snowflakeTime = (id: Snowflake): number => Number((BigInt(id) >> 22n) + EPOCH);

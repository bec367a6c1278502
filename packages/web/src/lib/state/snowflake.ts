/** Snowflakes compared as numbers without BigInt: longer is newer, then lexical order. */
export function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** Milliseconds since the Unix epoch encoded in a snowflake. */
export function snowflakeTime(id: string): number {
  return Number(BigInt(id) >> 22n) + 1420070400000;
}

let counter = 0;
/** A nonce for a message or an interaction: a snowflake of now, as the official client sends. */
export function makeNonce(): string {
  counter = (counter + 1) % 4096;
  return ((BigInt(Date.now() - 1420070400000) << 22n) | BigInt(counter)).toString();
}

/**
 * The object without its undefined fields. Serializers write optional fields as `field: cond ? value : undefined`, so
 * that the compiler checks their names against the wire type, and return them through this: absent fields are then
 * absent in memory too (bus consumers and tests read `'user' in member`), not only in JSON.
 */
export function dropUndefined<T extends object>(o: T): T {
  const out: Partial<T> = {};
  for (const k in o) if (o[k] !== undefined) out[k] = o[k];
  // Only undefined-valued keys were left out, and those are optional in T (or T allows undefined).
  return out as T;
}

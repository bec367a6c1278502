/**
 * Extra listeners of the Gateway's dispatches, beside the store: features that keep their own state (Activities)
 * subscribe here instead of growing the store's switch. Each tap sees every dispatch once, after the store did.
 */
type Tap = (t: string, d: any) => void;
const taps = new Set<Tap>();

export function onDispatch(tap: Tap): () => void {
  taps.add(tap);
  return () => taps.delete(tap);
}

export function runTaps(t: string, d: any): void {
  for (const tap of taps) {
    try {
      tap(t, d);
    } catch (err) {
      console.error('dispatch tap failed', t, err);
    }
  }
}

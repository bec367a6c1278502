/**
 * Reading the head of a Gateway dispatch frame without parsing it: shared by the TypeScript harness and the plain-JS
 * load threads (bench/load-worker.mjs), which run without a TypeScript loader.
 */

/** Reads `"s":N` from the head of a dispatch frame (-1 when absent). */
export function seqOf(frame) {
  const i = frame.indexOf('"s":');
  if (i < 0 || i > 16) return -1;
  let n = 0;
  for (let j = i + 4; j < frame.length; j++) {
    const c = frame[j];
    if (c < 48 || c > 57) return j === i + 4 ? -1 : n;
    n = n * 10 + (c - 48);
  }
  return n;
}

const MARK = Buffer.from('"content":"fo:');

/** The benchmark's message number N from content "fo:N ..." (-1 when absent). */
export function markerOf(frame) {
  const i = frame.indexOf(MARK);
  if (i < 0) return -1;
  let n = 0;
  let j = i + MARK.length;
  for (; j < frame.length; j++) {
    const c = frame[j];
    if (c < 48 || c > 57) break;
    n = n * 10 + (c - 48);
  }
  return j === i + MARK.length ? -1 : n;
}

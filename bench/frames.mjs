/**
 * Reading the head of a Gateway dispatch frame without parsing it: shared by the TypeScript harness and the plain-JS
 * load threads (bench/load-worker.mjs), which run without a TypeScript loader.
 */

const S = Buffer.from('"s":');
const OP = Buffer.from('"op":');

function digitsAt(frame, j) {
  let n = 0;
  const from = j;
  for (; j < frame.length; j++) {
    const c = frame[j];
    if (c < 48 || c > 57) break;
    n = n * 10 + (c - 48);
  }
  return j === from ? -1 : n;
}

/** Every field of a dispatch frame but `d` sits in its first bytes (`{"t":"NAME","s":N,"op":0,"d":…}`). */
const HEAD = 64;

/**
 * Reads a dispatch frame's `"s":N`: in its head, whatever the key order (`{"op":0,"s":N,…}`, `{"t":"NAME","s":N,…}`), or
 * as its last field (`{…,"d":{…},"s":N}`, an earlier layout of the Gateway). -1 when absent or null.
 */
export function seqOf(frame) {
  const i = frame.subarray(0, HEAD).indexOf(S);
  if (i >= 0) return digitsAt(frame, i + 4);
  const tail = Math.max(0, frame.length - 32);
  const j = frame.subarray(tail).lastIndexOf(S);
  return j < 0 ? -1 : digitsAt(frame, tail + j + 4);
}

/** The frame's `"op"`, looked for in its head whatever the key order (-1 when absent). */
export function opOf(frame) {
  const i = frame.subarray(0, HEAD).indexOf(OP);
  return i < 0 ? -1 : digitsAt(frame, i + 5);
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

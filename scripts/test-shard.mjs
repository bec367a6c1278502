// Splits test files into n shards of about equal time, by the times measured in scripts/test-times.json (written by
// `ACCORD_TEST_TIMES=<file> npm test`), so CI's lanes end together. Longest file first, each to the shard with the
// least time so far; a file with no measured time counts as the median one. Every file costs a constant on top of
// its measured time, for its share of its group's process start and the loading of its bundle (scripts/test-groups.mjs),
// which the reporter does not see.
import fs from 'node:fs';
import path from 'node:path';

const PER_FILE_S = 0.4;

/** The measured seconds per file (by path relative to the repository root), or {} when there are none. */
export function readTimes(root) {
  const file = path.join(root, 'scripts', 'test-times.json');
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
}

/** The files of shards `parts` (1-based) out of `n`, in the order given. */
export function shardFiles(files, parts, n, times, root) {
  const known = files
    .map((f) => times[path.relative(root, f)])
    .filter((t) => typeof t === 'number')
    .sort((a, b) => a - b);
  const median = known.length ? known[Math.floor(known.length / 2)] : 0;
  const cost = (f) => (times[path.relative(root, f)] ?? median) + PER_FILE_S;
  const load = new Array(n).fill(0);
  const shardOf = new Map();
  for (const f of [...files].sort((a, b) => cost(b) - cost(a) || a.localeCompare(b))) {
    const k = load.indexOf(Math.min(...load));
    load[k] += cost(f);
    shardOf.set(f, k + 1);
  }
  return files.filter((f) => parts.includes(shardOf.get(f)));
}

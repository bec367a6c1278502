// A node:test reporter that writes how long each test file took, as JSON ({ "<file>": seconds }), so CI can split the
// suite between its lanes by measured time (scripts/test-times.json, read by scripts/test-shard.mjs).
// A file's time is the sum of its top-level tests and suites, hooks included (the servers they start); its process's
// start is not in it (node:test reports no per-file event with a time), so the shard adds a constant per file.
import path from 'node:path';

export default async function* fileTimes(source) {
  const times = {};
  for await (const event of source) {
    if ((event.type !== 'test:pass' && event.type !== 'test:fail') || event.data.nesting !== 0 || !event.data.file) continue;
    // In a group (scripts/test-groups.mjs) each file is a suite of scripts/test-shim.mjs named by the file's path.
    const file = event.data.file.endsWith('test-shim.mjs') ? path.resolve(event.data.name) : event.data.file;
    times[file] = (times[file] ?? 0) + (event.data.details?.duration_ms ?? 0) / 1000;
  }
  yield `${JSON.stringify(times, null, 1)}\n`;
}

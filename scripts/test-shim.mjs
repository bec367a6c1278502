// node:test as the bundled test files see it (scripts/test-build.mjs points their `node:test` here). Run on its own, a
// file gets node:test's own functions. In a group (scripts/test-groups.mjs), where one process runs several files,
// each file's top-level tests, suites and hooks are gathered while its module loads, then registered as the children
// of one suite named after the file when the next file begins: a file's `before`, `after` and `beforeEach` at its top
// level then apply to its own tests, as in a process of its own, not to the whole group's. The exports are live
// bindings: they are node:test's own functions except while a group loads, so that node:test records where each test
// is declared (a top-level test of a grouped file is recorded here).
import * as real from 'node:test';

/**
 * Each file's suite has a time limit: node:test does not time out a suite's own hooks, so a hook that never ends (a
 * connection awaited without a limit) would hold the rest of the group, where it held only its own file before.
 */
const FILE_TIMEOUT_MS = Number(process.env.ACCORD_TEST_FILE_TIMEOUT_MS) || 5 * 60_000;

/** The top-level registrations of the file being loaded, or null. */
let pending = null;
let label = '';

function gathering(fn) {
  const wrapped = (...args) => {
    pending.push(() => fn(...args));
  };
  for (const k of ['skip', 'todo', 'only']) if (typeof fn[k] === 'function') wrapped[k] = gathering(fn[k]);
  return wrapped;
}
const GATHER = {
  test: gathering(real.test),
  it: gathering(real.it),
  describe: gathering(real.describe),
  suite: gathering(real.suite),
  before: gathering(real.before),
  after: gathering(real.after),
  beforeEach: gathering(real.beforeEach),
  afterEach: gathering(real.afterEach),
  skip: gathering(real.skip),
  todo: gathering(real.todo),
  only: gathering(real.only),
};

export let { test, it, describe, suite, before, after, beforeEach, afterEach, skip, todo, only } = real;
export const { mock, run } = real;
export { test as default };

function use(fns) {
  ({ test, it, describe, suite, before, after, beforeEach, afterEach, skip, todo, only } = fns);
}

/** A group's entry calls this before importing each of its files, and with no name after the last. */
export function beginFile(name) {
  const calls = pending;
  use(real);
  if (calls?.length) real.describe(label, { timeout: FILE_TIMEOUT_MS }, () => calls.forEach((call) => call()));
  pending = name ? [] : null;
  label = name ?? '';
  if (pending) use(GATHER);
  // After the group: a file whose suite timed out may have left its servers open, which would keep this process (and
  // the run) alive once every test has reported. The timer does not keep the process alive by itself.
  else real.after(() => void setTimeout(() => process.exit(), 10_000).unref());
}

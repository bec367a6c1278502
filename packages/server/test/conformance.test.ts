import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSpec } from '../conformance/spec.js';
import { validate } from '../conformance/validate.js';
import { runConformance, type ConformanceReport } from '../conformance/run.js';
import { renderMarkdown, summaryLine } from '../conformance/report.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const baseline = JSON.parse(fs.readFileSync(path.join(here, '../conformance/baseline.json'), 'utf8')) as { passing: number; total: number };

const user = {
  id: '1100000000000000001', username: 'alice', discriminator: '0', global_name: 'Alice', avatar: null,
  public_flags: 0, flags: 0, primary_guild: null,
};

test('conformance validator: strict on types and required fields, lenient (warning) on undeclared fields', async () => {
  const spec = await loadSpec();
  const User = spec.schema('UserResponse');
  assert.deepEqual(validate(User, user), { failures: [], warnings: [] });

  const extra = validate(User, { ...user, clan: null, something_new: 1 });
  assert.deepEqual(extra.failures, []);
  assert.deepEqual(extra.warnings.sort(), ['clan', 'something_new']);

  const { username: _u, ...missing } = user;
  const m = validate(User, missing);
  assert.equal(m.failures.length, 1);
  assert.match(m.failures[0], /^username: required field missing/);

  const wrongType = validate(User, { ...user, id: 1100000000000000001 });
  assert.equal(wrongType.failures.length, 1);
  assert.match(wrongType.failures[0], /^id: expected string, got number/);

  const nullNotAllowed = validate(User, { ...user, username: null });
  assert.match(nullNotAllowed.failures.join(), /username: expected string, got null/);

  // Unions: the closest member decides; a member matched apart from extra fields passes with warnings.
  const getChannel = spec.operations.find((o) => o.operationId === 'get_channel')!;
  const dm = { id: '1', type: 1, last_message_id: null, flags: 0, recipients: [user], extra_field: true };
  const v = validate(getChannel.success.get(200)!, dm);
  assert.deepEqual(v.failures, []);
  assert.deepEqual(v.warnings, ['extra_field']);
  const bad = validate(getChannel.success.get(200)!, { ...dm, recipients: 'nobody' });
  assert.equal(bad.failures.length, 1);
  assert.match(bad.failures[0], /recipients: expected array, got string/);

  // Nested arrays report the path with indices collapsed.
  const list = spec.operations.find((o) => o.operationId === 'list_message_reactions_by_emoji')!;
  assert.match(validate(list.success.get(200)!, [user, { ...user, id: 2 }]).failures.join(), /^\[\]\.id: expected string/);
});

test('conformance oracle: the known spec defects are patched, not the check', async () => {
  const spec = await loadSpec();
  // Nested _errors[].code is a string; the top-level code stays an integer.
  const err = spec.schema('ErrorResponse');
  const body = { code: 50035, message: 'Invalid Form Body', errors: { content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 2000 or fewer in length.' }] } } };
  assert.deepEqual(validate(err, body).failures, []);
  assert.notDeepEqual(validate(err, { ...body, code: '50035' }).failures, []);
  // 429 without code.
  assert.deepEqual(validate(spec.schema('RatelimitedResponse'), { message: 'You are being rate limited.', retry_after: 1.5, global: false }).failures, []);
  assert.notDeepEqual(validate(spec.schema('RatelimitedResponse'), { message: 'x', global: false }).failures, []);
  // Enums completed.
  assert.deepEqual(validate(spec.schema('ChannelTypes'), 16).failures, []);
  assert.deepEqual(validate(spec.schema('MessageReferenceType'), 1).failures, []);
  assert.deepEqual(validate(spec.schema('EntitlementTypes'), 4).failures, []);
  assert.deepEqual(validate(spec.schema('InteractionCallbackTypes'), 10).failures, []);
  assert.notDeepEqual(validate(spec.schema('ChannelTypes'), 17).failures, []);
  // The operation list: 246 in the package, 242 in openapi.json @74fda0f.
  assert.equal(spec.operations.length, 246);
  assert.equal(spec.operations.filter((o) => o.primary).length, 242);
  assert.equal(new Set(spec.operations.map((o) => o.operationId)).size, 246);
});

test('conformance run: every operation is attempted and classified, and the figure does not regress', { timeout: 90_000 }, async () => {
  const report: ConformanceReport = await runConformance();
  const spec = await loadSpec();
  assert.equal(report.totalPrimary, 242);
  assert.equal(report.totalAll, 246);
  assert.deepEqual(report.results.map((r) => r.operationId).sort(), spec.operations.map((o) => o.operationId).sort());
  for (const r of report.results) {
    assert.ok(['pass', 'warn', 'fail'].includes(r.outcome), r.operationId);
    if (r.outcome === 'fail') assert.ok(r.why.length > 0, `${r.operationId} fails without a reason`);
    if (r.outcome !== 'fail') assert.ok(r.status !== null && r.status >= 200 && r.status < 300, r.operationId);
    assert.ok(!r.why.startsWith('harness error'), `${r.operationId}: ${r.why}`);
  }
  // The harness's own requests are valid for the spec's request schemas.
  assert.deepEqual(report.results.filter((r) => r.requestIssues).map((r) => `${r.operationId}: ${r.requestIssues!.join('; ')}`), []);
  const md = renderMarkdown(report);
  for (const o of spec.operations) assert.ok(md.includes(`\`${o.operationId}\``), o.operationId);
  assert.match(summaryLine(report), /^conformance: \d+\/242 operations$/);
  assert.ok(
    report.passingPrimary >= baseline.passing,
    `conformance regressed: ${report.passingPrimary}/242, baseline ${baseline.passing}. Failing: ${report.results.filter((r) => r.outcome === 'fail' && r.cause !== 'missing-route').map((r) => `${r.operationId} (${r.why})`).join('; ')}`,
  );
});

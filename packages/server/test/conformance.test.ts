import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSpec } from '../conformance/spec.js';
import { validate } from '../conformance/validate.js';
import { judge, runConformance, type ConformanceReport } from '../conformance/run.js';
import { startTestServer } from './helpers/server.js';
import { renderMarkdown, summaryLine } from '../conformance/report.js';

const here = path.dirname(fileURLToPath(import.meta.url));
type Outcome = 'pass' | 'warn' | 'partial' | 'fail';
const baseline = JSON.parse(fs.readFileSync(path.join(here, '../conformance/baseline.json'), 'utf8')) as {
  passing: number;
  total: number;
  operations: Record<string, { outcome: Outcome; warnings: string[]; emptyLists?: string[] }>;
};

/**
 * Operations whose outcome, undeclared fields or empty lists are worse than the baseline's: a new (allowed)
 * undeclared field and a list that became empty are regressions too.
 */
export function regressions(report: Pick<ConformanceReport, 'results'>, base: typeof baseline): string[] {
  const rank = { fail: 0, partial: 1, warn: 2, pass: 3 } as const;
  const out: string[] = [];
  for (const r of report.results) {
    const b = base.operations[r.operationId];
    if (!b) continue;
    if (rank[r.outcome] < rank[b.outcome]) out.push(`${r.operationId}: ${b.outcome} -> ${r.outcome} (${r.why})`);
    const added = r.warnings.filter((w) => !b.warnings.includes(w));
    if (added.length) out.push(`${r.operationId}: new undeclared fields ${added.join(', ')}`);
    const emptied = (r.emptyLists ?? []).filter((l) => !(b.emptyLists ?? []).includes(l));
    if (emptied.length) out.push(`${r.operationId}: new empty lists ${emptied.join(', ')}`);
  }
  return out;
}

const user = {
  id: '1100000000000000001',
  username: 'alice',
  discriminator: '0',
  global_name: 'Alice',
  avatar: null,
  public_flags: 0,
  flags: 0,
  primary_guild: null,
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

  // eslint-disable-next-line no-loss-of-precision -- an id sent as a JSON number, precision lost as a client would
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

test('mutation: renaming an optional field of a real answer fails the operation (tags -> tag on a role)', async () => {
  const spec = await loadSpec();
  const op = spec.operations.find((o) => o.operationId === 'get_guild_role')!;
  const t = await startTestServer();
  try {
    // The bot's managed role carries the optional `tags` ({bot_id}).
    const roles = await t.api(`/guilds/${t.world.guildId}/roles`, { token: t.world.botToken, bot: true });
    const managed = roles.body.find((r: any) => r.tags?.bot_id === t.world.botUserId);
    assert.ok(managed, 'the bot role has tags');
    const res = await t.api(`/guilds/${t.world.guildId}/roles/${managed.id}`, { token: t.world.botToken, bot: true });
    const base = { operationId: op.operationId, method: 'GET', path: op.path, primary: true };
    const answer = (json: unknown) => ({ status: 200, contentType: 'application/json', text: JSON.stringify(json), json, isJson: true });
    const real = judge(base, op, answer(res.body));
    assert.notEqual(real.outcome, 'fail', real.why);
    const { tags, ...rest } = res.body;
    const mutated = judge(base, op, answer({ ...rest, tag: tags }));
    assert.equal(mutated.outcome, 'fail');
    assert.match(mutated.why, /undeclared fields not in the reviewed allow-list: tag$/);
    // The same rename reported against the baseline is a regression of that operation.
    assert.ok(
      regressions({ results: [{ ...mutated, operationId: 'get_guild_role' }] }, baseline).includes(
        `get_guild_role: ${baseline.operations.get_guild_role.outcome} -> fail (${mutated.why})`,
      ),
    );
    // An allowed field on the wrong kind of object is not allowed: `clan` belongs on users, not on roles.
    assert.equal(judge(base, op, answer({ ...res.body, clan: null })).outcome, 'fail');
  } finally {
    await t.close();
  }
});

test('the per-operation baseline catches one regression hidden by one fix', () => {
  const ops = Object.keys(baseline.operations);
  const passing = ops.filter((id) => baseline.operations[id].outcome !== 'fail');
  // A baseline with one failing operation (the real one may have none left): that one gets fixed, another breaks.
  const fixed = passing[passing.length - 1];
  const base = { ...baseline, operations: { ...baseline.operations, [fixed]: { ...baseline.operations[fixed], outcome: 'fail' as const } } };
  const results = ops.map((id) => ({
    operationId: id,
    outcome: base.operations[id].outcome,
    warnings: base.operations[id].warnings,
    emptyLists: base.operations[id].emptyLists ?? [],
    why: '',
  }));
  // Swap one pass for a fail and one fail for a pass: the count is unchanged, the per-operation check is not fooled.
  const broken = results.map((r) =>
    r.operationId === passing[0] ? { ...r, outcome: 'fail' as const, why: 'mutated' } : r.operationId === fixed ? { ...r, outcome: 'pass' as const } : r,
  );
  assert.equal(broken.filter((r) => r.outcome !== 'fail').length, results.filter((r) => r.outcome !== 'fail').length);
  assert.deepEqual(regressions({ results: broken } as any, base), [`${passing[0]}: ${base.operations[passing[0]].outcome} -> fail (mutated)`]);
  // A new undeclared field on an operation is a regression too.
  const extra = results.map((r) => (r.operationId === passing[1] ? { ...r, outcome: 'warn' as const, warnings: [...r.warnings, 'tag'] } : r));
  assert.ok(regressions({ results: extra } as any, baseline).some((x) => x.startsWith(`${passing[1]}: `)));
});

test('conformance oracle: the known spec defects are patched, not the check', async () => {
  const spec = await loadSpec();
  // Nested _errors[].code is a string; the top-level code stays an integer.
  const err = spec.schema('ErrorResponse');
  const body = {
    code: 50035,
    message: 'Invalid Form Body',
    errors: { content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 2000 or fewer in length.' }] } },
  };
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
    assert.ok(['pass', 'warn', 'partial', 'fail'].includes(r.outcome), r.operationId);
    if (r.outcome === 'fail') assert.ok(r.why.length > 0, `${r.operationId} fails without a reason`);
    if (r.outcome !== 'fail') assert.ok(r.status !== null && r.status >= 200 && r.status < 300, r.operationId);
    assert.ok(!r.why.startsWith('harness error'), `${r.operationId}: ${r.why}`);
  }
  // The harness's own requests are valid for the spec's request schemas.
  assert.deepEqual(
    report.results.filter((r) => r.requestIssues).map((r) => `${r.operationId}: ${r.requestIssues!.join('; ')}`),
    [],
  );
  const md = renderMarkdown(report);
  for (const o of spec.operations) assert.ok(md.includes(`\`${o.operationId}\``), o.operationId);
  assert.match(summaryLine(report), /^conformance: \d+\/242 operations$/);
  // Per operation: one operation regressing is a failure even when another one is fixed.
  assert.deepEqual(regressions(report, baseline), [], 'per-operation regressions against conformance/baseline.json');
  assert.ok(
    report.passingPrimary >= baseline.passing,
    `conformance regressed: ${report.passingPrimary}/242, baseline ${baseline.passing}. Failing: ${report.results
      .filter((r) => r.outcome === 'fail' && r.cause !== 'missing-route')
      .map((r) => `${r.operationId} (${r.why})`)
      .join('; ')}`,
  );
});

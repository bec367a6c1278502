/**
 * `npm run conformance`: runs every operation of the spec, writes docs/conformance.md at the repository root and
 * prints `conformance: N/242 operations`. Flags: `--verbose` (one line per operation), `--no-write` (no file),
 * `--update-baseline` (raise conformance/baseline.json to the figure of this run).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runConformance } from './run.js';
import { renderMarkdown, summaryLine } from './report.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const DOC_PATH = path.resolve(here, '../../../docs/conformance.md');
export const BASELINE_PATH = path.resolve(here, 'baseline.json');

const args = new Set(process.argv.slice(2));
const report = await runConformance({ verbose: args.has('--verbose') });
if (!args.has('--no-write')) {
  fs.mkdirSync(path.dirname(DOC_PATH), { recursive: true });
  fs.writeFileSync(DOC_PATH, renderMarkdown(report));
}
if (args.has('--update-baseline')) {
  // The per-operation record (outcome and undeclared fields) is what the suite holds every later run to.
  const operations = Object.fromEntries(
    report.results.map((r) => [r.operationId, { outcome: r.outcome, warnings: [...r.warnings].sort(), emptyLists: [...r.emptyLists].sort() }]),
  );
  fs.writeFileSync(BASELINE_PATH, `${JSON.stringify({ passing: report.passingPrimary, total: report.totalPrimary, operations }, null, 2)}\n`);
}
console.log(
  `all ${report.totalAll} operations of discord-api-spec@${report.specVersion}: ${report.passingAll}/${report.totalAll}; docs/conformance.md${args.has('--no-write') ? ' not written' : ' written'}`,
);
console.log(summaryLine(report));
process.exit(0);

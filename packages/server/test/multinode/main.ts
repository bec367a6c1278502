import { parseArgs } from 'node:util';
import { describe, runScenario } from './scenario.js';
import { unsupported } from './topology.js';

/**
 * The multi-node test by hand, full size: `npm run multinode -w @accord/server -- --sessions 3000 [--rate 20]`.
 * Needs root, iproute2, DATABASE_URL and REDIS_URL (defaults: this machine's). Exits 1 unless every session got
 * every message exactly once with an unbroken sequence.
 */
const { values } = parseArgs({ options: { sessions: { type: 'string' }, rate: { type: 'string' } } });
const why = unsupported();
if (why) {
  console.error(`multinode: ${why}`);
  process.exit(2);
}
const sessions = Number(values.sessions ?? process.env.MULTINODE_SESSIONS ?? 3000);
const rate = Number(values.rate ?? 20);
const report = await runScenario({
  sessions,
  rate,
  databaseUrl: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
  redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
  log: (line) => console.log(`multinode: ${line}`),
});
console.log(describe(report));
const ok =
  report.lost === 0 && report.duplicated === 0 && report.seqBreaks === 0 && report.invalidSessions === 0 && report.refused.length === 0 && report.posted > 0;
console.log(ok ? 'multinode: PASS' : 'multinode: FAIL');
process.exit(ok ? 0 : 1);

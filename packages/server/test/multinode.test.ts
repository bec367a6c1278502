import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describe, runScenario } from './multinode/scenario.js';
import { unsupported } from './multinode/topology.js';

/**
 * The multi-node test, CI-sized (issue 16): 2 API and 3 gateway nodes, each a real process in its own network
 * namespace, on the run's PostgreSQL schema and Redis prefix. Sessions spread over the gateway nodes listen while a
 * poster posts with enforced nonces; one gateway node and then one API node are killed with SIGKILL. Every session
 * must get every posted message exactly once, with `s` unbroken. The full size runs by hand:
 * `npm run multinode -w @accord/server -- --sessions 3000`.
 */
const SESSIONS = Number(process.env.MULTINODE_SESSIONS || 300);
const why = !process.env.DATABASE_URL || !process.env.REDIS_URL ? 'needs DATABASE_URL and REDIS_URL' : unsupported();

test(
  `${SESSIONS} sessions on 3 gateway nodes: a gateway node and an API node are killed while posting, and nothing is lost or duplicated`,
  { skip: why ?? false, timeout: 600_000 },
  async (t) => {
    const report = await runScenario({
      sessions: SESSIONS,
      rate: 20,
      databaseUrl: process.env.DATABASE_URL!,
      redisUrl: process.env.REDIS_URL!,
      log: (line) => t.diagnostic(line),
    });
    const text = describe(report);
    for (const line of text.split('\n')) t.diagnostic(line);
    assert.deepEqual(report.refused, [], text);
    assert.ok(report.posted > 0, text);
    assert.ok(report.movedSessions > 0, text);
    // After the API node's death the next post goes to it first and is sent again to the other one.
    assert.ok(report.retried.length > 0, text);
    assert.equal(report.invalidSessions, 0, `every session of the killed gateway node resumes on another\n${text}`);
    assert.equal(report.resumedSessions, report.movedSessions, text);
    assert.equal(report.lost, 0, text);
    assert.equal(report.duplicated, 0, text);
    assert.equal(report.seqBreaks, 0, text);
    assert.equal(report.deliveredOnce, report.expected, text);
  },
);

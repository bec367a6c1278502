/**
 * Dev faults in distributed mode: a rule made through one node applies on every node (changes travel on the bus),
 * uses counted on one node are seen on the other, a node started later gets the rules, and a one-shot Gateway action
 * reaches sessions of another node.
 * Needs REDIS_URL and DATABASE_URL (the CI's Redis run); skipped otherwise.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { twoNodes } from './helpers/two-nodes.js';
import { startTestServer } from './helpers/server.js';
import { addFault, faultsApi } from './helpers/faults.js';
import { until } from './helpers/wait.js';

const enabled = !!process.env.REDIS_URL && !!process.env.DATABASE_URL;

describe('faults on two nodes of one deployment', { skip: !enabled && 'needs REDIS_URL and DATABASE_URL' }, () => {
  const nodes = twoNodes({ overrides: { dev: true } });
  const me = (t: typeof nodes.a) => t.api('/users/@me', { token: t.world.botToken, bot: true });

  test("a rule made on node A answers on node B; B's uses and A's deletion reach the other node", async () => {
    const { a, b } = nodes;
    const rule = await addFault(a, { application_id: a.world.applicationId, kind: 'http', route: 'GET /users/@me', status: 503, count: 3 });
    await until(async () => (await me(b)).status === 503, 5000, 'the rule on node B');
    await until(async () => (await faultsApi(a, 'GET')).body[0]?.remaining === 2, 5000, "node B's use counted on node A");
    assert.equal((await faultsApi(a, 'DELETE', `/${rule.id}`)).status, 204);
    await until(async () => (await faultsApi(b, 'GET')).body.length === 0, 5000, 'the deletion on node B');
    assert.equal((await me(b)).status, 200);
  });

  test('a node that starts later is given the rules the others hold', async () => {
    const { a } = nodes;
    const rule = await addFault(a, { application_id: a.world.applicationId, kind: 'voice', loss: 0.5, ttl_ms: 60_000 });
    const c = await startTestServer({ overrides: { dev: true }, join: a });
    try {
      await until(
        async () => (await faultsApi(c, 'GET')).body.some((r: any) => r.id === rule.id && r.loss === 0.5 && r.expires_at === rule.expires_at),
        5000,
        'the rule on the new node',
      );
    } finally {
      await c.close();
      await faultsApi(a, 'DELETE');
    }
  });

  test("gateway.close made on node A closes the bot's session on node B", async () => {
    const { a, b } = nodes;
    const gw = await nodes.connect(b);
    await gw.identify(b.world.botToken, { intents: 1 });
    const answer = await addFault(a, { application_id: a.world.applicationId, kind: 'gateway.close', close_code: 4000 });
    assert.equal(answer.sessions, 0, 'node A counts its own sessions only');
    assert.equal(await gw.closed, 4000);
  });
});
